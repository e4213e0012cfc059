import type { Ranked } from '../ports.js';
import { ranked } from '../analytics-batch.js';
import { asker, type Steps } from './steps.js';
import { byCodeUnits } from '../../shared/code-unit-order.js';

/**
 * What ranking a team's links or a facet's values asks of an adapter, for one team and range of days, answered in
 * one snapshot of the database. A row's key is its link id or value.
 */
export interface RankingQueries<Row extends { clicks: number }> {
  /**
   * The team's keys with clicks by their counted clicks of every day kept (the most they can have in any of
   * them), most first, ties by key: `count` of them from `offset`.
   */
  bounds(offset: number, count: number): Array<{ key: string; clicks: number }>;
  /** These keys' rows summed over the days; keys without clicks there absent. */
  sums(keys: string[]): Row[];
  /** The team's counted clicks in the days (its sums). */
  total(): number;
  /** Every row summed over the days and ranked whole, as analytics-batch.ts `ranked` reads. */
  scan(limit: number): Array<Row & { all: number }>;
}

/** Keys summed per page of candidates, and pages tried before the ranking is read whole. */
const PAGE = 250;
const PAGES = 4;

/**
 * A team's `limit` top rows in the days. Summing every link of a large team over 90 days reads tens of thousands of
 * rows (each link clicked on a few days, the busiest on most), and so does every referring host; instead the keys
 * are summed busiest first, a page at a time, until the last row kept has more clicks than any key not summed yet
 * could have: a few hundred keys, whose rest is then the team's total less theirs. When the days are few, the
 * busiest of every day kept are not the busiest in them and this would not end soon: after a few pages the ranking
 * is read whole, which is cheap then.
 */
export function* topRows<Row extends { clicks: number }>(limit: number, keyOf: (row: Row) => string): Steps<RankingQueries<Row>, Ranked<Row>> {
  const q = asker<RankingQueries<Row>>();
  const byClicks = (a: Row, b: Row) => b.clicks - a.clicks || byCodeUnits(keyOf(a), keyOf(b));
  let best: Row[] = [];
  for (let page = 0; page < PAGES; page++) {
    const bounds = yield* q.bounds(page * PAGE, PAGE);
    best = [...best, ...(yield* q.sums(bounds.map((bound) => bound.key)))].sort(byClicks).slice(0, limit);
    const most = bounds.at(-1)?.clicks ?? 0;
    const full = limit === 0 || (best.length === limit && best[limit - 1]!.clicks > most);
    if (bounds.length < PAGE || full) {
      const total = yield* q.total();
      return { rows: best, rest: total - best.reduce((sum, row) => sum + row.clicks, 0) };
    }
  }
  return ranked(yield* q.scan(Math.max(limit, 1)), limit);
}
