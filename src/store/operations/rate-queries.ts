import type { Streak } from '../../support/rate-limiter.js';
import { asker } from './steps.js';

/** A row of `rate_events`: one allowed call of a key, counted until `until` (epoch ms), `seq`-th of its key. */
export interface CallRow {
  until: number;
  seq: number;
}

/** A call to add: a row of `rate_events` with its key. */
export interface CallOf extends CallRow {
  key: string;
}

export interface CallEnds {
  oldest: CallRow;
  newest: CallRow;
}

/** countedEnds' statement, with the placeholders of an adapter's SQL (key, now, key). */
export function countedEndsSql(key: string, now: string, sameKey: string): string {
  const calls = (k: string) => `SELECT until, seq FROM rate_events WHERE key = ${k}`;
  return `SELECT o.until AS "oldestUntil", o.seq AS "oldestSeq", n.until AS "newestUntil", n.seq AS "newestSeq"
    FROM (${calls(key)} AND until > ${now} ORDER BY until, seq LIMIT 1) o,
         (${calls(sameKey)} ORDER BY until DESC, seq DESC LIMIT 1) n`;
}

/** The row of countedEnds' statement. */
export interface CallEndsRow {
  oldestUntil: number;
  oldestSeq: number;
  newestUntil: number;
  newestSeq: number;
}

/** countedEnds' answer from its row. */
export function callEnds(row: CallEndsRow | null | undefined): CallEnds | null {
  if (!row) return null;
  return { oldest: { until: row.oldestUntil, seq: row.oldestSeq }, newest: { until: row.newestUntil, seq: row.newestSeq } };
}

/**
 * What the rate operations (rates.ts) ask of an adapter, one SQL statement each, answered inside the operation's
 * transaction. Written as the answers' types; an adapter that answers over a connection answers each as a promise.
 */
export interface RateQueries {
  /**
   * Holds the keys against every other writer until the transaction ends, so that reading a key's window and
   * changing it is atomic across processes (SQLite's write transaction already holds the whole file). Takes do not
   * lock: addCalls checks for them.
   */
  lockKeys(keys: readonly string[]): void;
  /**
   * The key's oldest call still counted at `nowMs` and its newest call, in one statement (a take is on the path of
   * every API call); null when none is counted.
   */
  countedEnds(key: string, nowMs: number): CallEnds | null;
  /** The key's call `offset` places before its newest. */
  nthNewestCall(key: string, offset: number): CallRow | null;
  /**
   * Adds the calls, in one statement however many, unless another process added a call of one of their keys, still
   * counted at `nowMs`, after the reads they were decided on: then adds none and answers false, and the take reads
   * again. (SQLite's write transaction holds the file from its first read, so it always adds.)
   */
  addCalls(calls: readonly CallOf[], nowMs: number): boolean;
  /** Drops every key's calls that stopped counting by `nowMs` (any process may, for keys nobody calls again). */
  sweepCalls(nowMs: number): void;
  streak(key: string): Streak | null;
  putStreak(key: string, failures: number, lastAt: number): void;
  endStreak(key: string): void;
  /** Takes one failure back from the key's streak. */
  takeBackFailure(key: string): void;
  /** Ends the key's streak when no failure is left in it. */
  dropEmptyStreak(key: string): void;
  /** Ends every streak whose last failure was before `before`. */
  sweepStreaks(before: number): void;
}

/** The queries as steps of an operation. */
export const q = asker<RateQueries>();
