import type { Express, Response } from 'express';
import type { z } from 'zod';
import type { SignedIn } from '../../auth/web-sessions.js';
import { destinationWords, MAX_DESTINATION_LENGTH } from '../../domain/destination.js';
import type { DestinationMode } from '../../domain/service-settings.js';
import { MAX_NAME_LENGTH, MIN_NAME_LENGTH } from '../../domain/link-name.js';
import { NOTE_MAX } from '../../domain/note.js';
import { ApiError } from '../../errors.js';
import { setRetryAfter } from '../../http/retry-after.js';
import { changeDestination } from '../../tools/change-destination.js';
import type { Tool, ToolContext } from '../../tools/define-tool.js';
import { renameLink } from '../../tools/rename-link.js';
import { setNote } from '../../tools/set-note.js';
import { setLinkOptions } from '../../tools/set-link-options.js';
import type { Link } from '../../tools/schemas.js';
import { alertBox, csrfField, textField, type FieldErrors } from '../../views/forms.js';
import { html } from '../../views/html.js';
import { linkOptionsFields, utmInputs, type OptionValues } from '../../views/link-options-fields.js';
import { OPTION_FIELDS, optionChangesOf, optionFormFaults, optionValuesOf, optionValuesOfLink, utmValuesOf } from '../link-options-form.js';
import { withUtm } from '../utm.js';
import { linkOf } from '../link-of.js';
import { render, signedInOnly, text, type PageDeps } from '../request.js';
import { faultsOf, runTool } from '../run-tool.js';
import { backToLink, stateNote } from './link-actions.js';

const FIELDS = ['destination', 'name', 'note'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

const WORDS: Record<Field, string> = { destination: 'destination', name: 'short link name', note: 'note' };

/**
 * Each field's change goes to its own tool, and only when it changed, in this order: the name, then the
 * destination, each spending one change of the hour's limit (with one left, the name gets it); the note last, as
 * it counts against no limit, so it is saved whatever the others met.
 */
const SAVE_ORDER: Field[] = ['name', 'destination', 'note'];

/** What a field's tool does with the form's value: saves it, or finds its faults (its own checks, before any save). */
interface FieldChange {
  save(ctx: ToolContext, me: SignedIn, code: string, value: string): Promise<unknown>;
  faults(ctx: ToolContext, me: SignedIn, code: string, value: string): Promise<ApiError[]>;
}

function fieldChange<I extends z.ZodObject, O extends z.ZodType>(
  tool: Tool<I, O>,
  input: (code: string, value: string) => z.output<I>,
): FieldChange {
  return {
    save: (ctx, me, code, value) => runTool(ctx, tool, me, input(code, value)),
    faults: (ctx, me, code, value) => faultsOf(ctx, tool, me, input(code, value)),
  };
}

/** An empty name or note field means none. */
const noneIfEmpty = (value: string) => (value === '' ? null : value);

const CHANGES: Record<Field, FieldChange> = {
  destination: fieldChange(changeDestination, (code, value) => ({ code, destination: value })),
  name: fieldChange(renameLink, (code, value) => ({ code, name: noneIfEmpty(value) })),
  note: fieldChange(setNote, (code, value) => ({ code, note: noneIfEmpty(value) })),
};

/** The form's values as the link has them: an empty name or note field means none. */
function valuesOf(link: Link): Values {
  return { destination: link.destination, name: link.name ?? '', note: link.note ?? '' };
}

/**
 * Every changed field's refusal by its tool's own checks (the link's state, the field's rule, a name taken), before
 * anything changes, so one bad field changes nothing. A link deleted meanwhile throws, for the 404 page, as its
 * save would.
 */
async function refusalsOf(ctx: ToolContext, me: SignedIn, link: Link, values: Values, changed: Field[]): Promise<ApiError[]> {
  const refusals: ApiError[] = [];
  for (const field of changed) {
    const [first] = await CHANGES[field].faults(ctx, me, link.code, values[field]);
    if (first?.status === 404) throw first;
    // The tools name no field for a state's refusal; here it is the field's.
    if (first) refusals.push(new ApiError(first.code, first.detail, field, first.retryAfter));
  }
  return refusals;
}

const wordsFor = (fields: Field[]) => fields.map((f) => WORDS[f]).join(' and ');

/**
 * Saves each changed field in SAVE_ORDER, each on its own: a refusal (a limit, a name taken in the moment since the
 * check) stops its field only, so the note, which counts against no limit, is not held back by the destination.
 * Answers the fields saved and each refusal with its field (the tools name no field for a limit). A link deleted
 * meanwhile throws, for the 404 page.
 */
async function saveChanges(ctx: ToolContext, me: SignedIn, code: string, values: Values, changed: Field[]) {
  const saved: Field[] = [];
  const refusals: ApiError[] = [];
  for (const field of changed) {
    try {
      await CHANGES[field].save(ctx, me, code, values[field]);
      saved.push(field);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 404) throw error;
      refusals.push(new ApiError(error.code, error.detail, field, error.retryAfter));
    }
  }
  return { saved, refusals };
}

