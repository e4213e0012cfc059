import { z } from 'zod';
import { codeParam, linkSchema, nameParam, toLink } from './schemas.js';
import { defineTool } from './define-tool.js';
import { linkToChange } from './access.js';
import { checkName } from '../domain/link-name.js';
import { assertChangeable } from '../domain/link-state.js';
import { changesSentence } from './limit-words.js';

export const renameLink = defineTool({
  name: 'renameLink',
  operation: 'renameLink',
  title: 'Rename a link',
  description: ({ publicUrl, limits }) =>
    `Sets, changes or removes (null) the short link name of a link, by code: the link is then also ${publicUrl}/<name>. ` +
    'The old name stops working at once and stays reserved for the team; ' +
    `${publicUrl}/<code> and its QR code keep working. Not possible while the link is flagged or disabled. ` +
    `${changesSentence(limits)} Returns the link.`,
  input: z.strictObject({ code: codeParam, name: nameParam }),
  output: linkSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  errors: ['invalid_name', 'reserved_name', 'link_disabled', 'link_flagged', 'name_taken', 'limit_reached', 'outside_token_record'],
  takesIdempotencyKey: true,
  async run({ code, name }, caller, ctx, once) {
    const link = await linkToChange(ctx, caller, code);
    // The store checks the state again atomically; first, so a flagged link answers link_flagged whatever the name.
    assertChangeable(link.state, 'name');
    const checked = checkName(name);
    const limits = await ctx.store.settings.limits();
    return toLink(await ctx.store.links.rename(link.id, checked, limits, ctx.clock.now(), once?.slot(toLink)));
  },
});
