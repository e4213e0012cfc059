import type { AnalyticsBatch, FacetCount, Ranked, UncountedCount } from './ports.js';

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
  return [...found.values()].sort((a, b) => compare(a.linkId, b.linkId) || compare(a.day, b.day));
}

/** Byte order, as SQLite compares text and PostgreSQL under "C". */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
