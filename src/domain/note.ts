import { apiError } from '../errors.js';
import { NOTE_MAX } from '../shared/field-lengths.js';

/**
 * Letters and numbers of any script, plain spaces, and - _ , . ' ( ) & ! ? : . A combining mark is part of the
 * letter or number before it (e + ◌́ is é; Devanagari's vowel signs are marks), so marks count only after one: a
 * note of marks alone, or marks stacked on a space, has no letter in it.
 */
const NOTE_PATTERN = /^(?:[\p{L}\p{N}]\p{M}*|[ \-_,.'()&!?:])*$/u;

/** Kept in shared/ (the error table's sentences write it too), exported with the rule that checks it. */
export { NOTE_MAX };

/**
 * Checks a note: null stays null (no note); otherwise 400 `invalid_note` for more than 100 characters or a
 * character outside the allowed set. Length counts characters as people do (code points), not UTF-16 units.
 */
export function checkNote(note: string | null, field = 'note'): string | null {
  if (note === null) return null;
  if ([...note].length > NOTE_MAX) {
    throw apiError.invalidNote(`A note is at most ${NOTE_MAX} characters.`, field);
  }
  if (!NOTE_PATTERN.test(note)) {
    throw apiError.invalidNote(undefined, field);
  }
  return note;
}
