import { checkName } from '../domain/link-name.js';
import { checkNote } from '../domain/note.js';
import { ApiError } from '../errors.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { FieldErrors } from '../views/forms.js';

/** A link form's text fields as typed; an absent field is not on the form, an empty one means "none". */
export interface LinkFieldValues {
  destination?: string;
  name?: string;
  note?: string;
}

/** The link a name is checked for: its team, and the link itself (null: one not made yet). */
export interface NameOwner {
  teamId: string;
  linkId: string | null;
}

type Check = (ctx: ToolContext, value: string, field: string, owner: NameOwner | null) => Promise<unknown>;

const CHECKS: Record<keyof LinkFieldValues, Check> = {
  destination: (ctx, value, field) => ctx.destinations.check(value, field),
  name: async (ctx, value, field, owner) => {
    const name = checkName(value === '' ? null : value, field);
    // Taken or kept by another team: the store's answer, read without holding the name.
    if (name !== null && owner) await ctx.store.links.nameRefusal(name, owner.teamId, owner.linkId, field);
  },
  note: async (_ctx, value, field) => checkNote(value === '' ? null : value, field),
};

/**
 * Every fault of a link form, not only the first: a tool stops at its first refusal, so after it refuses, the
 * form's other fields are checked on their own with the same rules (the tools' own checks, so the same messages).
 * Only runs after a refusal, so a good form is checked once. `prefix` names a field of a list item (`links[3].`).
 * With `owner`, a name taken is found too; a full team or a limit shows only when the tool reaches it.
 */
export async function faultsOfLinkForm(
  ctx: ToolContext,
  refusal: ApiError,
  values: LinkFieldValues,
  owner: NameOwner | null,
  prefix = '',
): Promise<FieldErrors> {
  const faults: FieldErrors = {};
  if (refusal.field !== null) faults[refusal.field] = refusal.detail;
  for (const key of Object.keys(CHECKS) as Array<keyof LinkFieldValues>) {
    const value = values[key];
    const field = `${prefix}${key}`;
    if (value === undefined || faults[field] !== undefined) continue;
    const fault = await refusalOfLinkField(ctx, key, value, owner, field);
    if (fault) faults[field] = fault.detail;
  }
  return faults;
}

/**
 * One field's refusal by the tools' own rule (its status too, for a page that checks a form before changing
 * anything), or null when the field passes. An empty name or note means "none"; a name is checked for `owner`.
 */
export async function refusalOfLinkField(
  ctx: ToolContext,
  key: keyof LinkFieldValues,
  value: string,
  owner: NameOwner | null,
  field: string = key,
): Promise<ApiError | null> {
  try {
    await CHECKS[key](ctx, value, field, owner);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return error;
  }
}

/** The team field's message: a value that is no team id was not picked from the page's list, so say what to do. */
export function teamFault(refusal: ApiError): string {
  return refusal.code === 'bad_request' ? 'Choose one of your teams.' : refusal.detail;
}
