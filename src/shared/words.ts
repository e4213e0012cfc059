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
