import { streakEnded, streakWaitMs, type SlowdownRule, type Streak } from './rate-limiter.js';

/** Past this many keys, ended streaks are swept before another is added. */
const SWEEP_ABOVE = 100_000;

/**
 * The sign-in slowdown's streaks in this process's memory (see RateLimiter.startAttempt). Synchronous, so starting
 * an attempt for several keys is atomic: a burst of parallel guesses is counted one by one.
 */
export class FailureStreaks {
  private readonly streaks = new Map<string, Streak>();

  startAttempt(keys: readonly string[], rule: SlowdownRule, nowMs: number): number {
    const live = keys.map((key) => this.live(key, rule, nowMs));
    const wait = Math.max(0, ...live.map((streak) => (streak ? streakWaitMs(rule, streak, nowMs) : 0)));
    if (wait > 0) return wait;
    if (this.streaks.size > SWEEP_ABOVE) this.sweep(rule, nowMs);
    keys.forEach((key, i) => this.streaks.set(key, { failures: (live[i]?.failures ?? 0) + 1, lastAt: nowMs }));
    return 0;
  }

  attemptSucceeded(cleared: string, others: readonly string[]): void {
    this.streaks.delete(cleared);
    for (const key of others) {
      const streak = this.streaks.get(key);
      if (streak && --streak.failures <= 0) this.streaks.delete(key);
    }
  }

  /** Empties the streaks, answering them: what a process hands to the database when it stops counting alone. */
  handOver(): Map<string, Streak> {
    const streaks = new Map(this.streaks);
    this.streaks.clear();
    return streaks;
  }

  /** Counts a streak counted elsewhere (the database's, handed over). */
  takeOver(key: string, streak: Streak): void {
    this.streaks.set(key, streak);
  }

  /** The key's streak, unless it ended (an ended one is forgotten on the way). */
  private live(key: string, rule: SlowdownRule, nowMs: number): Streak | undefined {
    const streak = this.streaks.get(key);
    if (streak && streakEnded(rule, streak, nowMs)) {
      this.streaks.delete(key);
      return undefined;
    }
    return streak;
  }

  private sweep(rule: SlowdownRule, nowMs: number): void {
    for (const [key, streak] of this.streaks) if (streakEnded(rule, streak, nowMs)) this.streaks.delete(key);
  }
}
