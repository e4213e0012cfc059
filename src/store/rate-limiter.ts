import { memoryRateLimiter } from '../support/memory-rate-limiter.js';
import type { RateLimiter } from '../support/rate-limiter.js';
import type { Store } from './ports.js';

/**
 * The one rate limiter of a process, which every limit counts in: the store's when several processes serve one
 * database (so they share each allowance), else one in memory, which answers without touching the database.
 */
export function chooseRateLimiter(store: Pick<Store, 'rates'>, shared: boolean): RateLimiter {
  return shared ? store.rates : memoryRateLimiter();
}
