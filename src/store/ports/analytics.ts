import type { ClickFacet, UncountedClass } from '../../domain/analytics.js';

/** Counted clicks with one facet's value, for one link and UTC day (`YYYY-MM-DD`). */
export interface FacetCount {
  linkId: string;
  day: string;
  facet: ClickFacet;
  value: string;
  count: number;
}

/** Requests of one not-counted class, for one link and day. */
export interface UncountedCount {
  linkId: string;
  day: string;
  class: UncountedClass;
  count: number;
}

/**
 * The visitors of one link on one day a process saw since its last write, as a HyperLogLog sketch's bytes
 * (domain/visitor-sketch.ts) of their keyed hashes under that day's visitor key. Sketches merge register by
 * register, so every process's visitors add up, each counted once, and nothing in one can tell who visited.
 */
export interface DayVisitors {
  linkId: string;
  day: string;
  sketch: Uint8Array;
}

/** What a process counted since its last flush, written in one transaction. Links deleted since are skipped. */
export interface AnalyticsBatch {
  /** Each counted click is one count of every facet: a team's clicks (and its links' ranking) are its `source` counts. */
  facets: readonly FacetCount[];
  uncounted: readonly UncountedCount[];
  /** Merged into the link's sketch of the day: its visitors grow by what the merge adds to the estimate. */
  visitors: readonly DayVisitors[];
}

/**
 * An add may write its batch in several transactions (SQLite: a few milliseconds each, so that a big batch never
 * holds the event loop or the file for long). One that fails part way attaches what it did not write to the error it
 * throws, under this key: the caller keeps that part, not the whole batch, for the next write.
 */
const UNWRITTEN = Symbol('unwritten analytics');

export function withUnwritten(error: unknown, unwritten: AnalyticsBatch): unknown {
  if (error instanceof Object) Object.defineProperty(error, UNWRITTEN, { value: unwritten });
  return error;
}

/** What a failed add left unwritten; undefined when it wrote nothing (the whole batch is unwritten). */
export function unwrittenOf(error: unknown): AnalyticsBatch | undefined {
  return error instanceof Object ? (error as { [UNWRITTEN]?: AnalyticsBatch })[UNWRITTEN] : undefined;
}

/** Whose clicks a read sums: one link's, or every link of a team's. */
export type AnalyticsScope = { linkId: string } | { teamId: string };

export interface ValueTotal {
  value: string;
  clicks: number;
}

export interface Ranked<Row> {
  /** The largest `limit` rows, most clicks first (ties by value, ascending). */
  rows: Row[];
  /** The clicks of the rows past `limit`, summed. */
  rest: number;
}

export interface DayTotal {
  day: string;
  clicks: number;
  visitors: number;
}

export interface LinkTotal {
  linkId: string;
  clicks: number;
  visitors: number;
}

/**
 * Click analytics, aggregated per link and UTC day (no row per click, nothing that identifies a visitor), with each
 * team's sums kept beside them so a team's breakdown reads days, not links. Every read is of days `from` to `to`
 * inclusive (UTC dates).
 */
export interface AnalyticsStore {
  add(batch: AnalyticsBatch): Promise<void>;
  /** Counted clicks summed by one facet's value. */
  byFacet(scope: AnalyticsScope, facet: ClickFacet, from: string, to: string, limit: number): Promise<Ranked<ValueTotal>>;
  /** Counted clicks and estimated unique visitors per day; days with neither are absent. */
  byDay(scope: AnalyticsScope, from: string, to: string): Promise<DayTotal[]>;
  /** A team's links by counted clicks, with their visitors (summed over the days). */
  byLink(teamId: string, from: string, to: string, limit: number): Promise<Ranked<LinkTotal>>;
  /** A team's counted clicks and visitors per link and day (for its CSV export), by day then link; days without clicks absent. */
  dailyByLink(teamId: string, from: string, to: string): Promise<Array<{ linkId: string; day: string; clicks: number; visitors: number }>>;
  /** Counted clicks in all, and the requests of each not-counted class (classes without any absent). */
  totals(scope: AnalyticsScope, from: string, to: string): Promise<{ clicks: number; uncounted: Partial<Record<UncountedClass, number>> }>;
  /**
   * The visitor key of `day`: made at random by the first process to ask, the same for every process after. Keys
   * and sketches of days before the day before `day` are deleted on the way: once they are gone, nobody can tell who
   * made a day's sketches. The day before is kept, as every process writes the last clicks of a day a few seconds
   * after it ends (later after an outage), and they must still meet that day's key and sketches.
   */
  visitorKey(day: string): Promise<Uint8Array>;
  /**
   * Deletes the daily counts (clicks, facets, not-counted classes, visitors) of days before `before`, in batches;
   * resolves to the rows deleted.
   */
  removeBefore(before: string): Promise<number>;
}
