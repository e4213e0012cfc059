/**
 * The one way the service counts callers: calls per minute, sign-ups, new teams, client registrations, metadata
 * document fetches, QR codes, and the sign-in slowdown. One process counts in memory (memory-rate-limiter.ts);
 * several processes on one database count in it (the store's `rates`), so they share every allowance.
 *
 * Allowances are exact sliding windows (a log of the times a key was allowed): a call is allowed when fewer than
 * `limit` calls were allowed for its key in the last `windowMs`, so no span of `windowMs` ever holds more than
 * `limit`, however the calls fall. (Fixed windows let twice the limit through across a window's edge.)
 *
 * Keys are one namespace for every caller of a limiter, so each caller prefixes its own (`calls:`, `signups:` ...).
 * All times are epoch milliseconds on the service's clock.
 */
export interface RateLimiter {
  /** Uses one of `key`'s `limit` calls in the window when one is left. */
  take(key: string, limit: number, windowMs: number, nowMs: number): Promise<WindowAnswer>;
  /**
   * Uses `calls` of `key`'s calls in the window when that many are left, else none (a JSON-RPC batch runs whole or
   * not at all). A refusal's `resetSeconds` is when that many will be left (never, for more than `limit`: then
   * when the window empties); `remaining` is what is left either way.
   */
  takeMany(key: string, limit: number, calls: number, windowMs: number, nowMs: number): Promise<WindowAnswer>;
  /** The key's allowance as it stands (`allowed`: whether a take would be), using nothing. */
  peek(key: string, limit: number, windowMs: number, nowMs: number): Promise<WindowAnswer>;
  /**
   * Uses one call of every key, or of none when any is used up (so a refusal costs the other keys nothing);
   * answers each key's allowance, in order.
   */
  takeAll(keys: readonly RateKey[], windowMs: number, nowMs: number): Promise<WindowAnswer[]>;
  /**
   * The sign-in slowdown: starts an attempt for every key, which counts as a failure in advance. Answers the
   * milliseconds to wait before an attempt may start (the longest any key's streak asks for, by `rule`), or 0
   * when it started and one failure was added to each key's streak.
   */
  startAttempt(keys: readonly string[], rule: SlowdownRule, nowMs: number): Promise<number>;
  /** The attempt was right: `cleared`'s streak ends, each of `others` takes back the failure counted in advance. */
  attemptSucceeded(cleared: string, others: readonly string[]): Promise<void>;
}

/** A key and its limit, for `takeAll`. */
export type RateKey = readonly [key: string, limit: number];

/**
 * One key's allowance over the window that ends now, in the shape of the RateLimit header fields (see
 * call-budget.ts); a refusal's `Retry-After` is `resetSeconds`.
 */
export interface WindowAnswer {
  allowed: boolean;
  limit: number;
  /** `limit` less the calls counted in the window (0 when used up). */
  remaining: number;
  /**
   * Whole seconds (rounded up, at least 1) until the oldest counted call leaves the window. With none remaining,
   * that is exactly when the next call becomes possible (so it is a refusal's Retry-After); with some remaining,
   * it is when one more will be. Only the newest `limit` calls are looked at, so after a limit was lowered it
   * still names when a call becomes possible. With nothing counted: the whole window.
   */
  resetSeconds: number;
}

/**
 * The answer for a key whose window holds `counted` calls (at most `limit`; the newest ones when there are more),
 * the oldest of them at `oldestAt` (ignored when none). Both limiters answer through this, so they agree.
 */
export function windowAnswer(allowed: boolean, limit: number, counted: number, oldestAt: number, windowMs: number, nowMs: number): WindowAnswer {
  const waitMs = counted > 0 ? oldestAt + windowMs - nowMs : windowMs;
  return { allowed, limit, remaining: Math.max(0, limit - counted), resetSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/**
 * The sign-in slowdown: after `freeFailures` failures in a row, each further attempt waits twice as long as the
 * one before (`firstWaitMs`, then double, up to `maxWaitMs`) after the last failure. A streak ends once `quietMs`
 * pass without a failure. Streaks have keys of their own, apart from the windows'.
 */
export interface SlowdownRule {
  freeFailures: number;
  firstWaitMs: number;
  maxWaitMs: number;
  quietMs: number;
}

/** A key's failures in a row, and when the last was. */
export interface Streak {
  failures: number;
  lastAt: number;
}

/** Whether `streak` ended (nothing left of it counts) by `nowMs`. */
export function streakEnded(rule: SlowdownRule, streak: Streak, nowMs: number): boolean {
  return nowMs - streak.lastAt > rule.quietMs;
}

/** The milliseconds a live streak makes the next attempt wait, or 0. */
export function streakWaitMs(rule: SlowdownRule, streak: Streak, nowMs: number): number {
  if (streak.failures < rule.freeFailures) return 0;
  const delay = Math.min(rule.firstWaitMs * 2 ** (streak.failures - rule.freeFailures), rule.maxWaitMs);
  return Math.max(0, streak.lastAt + delay - nowMs);
}
