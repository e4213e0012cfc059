import { z } from 'zod';
import { destinationParam, linkSchema, nameParam, noteParam, teamParam, toLink } from './schemas.js';
import { defineTool, type ToolContext } from './define-tool.js';
import { type Caller } from '../shared/caller.js';
import { teamToChange } from './access.js';
import { checkName } from '../domain/link-name.js';
import { checkNote } from '../domain/note.js';
import type { NewLink, Team } from '../store/ports.js';
import { creationLimitsSentence } from './limit-words.js';

export const newLinkFields = {
  destination: destinationParam,
  name: nameParam.default(null),
  note: noteParam.default(null),
};

export type NewLinkInput = { destination: string; name: string | null; note: string | null };

/**
 * One link's fields checked as the store takes them, in a team the caller may change: the field rules, then the
 * destination rules (which may wait on the network, so never inside a transaction). The store then checks,
 * atomically, the team's limits and the name's uniqueness, and draws a fresh code. `prefix` names the fields of a
 * createLinks item (`links[3].`).
 */
export async function checkedLink(ctx: ToolContext, team: Team, input: NewLinkInput, prefix = ''): Promise<NewLink> {
  const name = checkName(input.name, `${prefix}name`);
  const note = checkNote(input.note, `${prefix}note`);
  // Stored as the parser serializes it, which is where the redirect goes, so lists and pages show that.
  const destination = (await ctx.destinations.check(input.destination, `${prefix}destination`)).url.href;
  return { teamId: team.id, teamCreatedAt: new Date(team.createdAt), destination, name, note };
}

export const createLink = defineTool({
  name: 'createLink',
  operation: 'createLink',
  title: 'Create a short link',
  description: ({ publicUrl, limits }) =>
    `Makes a short link in a team: ${publicUrl}/<code> (and ${publicUrl}/<name> when a short link name is given) ` +
    `will send visitors to the https destination, and ${publicUrl}/<code>/qr is its QR code. The code is random. ` +
    `${creationLimitsSentence(limits)} To make several links at once, use createLinks. Returns the new link; the ` +
    "result's text also names its short addresses and QR code.",
  input: z.strictObject({ team: teamParam, ...newLinkFields }),
  output: linkSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  errors: ['blocked_destination', 'invalid_destination', 'invalid_name', 'invalid_note', 'private_destination', 'reserved_name', 'shortener_destination', 'unsafe_destination', 'name_taken', 'team_full', 'limit_reached', 'check_unavailable', 'outside_token_record'],
  takesIdempotencyKey: true,
  async run(input, caller: Caller, ctx, once) {
    const team = await teamToChange(ctx, caller, input.team);
    const link = await checkedLink(ctx, team, input);
    const limits = await ctx.store.settings.limits();
    return toLink(await ctx.store.links.create(link, limits, ctx.clock.now(), once?.slot(toLink)));
  },
});
