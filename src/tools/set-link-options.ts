import { z } from 'zod';
import { codeParam, linkIn, linkSchema } from './schemas.js';
import { defineTool } from './define-tool.js';
import { changesSentence } from './limit-words.js';
import { FAULT, firstFault, type InputChecks } from './faults.js';
import { changeableLink } from './link-checks.js';
import { checkLinkOptions, optionChangeParams } from './link-options.js';
import type { LinkOptions } from '../store/ports.js';

const setLinkOptionsInput = z.strictObject({ code: codeParam, ...optionChangeParams });

/**
 * A link the caller may change, in a state that takes new options, then the options' rules. Answers the link's
 * id and the options to store (those left out left out).
 */
const checkSetOptions: InputChecks<z.output<typeof setLinkOptionsInput>, { id: string; options: Partial<LinkOptions> }> = async (
  { code, ...sent },
  caller,
  ctx,
  faults,
) => {
  const link = await changeableLink(ctx, faults, caller, code, 'options');
  const options = await checkLinkOptions(ctx, faults, sent, '', link === FAULT ? null : link.passwordHash);
  return link === FAULT || options === FAULT ? FAULT : { id: link.id, options };
};

export const setLinkOptions = defineTool({
  name: 'setLinkOptions',
  operation: 'setLinkOptions',
  title: "Set a link's options",
  description: ({ limits }) =>
    'Sets any of the options of an existing link, by code: when it ends (expiresAt), after how many clicks ' +
    '(maxClicks), a password visitors must give (password; never returned, only hasPassword), its tags (the list ' +
    "sent replaces the link's), and whether a visitor's query string is passed on (forwardQuery). Options left out " +
    'stay as they are; null clears expiresAt, maxClicks and password. A later expiresAt or a higher maxClicks only ' +
    'adds, and brings an ended link back; an earlier expiresAt or a lower maxClicks can end the link for visitors at ' +
    'once, a new password turns away visitors who knew the old one, and tags sent replace the old ones: confirm such ' +
    'changes with the person. Sending what the link has changes nothing. Not possible while the link is flagged (ask ' +
    `for a review) or disabled. ${changesSentence(limits)} Returns the link.`,
  input: setLinkOptionsInput,
  output: linkSchema,
  // Destructive: it can end a link or lock visitors out (the description says when). The same call again changes
  // nothing more: the same password sent again keeps the stored hash.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  errors: ['invalid_expiry', 'invalid_max_clicks', 'invalid_password', 'invalid_tag', 'link_disabled', 'link_flagged', 'limit_reached', 'outside_token_record'],
  takesIdempotencyKey: true,
  view: 'link-card',
  faults: checkSetOptions,
  async run(input, caller, ctx, once) {
    const { id, options } = await firstFault((faults) => checkSetOptions(input, caller, ctx, faults));
    const limits = await ctx.store.settings.limits();
    const toLink = await linkIn(ctx);
    return toLink(await ctx.store.links.setOptions(id, options, limits, ctx.clock.now(), once?.slot(toLink)));
  },
});
