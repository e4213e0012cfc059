import { byCodeUnits } from '../shared/code-unit-order.js';
import type { AnalyticsBatch, FacetCount, Ranked, UncountedCount } from './ports.js';
import type { AdditionRows, AdditionTable } from './sql/analytics.js';

/**
 * The facet whose counts are a link's counted clicks of a day in a batch: every counted click is one count of every
 * facet (it has one value of each), so any facet would do; `source` has the fewest values.
 */
const CLICKS_FACET = 'source';

/** What a batch brings one link on one day, as both adapters write it. */
export interface LinkDay {
  linkId: string;
  day: string;
  /** Counted clicks (the batch's `source` counts), for click_days and the team's days. */
  clicks: number;
  facets: FacetCount[];
  uncounted: UncountedCount[];
  marks: Uint8Array[];
}

/** The batch per link and day, in (link, day) order: the order both adapters write rows and so take their locks. */
export function byLinkDay(batch: AnalyticsBatch): LinkDay[] {
  const found = new Map<string, LinkDay>();
  const of = (linkId: string, day: string) => {
    const key = `${linkId}\u0000${day}`;
    let linkDay = found.get(key);
    if (!linkDay) found.set(key, (linkDay = { linkId, day, clicks: 0, facets: [], uncounted: [], marks: [] }));
    return linkDay;
  };
  for (const facet of batch.facets) {
    const linkDay = of(facet.linkId, facet.day);
    linkDay.facets.push(facet);
    if (facet.facet === CLICKS_FACET) linkDay.clicks += facet.count;
  }
  for (const uncounted of batch.uncounted) of(uncounted.linkId, uncounted.day).uncounted.push(uncounted);
  for (const visitor of batch.visitors) of(visitor.linkId, visitor.day).marks.push(visitor.mark);
  return [...found.values()].sort((a, b) => byCodeUnits(a.linkId, b.linkId) || byCodeUnits(a.day, b.day));
}


/**
 * What the link days of a batch add to each table (sql/analytics.ts' additions), for links still there (`teamOf`
 * their teams) with `visitorsOf` new visitors each: a link's rows, and its team's, summed over the batch, since a
 * team's links add to the same few rows (and a PostgreSQL upsert may not touch a row twice).
 */
export function additionRows(
  linkDays: readonly LinkDay[],
  teamOf: ReadonlyMap<string, string>,
  visitorsOf: (linkId: string, day: string) => number,
): Record<AdditionTable, AdditionRows> {
  const sums = {
    click_days: new Sums(2),
    click_links: new Sums(1),
    click_facets: new Sums(4),
    click_uncounted: new Sums(3),
    team_click_days: new Sums(2),
    team_click_facets: new Sums(4),
    team_click_values: new Sums(3),
    team_click_uncounted: new Sums(3),
  } satisfies Record<AdditionTable, Sums>;
  for (const { linkId, day, clicks, facets, uncounted } of linkDays) {
    const teamId = teamOf.get(linkId)!;
    const visitors = visitorsOf(linkId, day);
    if (clicks > 0 || visitors > 0) {
      sums.click_days.add(linkId, day, teamId, clicks, visitors);
      sums.team_click_days.add(teamId, day, clicks, visitors);
      if (clicks > 0) sums.click_links.add(linkId, teamId, clicks);
    }
    for (const { facet, value, count } of facets) {
      sums.click_facets.add(linkId, facet, day, value, count);
      sums.team_click_facets.add(teamId, facet, day, value, count);
      sums.team_click_values.add(teamId, facet, value, count);
    }
    for (const { class: kind, count } of uncounted) {
      sums.click_uncounted.add(linkId, day, kind, count);
      sums.team_click_uncounted.add(teamId, day, kind, count);
    }
  }
  return Object.fromEntries(Object.entries(sums).map(([table, rows]) => [table, rows.rows()])) as Record<AdditionTable, AdditionRows>;
}

/** The new visitors of each link and day, from the marks an insert took (one row per mark not stored before). */
export function visitorCounter(fresh: ReadonlyArray<{ linkId: string; day: string }>): (linkId: string, day: string) => number {
  const counts = new Map<string, number>();
  for (const { linkId, day } of fresh) counts.set(`${linkId} ${day}`, (counts.get(`${linkId} ${day}`) ?? 0) + 1);
  return (linkId, day) => counts.get(`${linkId} ${day}`) ?? 0;
}

/**
 * Rows summed by their first `keyLength` values: a batch adds to each row of a table once (a PostgreSQL upsert may not
 * touch a row twice, and SQLite's row-by-row additions cost a statement each). The numbers past the key are added;
 * the text past it (click_days' team) is the same for a key.
 */
export class Sums {
  private readonly found = new Map<string, Array<string | number>>();

  constructor(private readonly keyLength: number) {}

  add(...values: Array<string | number>): void {
    const id = values.slice(0, this.keyLength).join('\u0000');
    const row = this.found.get(id);
    if (!row) this.found.set(id, values);
    else for (let i = this.keyLength; i < values.length; i++) if (typeof values[i] === 'number') row[i] = (row[i] as number) + (values[i] as number);
  }

  get empty(): boolean {
    return this.found.size === 0;
  }

  rows(): Array<Array<string | number>> {
    return [...this.found.values()];
  }

  /** The rows as one array per column (for PostgreSQL's unnest); none when there are no rows. */
  columns(): Array<Array<string | number>> {
    const all = this.rows();
    return all.length === 0 ? [] : all[0]!.map((_, i) => all.map((values) => values[i]!));
  }
}

/**
 * A ranking read with the clicks of every row before the limit beside each row (a window over the groups): the rows
 * past `limit` summed as the rest. Read with at least one row, so the sum of all is known even for a limit of 0.
 */
export function ranked<Row extends { clicks: number }>(read: Array<Row & { all: number }>, limit: number): Ranked<Row> {
  const rows = read.slice(0, limit).map(({ all: _all, ...row }) => row as unknown as Row);
  const all = read[0]?.all ?? 0;
  return { rows, rest: all - rows.reduce((sum, row) => sum + row.clicks, 0) };
}
