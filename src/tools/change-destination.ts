import { z } from 'zod';
import { codeParam, destinationParam, linkSchema, toLink } from './schemas.js';
import { defineTool } from './define-tool.js';
import { linkToChange } from './access.js';
import { assertChangeable } from '../domain/link-state.js';
import { changesSentence } from './limit-words.js';

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
  async run({ code, destination }, caller, ctx, once) {
    const link = await linkToChange(ctx, caller, code);
    // The store checks the state again atomically; checking it first spares a flagged link the network checks.
    assertChangeable(link.state, 'destination');
    // Stored as the parser serializes it (see makeLink).
    const { url } = await ctx.destinations.check(destination, 'destination');
    const limits = await ctx.store.settings.limits();
    return toLink(await ctx.store.links.setDestination(link.id, url.href, limits, ctx.clock.now(), once?.slot(toLink)));
  },
});
