import { memoryRateLimiter } from '../support/memory-rate-limiter.js';
import type { RateLimiter } from '../support/rate-limiter.js';
import type { Store } from './ports.js';

/**
 * The one rate limiter of a process, which every limit counts in: the store's when `shared` (every process on the
 * database shares each allowance; SQLite's counts in memory while its process is alone on the file), else one in
 * this process's memory only.
 */
export function chooseRateLimiter(store: Pick<Store, 'rates'>, shared: boolean): RateLimiter {
  return shared ? store.rates : memoryRateLimiter();
}
