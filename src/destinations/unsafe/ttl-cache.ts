/**
 * A bounded cache whose entries expire: the unsafe-site check keeps each address's verdict here so that repeated
 * checks of the same destination make no request. A Map keeps insertion order, so the first key is the least
 * recently used one once every hit re-inserts its key.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  /** `size`: how many entries at most (the least recently used goes first); `ttlMs`: how long each one serves. */
  constructor(
    private readonly size: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(size >= 0 && ttlMs >= 0)) throw new Error('A cache needs a size and a TTL of zero or more.');
  }

  /** The value, unless it is absent or expired (an expired entry is dropped on the way). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` for ttlMs from now (nothing when the size or the TTL is zero). */
  set(key: string, value: V): void {
    if (this.size === 0 || this.ttlMs === 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    // One in, one out: the cache never holds more than `size`, whatever the traffic.
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
  }

  /** Entries held, expired ones not yet dropped included. */
  get count(): number {
    return this.entries.size;
  }
}
