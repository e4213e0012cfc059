import type { RateLimiter } from '../../support/rate-limiter.js';

/**
 * Rate limits and the sign-in slowdown shared by every process on the database, counted exactly (each operation is
 * one atomic write, so two processes cannot both take the last call); the SQLite adapter counts in memory while its
 * process is the only one on the file (sqlite/counted-alone.ts). The contract is RateLimiter's; the app uses this
 * one unless `sharedRateLimits` is off.
 */
export type RateStore = RateLimiter;
