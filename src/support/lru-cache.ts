import type { CacheStats } from './cache-stats.js';

interface Entry<V> {
  key: string;
  value: V;
  expiresAt: number;
  newer: Entry<V> | null;
  older: Entry<V> | null;
}

/**
 * A bounded least-recently-used cache whose entries may expire: the one cache of the service (redirect lookups,
 * DNS answers, unsafe-site verdicts, client metadata documents). Recency is kept in a linked list beside the Map,
 * not by deleting and re-adding Map keys: V8 keeps deleted entries in the hash chain until it rehashes, so a hot
 * key re-added on every read got slower the fuller the cache was (170 µs a read at 100,000 entries).
 */
export class LruCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private newest: Entry<V> | null = null;
  private oldest: Entry<V> | null = null;

  /**
   * @param maxEntries how many entries at most (the least recently used goes first); 0 caches nothing
   * @param options.ttlMs how long an entry serves unless `set` says otherwise (default: until evicted)
   * @param options.stats where hits and misses are counted (see cache-stats.ts); not counted when left out
   */
  constructor(
    private readonly maxEntries: number,
    private readonly options: { ttlMs?: number; now?: () => number; stats?: CacheStats } = {},
  ) {}

  /** The value, unless it is absent or expired (an expired entry is dropped on the way). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    const stats = this.options.stats;
    // An entry kept until evicted (a redirect's) needs no clock reading; one already newest, no relinking.
    if (!entry || (entry.expiresAt !== Infinity && entry.expiresAt <= this.now())) {
      if (entry) this.remove(entry);
      if (stats) stats.misses += 1;
      return undefined;
    }
    if (stats) stats.hits += 1;
    if (entry !== this.newest) {
      this.unlink(entry);
      this.pushNewest(entry);
    }
    return entry.value;
  }

  /** Keeps `value` for `ttlMs` (the cache's default when left out); nothing when the size or the TTL is zero. */
  set(key: string, value: V, ttlMs = this.options.ttlMs ?? Infinity): void {
    if (this.maxEntries <= 0 || ttlMs <= 0) return;
    const existing = this.entries.get(key);
    if (existing) this.remove(existing);
    const entry: Entry<V> = { key, value, expiresAt: this.now() + ttlMs, newer: null, older: null };
    this.entries.set(key, entry);
    this.pushNewest(entry);
    if (this.entries.size > this.maxEntries && this.oldest) this.remove(this.oldest);
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.remove(entry);
  }

  clear(): void {
    this.entries.clear();
    this.newest = this.oldest = null;
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private remove(entry: Entry<V>): void {
    this.entries.delete(entry.key);
    this.unlink(entry);
  }

  private unlink(entry: Entry<V>): void {
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    entry.newer = entry.older = null;
  }

  private pushNewest(entry: Entry<V>): void {
    entry.older = this.newest;
    if (this.newest) this.newest.newer = entry;
    this.newest = entry;
    if (!this.oldest) this.oldest = entry;
  }
}
