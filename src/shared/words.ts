/** A number with its noun, the noun in the plural unless the number is 1: `count(3, 'link')` is "3 links". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * A wait as a person reads it, rounded up to a unit that fits: "40 seconds", "59 minutes", "24 hours". The exact
 * seconds go in Retry-After and `retryAfter`, for programs.
 */
export function timeToWait(seconds: number): string {
  if (seconds < 120) return count(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 7_200) return count(Math.ceil(seconds / 60), 'minute');
  return count(Math.ceil(seconds / 3_600), 'hour');
}

/** The most characters of anything a caller sent that a message quotes. */
export const QUOTE_MAX = 40;

/**
 * What a message quotes of something a caller sent: the text, or its first `max` characters and "…" when it is
 * longer. Counted in code points, so a character outside the BMP is never cut in half. A message is stored
 * (an idempotent answer, each failed item of createLinks) and logged, so quoting input whole would let a caller
 * make the service keep whatever they send, as often as they repeat it.
 */
export function clipped(text: string, max = QUOTE_MAX): string {
  if (text.length <= max) return text;
  let kept = 0;
  let end = 0;
  for (const point of text) {
    if (kept === max) return `${text.slice(0, end)}…`;
    kept += 1;
    end += point.length;
  }
  return text;
}

/**
 * A few of a caller's values for a message, each clipped: "a", "a and b", "a, b and c", or past `few`, "a, b, c and
 * 4 more". A request may carry thousands (unknown params, scopes); a message names enough to find them.
 */
export function someOf(values: readonly string[], few = 3): string {
  const named = values.slice(0, few).map((value) => clipped(value));
  const rest = values.length - named.length;
  if (rest > 0) return `${named.join(', ')} and ${rest} more`;
  return named.length <= 1 ? (named[0] ?? '') : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}
