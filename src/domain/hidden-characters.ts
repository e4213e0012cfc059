/**
 * Characters that make a name read as something it is not. One rule for every name a person or a program gives
 * itself and others see (team names, OAuth client names): refused when given, and neutralized when shown.
 */

// C0 and C1 controls and DEL garble pages and lists (a NUL can end a string early in other programs); the
// bidirectional formatting characters (Arabic letter mark, LRM/RLM, embeddings and overrides U+202A–U+202E,
// isolates U+2066–U+2069) reorder what is shown, so "Claude\u202eliaf" reads as something else.
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');

/** True when `text` holds a control or bidirectional formatting character, or a lone UTF-16 surrogate. */
export function hasHiddenCharacters(text: string): boolean {
  return HIDDEN.test(text) || !text.isWellFormed();
}

/**
 * `text` with each control, bidirectional formatting character and lone surrogate replaced by U+FFFD, so a
 * name stored before the rule existed shows that something was there without it taking effect.
 */
export function neutralized(text: string): string {
  return text.toWellFormed().replace(HIDDEN_ALL, '\ufffd');
}
