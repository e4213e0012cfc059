import { looksLikeCode } from '../domain/code.js';
import type { LinkState } from '../domain/link-state.js';
import { cacheStats } from '../support/cache-stats.js';
import { LruCache } from '../support/lru-cache.js';

/** What a redirect needs of a link. */
export interface RedirectTarget {
  id: string;
  /** Whose link it is: on a team's domain only the team's links answer. */
  teamId: string;
  code: string;
  state: LinkState;
  destination: string;
  /** The destination as an ASCII URL (IDN as punycode, the rest percent-encoded), fit for a Location header. */
  location: string;
  /** The link's options (domain/link-options.ts), as the redirect decides by them: when it ends, epoch ms. */
  expiresAt: number | null;
  maxClicks: number | null;
  passwordHash: string | null;
  forwardQuery: boolean;
}

/**
 * Code or name (lowercase, as changes tell it) → link, for redirects: a bounded LRU cache (unknown keys cached
 * too, as null, so a flood of made-up addresses cannot reach the database). It is kept exact: the store reports
 * every change of a link by its keys, and a change by another process (the operator CLI) empties it.
 */
export class LinkCache extends LruCache<RedirectTarget | null> {
  private readonly stats = cacheStats('links');

  // Hits and misses are counted here rather than by LruCache, so that `asSpelled` counts only what it answers.
  constructor(maxEntries = 100_000) {
    super(maxEntries);
  }

  override get(key: string): RedirectTarget | null | undefined {
    const value = super.get(key);
    if (value === undefined) this.stats.misses += 1;
    else this.stats.hits += 1;
    return value;
  }

  /**
   * The entry under a key as a visit spelled it, when that answers the visit (resolve.ts): a link, or null under a
   * name. Entries are kept under the keys changes tell (a code as it is, a name lowercase), so any entry found is the
   * key's own; a code's null still leaves a name in capitals to look up. Counts only what it answers: otherwise the
   * lookup by the keys proper (`get`) counts.
   */
  asSpelled(key: string): RedirectTarget | null | undefined {
    const value = super.get(key);
    if (value === undefined || (value === null && looksLikeCode(key))) return undefined;
    this.stats.hits += 1;
    return value;
  }

  forget(keys: Iterable<string>): void {
    for (const key of keys) this.delete(key);
  }
}
