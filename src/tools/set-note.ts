import { z } from 'zod';
import { codeParam, linkSchema, noteParam, toLink } from './schemas.js';
import { defineTool } from './define-tool.js';
import { linkToChange } from './access.js';
import { checkNote } from '../domain/note.js';

export const setNote = defineTool({
  name: 'setNote',
  operation: 'setNote',
  title: "Set a link's note",
  description:
    "Sets or clears (null) the private note of a link, by code: up to 100 letters, numbers, spaces and - _ , . ' " +
    '( ) & ! ? : . Returns the link.',
  input: z.strictObject({ code: codeParam, note: noteParam }),
  output: linkSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  errors: ['invalid_note', 'conflict', 'outside_token_record'],
  takesIdempotencyKey: true,
  async run({ code, note }, caller, ctx, once) {
    const link = await linkToChange(ctx, caller, code);
    const checked = checkNote(note);
    return toLink(await ctx.store.links.setNote(link.id, checked, ctx.clock.now(), once?.slot(toLink)));
  },
});
