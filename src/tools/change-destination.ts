import { z } from 'zod';
import { codeParam, destinationParam, linkSchema, linkIn } from './schemas.js';
import { defineTool } from './define-tool.js';
import { changesSentence } from './limit-words.js';
import { FAULT, firstFault, type InputChecks } from './faults.js';
import { changeableLink } from './link-checks.js';

/**
 * A link the caller may change, in a state that takes a new destination, then the destination's rules (which may
 * wait on the network: not for a link that cannot take it). Answers the link's id and the destination to store.
 */
const checkChange: InputChecks<{ code: string; destination: string }, { id: string; destination: string }> = async (
  { code, destination },
  caller,
  ctx,
  faults,
) => {
  const link = await changeableLink(ctx, faults, caller, code, 'destination');
  if (link === FAULT) return FAULT;
  const checked = await faults.check('destination', () => ctx.destinations.check(destination, 'destination'));
  // Stored as the parser serializes it (see checkNewLink).
  return checked === FAULT ? FAULT : { id: link.id, destination: checked.url.href };
};

export const changeDestination = defineTool({
  name: 'changeDestination',
  operation: 'setDestination',
  title: "Change a link's destination",
  description: ({ limits }) =>
    'Points an existing link (by code) at a new https destination; the short link, its name and printed QR codes ' +
    'follow at once. Not possible while the link is flagged (ask for a review) or disabled. ' +
    `${changesSentence(limits)} Returns the link.`,
  input: z.strictObject({ code: codeParam, destination: destinationParam }),
  output: linkSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  errors: ['blocked_destination', 'invalid_destination', 'private_destination', 'shortener_destination', 'unsafe_destination', 'link_disabled', 'link_flagged', 'limit_reached', 'check_unavailable', 'outside_token_record'],
  takesIdempotencyKey: true,
  view: 'link-card',
  faults: checkChange,
  async run(input, caller, ctx, once) {
    const { id, destination } = await firstFault((faults) => checkChange(input, caller, ctx, faults));
    const limits = await ctx.store.settings.limits();
    const toLink = await linkIn(ctx);
    return toLink(await ctx.store.links.setDestination(id, destination, limits, ctx.clock.now(), once?.slot(toLink)));
  },
});
