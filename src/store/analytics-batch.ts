import { byCodeUnits } from '../shared/code-unit-order.js';
import { VisitorSketch } from '../domain/visitor-sketch.js';
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
  /** The visitors of the batch's clicks; null when it brings none. */
  visitors: VisitorSketch | null;
}

/** The batch per link and day, in (link, day) order: the order both adapters write rows and so take their locks. */
export function byLinkDay(batch: AnalyticsBatch): LinkDay[] {
  const found = new Map<string, LinkDay>();
  let last: LinkDay | undefined;
  const of = (linkId: string, day: string) => {
    // A batch lists a link day's rows one after another (redirect/analytics-tally.ts): most rows are the last one's.
    if (last?.linkId === linkId && last.day === day) return last;
    const key = `${linkId}\u0000${day}`;
    let linkDay = found.get(key);
    if (!linkDay) found.set(key, (linkDay = { linkId, day, clicks: 0, facets: [], uncounted: [], visitors: null }));
    return (last = linkDay);
  };
  for (const facet of batch.facets) {
    const linkDay = of(facet.linkId, facet.day);
    linkDay.facets.push(facet);
    if (facet.facet === CLICKS_FACET) linkDay.clicks += facet.count;
  }
  for (const uncounted of batch.uncounted) of(uncounted.linkId, uncounted.day).uncounted.push(uncounted);
  for (const { linkId, day, sketch } of batch.visitors) {
    const linkDay = of(linkId, day);
    const visitors = VisitorSketch.from(sketch);
    if (linkDay.visitors) linkDay.visitors.merge(visitors);
    else linkDay.visitors = visitors;
  }
  return [...found.values()].sort((a, b) => byCodeUnits(a.linkId, b.linkId) || byCodeUnits(a.day, b.day));
}


/** Link days as a batch again (what a write left unwritten). */
export function batchOf(linkDays: readonly LinkDay[]): AnalyticsBatch {
  return {
    facets: linkDays.flatMap((linkDay) => linkDay.facets),
    uncounted: linkDays.flatMap((linkDay) => linkDay.uncounted),
    visitors: linkDays.flatMap(({ linkId, day, visitors }) => (visitors ? [{ linkId, day, sketch: visitors.bytes() }] : [])),
  };
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

/** A link's sketch of a day as stored: merged into, and written back. */
export interface StoredSketch {
  day: string;
  linkId: string;
  sketch: Uint8Array;
}

/**
 * Each link day's visitors merged into its stored sketch: the merged sketches to write back, and the visitors each
 * link day gained, by how much the merge raised its estimate.
 */
export function mergeSketches(
  linkDays: readonly LinkDay[],
  stored: readonly StoredSketch[],
): { merged: StoredSketch[]; gained: (linkId: string, day: string) => number } {
  const before = new Map(stored.map(({ day, linkId, sketch }) => [`${linkId} ${day}`, sketch]));
  const merged: StoredSketch[] = [];
  const gains = new Map<string, number>();
  for (const { linkId, day, visitors } of linkDays) {
    if (!visitors) continue;
    const key = `${linkId} ${day}`;
    const bytes = before.get(key);
    const sketch = storedSketch(bytes);
    const estimate = sketch.estimate();
    sketch.merge(visitors);
    const gain = sketch.estimate() - estimate;
    if (gain > 0) gains.set(key, gain);
    merged.push({ day, linkId, sketch: sketch.bytes() });
  }
  return { merged, gained: (linkId, day) => gains.get(`${linkId} ${day}`) ?? 0 };
}

/**
 * A stored sketch, or a new one where there is none (or a PostgreSQL claim's empty bytes). Bytes no sketch writes
 * (a row changed by hand) start the day's sketch afresh rather than fail every write after: its visitors so far stay
 * counted, and some may count again.
 */
function storedSketch(bytes: Uint8Array | undefined): VisitorSketch {
  if (!bytes || bytes.length === 0) return new VisitorSketch();
  try {
    return VisitorSketch.from(bytes);
  } catch {
    return new VisitorSketch();
  }
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
    let id = String(values[0]);
    for (let i = 1; i < this.keyLength; i++) id += `\u0000${values[i]}`;
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
