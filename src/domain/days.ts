/** The days linkClicks answers, today last, and the fewer its recent total (`last7`) counts. */
export const CLICK_DAYS = 30;
export const RECENT_CLICK_DAYS = 7;

/** `count` UTC calendar dates (`YYYY-MM-DD`) ending with the day of `now`, oldest first. */
export function lastDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) => utcDate(new Date(today - (count - 1 - i) * 86_400_000)));
}

/**
 * The first of the `count` UTC dates ending with the day of `now` (lastDays' first, without making the list). Never
 * before 1970: a window as wide as a lifted limit (a billion days) reaches past what a Date holds, and nothing
 * stored is older anyway.
 */
export function firstOfLastDays(now: Date, count: number): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return utcDate(new Date(Math.max(0, today - (count - 1) * 86_400_000)));
}

/** The UTC calendar date before `day` (`YYYY-MM-DD`). */
export function dayBefore(day: string): string {
  return utcDate(new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000));
}

/** The UTC calendar date of an instant, `YYYY-MM-DD`. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}
