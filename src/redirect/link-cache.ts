import type { LinkState } from '../domain/link-state.js';
import { cacheStats } from '../support/cache-stats.js';
import { LruCache } from '../support/lru-cache.js';

/** What a redirect needs of a link. */
export interface RedirectTarget {
  id: string;
  code: string;
  state: LinkState;
  destination: string;
  /** The destination as an ASCII URL (IDN as punycode, the rest percent-encoded), fit for a Location header. */
  location: string;
}

/**
 * Code or name → link, for redirects: a bounded LRU cache (unknown keys cached too, as null, so a flood of made-up
 * addresses cannot reach the database). It is kept exact: the store reports every change of a link by its keys,
 * and a change by another process (the operator CLI) empties it.
 */
export class LinkCache extends LruCache<RedirectTarget | null> {
  constructor(maxEntries = 100_000) {
    super(maxEntries, { stats: cacheStats('links') });
  }

  forget(keys: Iterable<string>): void {
    for (const key of keys) this.delete(key);
  }
}
