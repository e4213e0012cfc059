import { FailureStreaks } from './failure-streaks.js';
import type { RateLimiter } from './rate-limiter.js';
import { SlidingLog } from './sliding-log.js';

/**
 * The rate limiter of a process that counts alone: everything counted in memory (`log` and `streaks`), so a
 * restart forgives. Each answer is worked out synchronously and only handed back as a promise, so no other request
 * can come between looking at a count and using it.
 */
export function memoryRateLimiter(log = new SlidingLog(), streaks = new FailureStreaks()): RateLimiter {
  return {
    take: async (key, limit, windowMs, nowMs) => log.take(key, limit, windowMs, nowMs),
    takeMany: async (key, limit, calls, windowMs, nowMs) => log.takeMany(key, limit, calls, windowMs, nowMs),
    peek: async (key, limit, windowMs, nowMs) => log.peek(key, limit, windowMs, nowMs),
    takeAll: async (keys, windowMs, nowMs) => log.takeAll(keys, windowMs, nowMs),
    startAttempt: async (keys, rule, nowMs) => streaks.startAttempt(keys, rule, nowMs),
    attemptSucceeded: async (cleared, others) => streaks.attemptSucceeded(cleared, others),
  };
}
