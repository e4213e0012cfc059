import { z } from 'zod';
import { destinationParam, linkSchema, nameParam, noteParam, teamParam, linkIn } from './schemas.js';
import { defineTool } from './define-tool.js';
import { type Caller } from '../shared/caller.js';
import { teamToChange } from './access.js';
import type { NewLink } from '../store/ports.js';
import { creationLimitsSentence } from './limit-words.js';
import { firstFault, type InputChecks } from './faults.js';
import { checkNewLink } from './link-checks.js';
import { newLinkOptionParams } from './link-options.js';

export const newLinkFields = {
  destination: destinationParam,
  name: nameParam.default(null),
  note: noteParam.default(null),
  ...newLinkOptionParams,
};

const createLinkInput = z.strictObject({ team: teamParam, ...newLinkFields });

/** A team the caller may change, then the link (link-checks.ts); read ahead for a form, a name taken in it too. */
const checkCreateLink: InputChecks<z.output<typeof createLinkInput>, NewLink> = async (params, caller, ctx, faults) =>
  checkNewLink(ctx, faults, await faults.check('team', () => teamToChange(ctx, caller, params.team)), params);

export const createLink = defineTool({
  name: 'createLink',
  operation: 'createLink',
  title: 'Create a short link',
  description: ({ publicUrl, limits }) =>
    `Makes a short link in a team: ${publicUrl}/<code> (and ${publicUrl}/<name> when a short link name is given) ` +
    `will send visitors to the https destination, and ${publicUrl}/<code>/qr is its QR code. The code is random. ` +
    `${creationLimitsSentence(limits)} To make several links at once, use createLinks. Returns the new link; the ` +
    "result's text also names its short addresses and QR code.",
  input: createLinkInput,
  output: linkSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  errors: ['blocked_destination', 'invalid_destination', 'invalid_name', 'invalid_note', 'private_destination', 'reserved_name', 'shortener_destination', 'unsafe_destination', 'invalid_expiry', 'invalid_max_clicks', 'invalid_password', 'invalid_tag', 'name_taken', 'team_full', 'limit_reached', 'check_unavailable', 'outside_token_record'],
  takesIdempotencyKey: true,
  view: 'link-card',
  faults: checkCreateLink,
  async run(input, caller: Caller, ctx, once) {
    const link = await firstFault((faults) => checkCreateLink(input, caller, ctx, faults));
    const limits = await ctx.store.settings.limits();
    const toLink = await linkIn(ctx);
    return toLink(await ctx.store.links.create(link, limits, ctx.clock.now(), once?.slot(toLink)));
  },
});
