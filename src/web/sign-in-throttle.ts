import type { RateLimiter, SlowdownRule } from '../support/rate-limiter.js';

/**
 * Brute-force slowdown for sign-in: after 5 failures for one email (or from one address) within 15 minutes, each
 * further attempt must wait twice as long as the last (1 s, 2 s, 4 s ... up to 15 minutes). A browser where the
 * email signed in before counts under its own key instead of the email's (device-cookie.ts). A success clears the
 * email's (or that browser's) count. Counted where every other limit is (the service's RateLimiter): in memory for one process, so a
 * restart forgives, which is fine for a slowdown; in the database when several processes share it.
 */
const RULE: SlowdownRule = { freeFailures: 5, firstWaitMs: 1000, maxWaitMs: 15 * 60_000, quietMs: 15 * 60_000 };

export class SignInThrottle {
  constructor(private readonly rates: RateLimiter) {}

  /**
   * Starts an attempt: 0 and the attempt counted as a failure in advance, or the seconds to wait. Counting before
   * the password is checked (which takes a while) is what keeps a burst of parallel guesses from all getting in.
   */
  async begin(keys: string[], nowMs: number): Promise<number> {
    return Math.ceil((await this.rates.startAttempt(keys, RULE, nowMs)) / 1000);
  }

  /** The attempt was right: the email's count goes, the other keys take back the failure counted in advance. */
  async succeeded(emailKey: string, otherKeys: string[]): Promise<void> {
    await this.rates.attemptSucceeded(emailKey, otherKeys);
  }
}
