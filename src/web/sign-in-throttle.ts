/**
 * Brute-force slowdown for sign-in: after 5 failures for one email (or from one address) within 15 minutes, each
 * further attempt must wait twice as long as the last (1 s, 2 s, 4 s ... up to 15 minutes). A success clears the
 * email's count. Kept in memory: a restart forgives, which is fine for a slowdown.
 */
const FREE_FAILURES = 5;
const WINDOW_MS = 15 * 60_000;
const MAX_WAIT_MS = 15 * 60_000;

interface Failures {
  count: number;
  firstAt: number;
  lastAt: number;
}

export class SignInThrottle {
  private readonly failures = new Map<string, Failures>();

  /** Seconds to wait before another attempt for these keys, or 0. */
  waitSeconds(keys: string[], nowMs: number): number {
    let wait = 0;
    for (const key of keys) {
      const entry = this.current(key, nowMs);
      if (!entry || entry.count < FREE_FAILURES) continue;
      const delay = Math.min(1000 * 2 ** (entry.count - FREE_FAILURES), MAX_WAIT_MS);
      wait = Math.max(wait, entry.lastAt + delay - nowMs);
    }
    return Math.max(0, Math.ceil(wait / 1000));
  }

  failed(keys: string[], nowMs: number): void {
    if (this.failures.size > 100_000) this.sweep(nowMs);
    for (const key of keys) {
      const entry = this.current(key, nowMs) ?? { count: 0, firstAt: nowMs, lastAt: nowMs };
      entry.count += 1;
      entry.lastAt = nowMs;
      this.failures.set(key, entry);
    }
  }

  /**
   * Starts an attempt: 0 and the attempt counted as a failure in advance, or the seconds to wait. Counting before
   * the password is checked (which takes a while) is what keeps a burst of parallel guesses from all getting in.
   */
  begin(keys: string[], nowMs: number): number {
    const wait = this.waitSeconds(keys, nowMs);
    if (wait === 0) this.failed(keys, nowMs);
    return wait;
  }

  /** The attempt was right: the email's count goes, the other keys take back the failure counted in advance. */
  succeeded(emailKey: string, otherKeys: string[]): void {
    this.failures.delete(emailKey);
    for (const key of otherKeys) {
      const entry = this.failures.get(key);
      if (entry && --entry.count <= 0) this.failures.delete(key);
    }
  }

  private current(key: string, nowMs: number): Failures | undefined {
    const entry = this.failures.get(key);
    if (entry && nowMs - entry.lastAt > WINDOW_MS) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(nowMs: number): void {
    for (const [key, entry] of this.failures) if (nowMs - entry.lastAt > WINDOW_MS) this.failures.delete(key);
  }
}
