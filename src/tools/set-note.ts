import { z } from 'zod';
import { codeParam, linkSchema, noteParam, linkIn } from './schemas.js';
import { defineTool } from './define-tool.js';
import { linkToChange } from './access.js';
import { checkNote, NOTE_MAX } from '../domain/note.js';
import { assertNoteChangeable } from '../domain/link-state.js';
import { FAULT, firstFault, type InputChecks } from './faults.js';

/**
 * A link the caller may change, then the note's rule. A disabled link takes no note: the store refuses it
 * atomically as it writes, and a form reads that ahead, before the note. Answers the link's id and the note.
 */
const checkSetNote: InputChecks<{ code: string; note: string | null }, { id: string; note: string | null }> = async (
  { code, note },
  caller,
  ctx,
  faults,
) => {
  const link = await faults.check('code', () => linkToChange(ctx, caller, code));
  if (link === FAULT) return FAULT;
  if (faults.ahead && (await faults.check('note', () => assertNoteChangeable(link.state))) === FAULT) return FAULT;
  const checked = await faults.check('note', () => checkNote(note));
  return checked === FAULT ? FAULT : { id: link.id, note: checked };
};

export const setNote = defineTool({
  name: 'setNote',
  operation: 'setNote',
  title: "Set a link's note",
  description:
    `Sets or clears (null) the private note of a link, by code: up to ${NOTE_MAX} letters, numbers, spaces and - _ , . ' ` +
    '( ) & ! ? : . Returns the link.',
  input: z.strictObject({ code: codeParam, note: noteParam }),
  output: linkSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  errors: ['invalid_note', 'conflict', 'outside_token_record'],
  takesIdempotencyKey: true,
  view: 'link-card',
  faults: checkSetNote,
  async run(input, caller, ctx, once) {
    const { id, note } = await firstFault((faults) => checkSetNote(input, caller, ctx, faults));
    const toLink = await linkIn(ctx);
    return toLink(await ctx.store.links.setNote(id, note, ctx.clock.now(), once?.slot(toLink)));
  },
});
