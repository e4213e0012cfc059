import { z } from 'zod';
import { codeParam } from './schemas.js';
import { defineTool } from './define-tool.js';
import { linkToChange } from './access.js';
import { changesSentence } from './limit-words.js';

export const deleteLink = defineTool({
  name: 'deleteLink',
  operation: 'deleteLink',
  title: 'Delete a link',
  description: ({ publicUrl, limits }) =>
    `Deletes a link, by code, for good: ${publicUrl}/<code> and its name answer "not found" at once, and its code ` +
    `and name are never issued again. ${changesSentence(limits)} Always ask the person before deleting, naming the ` +
    'link and where it goes.',
  input: z.strictObject({ code: codeParam }),
  output: z.null(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  errors: ['limit_reached', 'outside_token_record'],
  takesIdempotencyKey: true,
  async confirmation({ code }, caller, ctx) {
    const link = await linkToChange(ctx, caller, code);
    const named = link.name ? ` (${ctx.config.publicUrl}/${link.name})` : '';
    return `Delete the short link ${ctx.config.publicUrl}/${code}${named}, which leads to ${link.destination}? ` +
      'It stops working at once, and its code and name are never issued again.';
  },
  async run({ code }, caller, ctx, once) {
    const link = await linkToChange(ctx, caller, code);
    await ctx.store.links.delete(link.id, (await ctx.store.settings.limits()), ctx.clock.now(), once?.slot(() => null));
    return null;
  },
});
