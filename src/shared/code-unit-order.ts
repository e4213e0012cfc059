/**
 * Orders strings by their UTF-16 code units, as `<` does: not by locale, so that `aB3` and `Ab3` (two codes) keep
 * one order everywhere, SQLite's byte order and PostgreSQL's "C" collation agreeing with it on the ASCII of ids,
 * codes and dates.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
