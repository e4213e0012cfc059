/** `count` UTC calendar dates (`YYYY-MM-DD`) ending with the day of `now`, oldest first. */
export function lastDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) => utcDate(new Date(today - (count - 1 - i) * 86_400_000)));
}

/** The UTC calendar date of an instant, `YYYY-MM-DD`. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}
