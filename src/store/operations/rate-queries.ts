import type { Streak } from '../../support/rate-limiter.js';
import { asker } from './steps.js';

/** A row of `rate_events`: one allowed call of a key, counted until `until` (epoch ms), `seq`-th of its key. */
export interface CallRow {
  until: number;
  seq: number;
}

/**
 * What the rate operations (rates.ts) ask of an adapter, one SQL statement each, answered inside the operation's
 * transaction. Written as the answers' types; an adapter that answers over a connection answers each as a promise.
 */
export interface RateQueries {
  /**
   * Holds the keys against every other writer until the transaction ends, so that reading a key's window and
   * adding to it is atomic across processes (SQLite's write transaction already holds the whole file).
   */
  lockKeys(keys: readonly string[]): void;
  /** The key's oldest call still counted at `nowMs`. */
  oldestCounted(key: string, nowMs: number): CallRow | null;
  newestCall(key: string): CallRow | null;
  /** The key's call `offset` places before its newest. */
  nthNewestCall(key: string, offset: number): CallRow | null;
  /** Drops the key's calls that stopped counting by `nowMs`. */
  dropUncounted(key: string, nowMs: number): void;
  addCall(key: string, until: number, seq: number): void;
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
