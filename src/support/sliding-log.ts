import { windowAnswer, type RateKey, type WindowAnswer } from './rate-limiter.js';
import { TimeRing } from './time-ring.js';

/** How often keys that went quiet are forgotten. */
const SWEEP_EVERY_MS = 60_000;

interface KeyLog {
  ring: TimeRing;
  windowMs: number;
}

/**
 * Exact sliding windows in this process's memory (see RateLimiter): per key, the times it was allowed within its
 * window, at most `limit` of them (the newest are all a decision needs). Memory stays bounded: a key holds at most
 * its limit, and keys whose window emptied are swept once a minute. Synchronous, so `takeAll` is atomic.
 */
export class SlidingLog {
  private readonly logs = new Map<string, KeyLog>();
  /** Calls counted elsewhere (takeOver), each as until when it counts, kept so until the key's window is known. */
  private readonly taken = new Map<string, number[]>();
  private sweptAt = -Infinity;

  take(key: string, limit: number, windowMs: number, nowMs: number): WindowAnswer {
    this.sweep(nowMs);
    const ring = this.current(key, limit, windowMs, nowMs, true)!;
    const allowed = ring.size < limit;
    if (allowed) ring.push(nowMs, limit);
    return windowAnswer(allowed, limit, ring.size, ring.oldest(), windowMs, nowMs);
  }

  takeMany(key: string, limit: number, calls: number, windowMs: number, nowMs: number): WindowAnswer {
    this.sweep(nowMs);
    const ring = this.current(key, limit, windowMs, nowMs, true)!;
    if (ring.size + calls > limit) {
      // They fit once no more than `limit - calls` are counted: when the one before the newest of those leaves.
      const deciding = ring.size === 0 ? 0 : ring.at(Math.min(ring.size - 1, ring.size - limit + calls - 1));
      return windowAnswer(false, limit, ring.size, deciding, windowMs, nowMs);
    }
    for (let i = 0; i < calls; i++) ring.push(nowMs, limit);
    return windowAnswer(true, limit, ring.size, ring.oldest(), windowMs, nowMs);
  }

  peek(key: string, limit: number, windowMs: number, nowMs: number): WindowAnswer {
    const ring = this.current(key, limit, windowMs, nowMs, false);
    const counted = ring?.size ?? 0;
    return windowAnswer(counted < limit, limit, counted, ring?.oldest() ?? 0, windowMs, nowMs);
  }

  takeAll(keys: readonly RateKey[], windowMs: number, nowMs: number): WindowAnswer[] {
    const answers = keys.map(([key, limit]) => this.peek(key, limit, windowMs, nowMs));
    if (answers.some((answer) => !answer.allowed)) return answers;
    return keys.map(([key, limit]) => this.take(key, limit, windowMs, nowMs));
  }

  /**
   * Empties the log, answering every call it holds as until when it counts (its time plus its key's window),
   * oldest first per key: what a process hands to the database when it stops counting alone. What stopped counting
   * meanwhile goes with the rest, to be swept there.
   */
  handOver(): Map<string, number[]> {
    const counted = new Map(this.taken);
    for (const [key, { ring, windowMs }] of this.logs) counted.set(key, Array.from({ length: ring.size }, (_, i) => ring.at(i) + windowMs));
    this.logs.clear();
    this.taken.clear();
    return counted;
  }

  /**
   * Counts calls counted elsewhere (the database's, handed over), each as until when it counts, oldest first. Its
   * time is that less the key's window, which the key's next use tells.
   */
  takeOver(key: string, untils: number[]): void {
    this.logs.delete(key);
    this.taken.set(key, untils);
  }

  /** How many keys, and how many times of `key`, are held: what memory is spent on (the bounds' tests read it). */
  held(key?: string): number {
    return key === undefined ? this.logs.size : (this.logs.get(key)?.ring.size ?? 0);
  }

  /** The key's ring with what left the window dropped; made when `make` (else undefined for an unknown key). */
  private current(key: string, limit: number, windowMs: number, nowMs: number, make: boolean): TimeRing | undefined {
    let log = this.logs.get(key);
    if (!log) {
      const untils = this.taken.get(key);
      if (!make && !untils) return undefined;
      log = { ring: new TimeRing(), windowMs };
      this.logs.set(key, log);
      if (untils) {
        this.taken.delete(key);
        for (const until of untils.slice(-limit)) log.ring.push(until - windowMs, limit);
      }
    }
    log.windowMs = windowMs;
    log.ring.drop(nowMs - windowMs, limit);
    return log.ring;
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = nowMs;
    for (const [key, { ring, windowMs }] of this.logs) {
      if (ring.size === 0 || ring.newest() <= nowMs - windowMs) this.logs.delete(key);
    }
    for (const [key, untils] of this.taken) if (untils.at(-1)! <= nowMs) this.taken.delete(key);
  }
}
