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

/**
 * A key's newest call, whether or not it still counts, and its oldest call still counted (null: none is). `known`:
 * answered from what this process knew of the key rather than read (PostgreSQL's takes: postgres/known-calls.ts),
 * which another process's calls may have overtaken.
 */
export interface CallEnds {
  oldest: CallRow | null;
  newest: CallRow;
  known?: true;
}

/** countedEnds' statement, with the placeholders of an adapter's SQL (key, key, now). */
export function countedEndsSql(key: string, sameKey: string, now: string): string {
  const calls = (k: string) => `SELECT until, seq FROM rate_events WHERE key = ${k}`;
  return `SELECT o.until AS "oldestUntil", o.seq AS "oldestSeq", n.until AS "newestUntil", n.seq AS "newestSeq"
    FROM (${calls(key)} ORDER BY until DESC, seq DESC LIMIT 1) n
    LEFT JOIN (${calls(sameKey)} AND until > ${now} ORDER BY until, seq LIMIT 1) o ON true`;
}

/** The row of countedEnds' statement. */
export interface CallEndsRow {
  oldestUntil: number | null;
  oldestSeq: number | null;
  newestUntil: number;
  newestSeq: number;
}

/** countedEnds' answer from its row. */
export function callEnds(row: CallEndsRow | null | undefined): CallEnds | null {
  if (!row) return null;
  const oldest = row.oldestUntil === null || row.oldestSeq === null ? null : { until: row.oldestUntil, seq: row.oldestSeq };
  return { oldest, newest: { until: row.newestUntil, seq: row.newestSeq } };
}

/** A key's newest call as a take read it (null: the key had none), which adding its calls requires unchanged. */
export interface NewestRead {
  key: string;
  newest: CallRow | null;
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
   * The key's newest call and its oldest call still counted at `nowMs`, in one statement (a take is on the path of
   * every API call); null when the key has no call at all. With `read`, from the database, never from what this
   * process knew (CallEnds.known).
   */
  countedEnds(key: string, nowMs: number, read?: boolean): CallEnds | null;
  /** The key's call `offset` places before its newest. */
  nthNewestCall(key: string, offset: number): CallRow | null;
  /**
   * Adds the calls, in one statement however many, if every key's newest call is still the one the take read
   * (`read`): otherwise another process took from a key since, or swept it, and this adds none and answers false,
   * and the take reads again. (SQLite's write transaction holds the file from its first read, so it always adds.)
   */
  addCalls(calls: readonly CallOf[], read: readonly NewestRead[]): boolean;
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