interface Problem {
  status: number;
  errors: FieldErrors;
  alert?: string;
}

const NO_PROBLEM: Problem = { status: 200, errors: {} };

/** The options form as shown: the link's options, or what was sent with the faults found. */
interface OptionsForm {
  values: OptionValues;
  problem: Problem;
}

/**
 * Editing a link, `/app/links/<code>/edit`: its destination, short link name and note in one form. Only the fields
 * that changed are sent, each to its tool (changeDestination, renameLink, setNote), so every rule, limit and message
 * is the API's. Every changed field is checked before any is saved, and all faults show at once beside their fields.
 * Below it, the link's options in a form of their own (setLinkOptions, `/app/links/<code>/options`), and the UTM
 * builder, a form posting to the edit form's address with only its fields.
 */
export function linkEditPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;

  async function show(res: Response, me: SignedIn, link: Link, values: Values, problem = NO_PROBLEM, options?: OptionsForm) {
    const { errors } = problem;
    const { destinations } = await ctx.store.settings.serviceSettings();
    render(
      res,
      options ? options.problem.status : problem.status,
      `Edit link ${link.code}`,
      html`${backToLink(link)}
<h1>Edit link <code>${link.code}</code></h1>
${stateNote(link)}
${alertBox(problem.alert)}
${link.state === 'disabled' ? alertBox(options?.problem.alert) : html`${editForm(me, link, values, errors, destinations)}
${optionsForm(me, link, options ?? { values: optionValuesOfLink(link), problem: NO_PROBLEM })}
${utmForm(me, link)}`}`,
      'app',
    );
  }

  /** The form itself: none for a disabled link, which takes no change (the state note above says so). */
  function editForm(me: SignedIn, link: Link, values: Values, errors: FieldErrors, destinations: DestinationMode) {
    return html`<form method="post" action="/app/links/${link.code}/edit" class="card" novalidate>
${csrfField(me.csrf)}
${textField({ name: 'destination', label: 'Destination', type: 'url', value: values.destination, error: errors.destination, required: true, hint: `${destinationWords(destinations)}. The short link and printed QR codes follow at once.`, maxlength: MAX_DESTINATION_LENGTH })}
${textField({ name: 'name', label: 'Short link name', value: values.name, error: errors.name, hint: `${MIN_NAME_LENGTH} to ${MAX_NAME_LENGTH} of a-z, 0-9, - and _; empty for none. An old name stops working at once and stays reserved for your team.`, maxlength: MAX_NAME_LENGTH })}
${textField({ name: 'note', label: 'Note', value: values.note, error: errors.note, hint: `Up to ${NOTE_MAX} characters; empty for none. Only your team sees it.`, maxlength: NOTE_MAX })}
<button type="submit">Save changes</button> <a href="/app/links/${link.code}" style="margin-left:1rem">Cancel</a>
</form>`;
  }

  /**
   * The UTM builder, a form of its own posting to the edit form's address with only its fields: the destination, not
   * sent, is the link's, with the filled fields added (a fault of it shows beside the destination above).
   */
  function utmForm(me: SignedIn, link: Link) {
    return html`<section aria-labelledby="utm-heading">
<h2 id="utm-heading">Campaign tracking (UTM)</h2>
<form method="post" action="/app/links/${link.code}/edit" class="card" novalidate>
${csrfField(me.csrf)}
${utmInputs()}
<button type="submit">Add to the destination</button>
</form>
</section>`;
  }

  /** The options' own form (setLinkOptions), below the other: a refusal of no field (a flagged link) above it. */
  function optionsForm(me: SignedIn, link: Link, form: OptionsForm) {
    return html`<section aria-labelledby="options-heading">
<h2 id="options-heading">Options</h2>
${alertBox(form.problem.alert)}
<form method="post" action="/app/links/${link.code}/options" class="card" novalidate>
${csrfField(me.csrf)}
${linkOptionsFields(form.values, form.problem.errors, link.hasPassword)}
<button type="submit">Save options</button>
</form>
</section>`;
  }

  app.get(
    '/app/links/:code/edit',
    signedInOnly(deps, async (req, res, me) => {
      const link = await linkOf(ctx, me, req.params.code as string);
      await show(res, me, link, valuesOf(link));
    }),
  );

  app.post(
    '/app/links/:code/edit',
    signedInOnly(deps, async (req, res, me) => {
      const link = await linkOf(ctx, me, req.params.code as string);
      const before = valuesOf(link);
      // A field not sent (or sent twice, which no browser does) is left as it is: only an empty field removes.
      const sent = (field: Field) => typeof (req.body as Record<string, unknown> | undefined)?.[field] === 'string';
      const values = Object.fromEntries(FIELDS.map((f) => [f, sent(f) ? text(req, f) : before[f]])) as Values;
      // The UTM builder's fields join the destination (replacing parameters of their names), so sending again is the same.
      values.destination = withUtm(values.destination, utmValuesOf(req));
      const changed = SAVE_ORDER.filter((field) => values[field] !== before[field]);
      if (changed.length === 0) return res.redirect(303, `/app/links/${link.code}?done=unchanged`);

      const refusals = await refusalsOf(ctx, me, link, values, FIELDS.filter((f) => changed.includes(f)));
      if (refusals.length > 0) {
        const errors = Object.fromEntries(refusals.map((r) => [r.field!, r.detail]));
        setRetryAfter(res, refusals[0]!.retryAfter);
        return show(res, me, link, values, { status: refusals[0]!.status, errors });
      }
      const outcome = await saveChanges(ctx, me, link.code, values, changed);
      const { saved } = outcome;
      const [first] = outcome.refusals;
      if (first) {
        setRetryAfter(res, first.retryAfter);
        const unsaved = changed.filter((field) => !saved.includes(field));
        const alert = saved.length > 0 ? `Saved the ${wordsFor(saved)}; not the ${wordsFor(unsaved)}.` : undefined;
        const now = saved.length > 0 ? await linkOf(ctx, me, link.code) : link;
        const errors = Object.fromEntries(outcome.refusals.map((r) => [r.field!, r.detail]));
        return show(res, me, now, values, { status: first.status, errors, ...(alert ? { alert } : {}) });
      }
      res.redirect(303, `/app/links/${link.code}?done=edited`);
    }),
  );

  /**
   * The options form: only the options that changed go to setLinkOptions (nothing changed saves nothing and says
   * so). A refusal shows every fault of the form at once beside its field, a refusal of none (the link flagged or
   * disabled, the change limit) above the form; nothing is saved then.
   */
  app.post(
    '/app/links/:code/options',
    signedInOnly(deps, async (req, res, me) => {
      const link = await linkOf(ctx, me, req.params.code as string);
      const values = optionValuesOf(req);
      const input = { code: link.code, ...optionChangesOf(link, values, text(req, 'password')) };
      if (Object.keys(input).length === 1) return res.redirect(303, `/app/links/${link.code}?done=unchanged`);
      try {
        await runTool(ctx, setLinkOptions, me, input);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 404) throw error;
        setRetryAfter(res, error.retryAfter);
        const faults = optionFormFaults(error, await faultsOf(ctx, setLinkOptions, me, input, error), OPTION_FIELDS);
        return show(res, me, link, valuesOf(link), NO_PROBLEM, { values, problem: { status: error.status, ...faults } });
      }
      res.redirect(303, `/app/links/${link.code}?done=edited`);
    }),
  );
}
