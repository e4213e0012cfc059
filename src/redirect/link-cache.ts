import type { LinkState } from '../domain/link-state.js';

/** What a redirect needs of a link. */
export interface RedirectTarget {
  id: string;
  code: string;
  state: LinkState;
  destination: string;
  /** The destination as an ASCII URL (IDN as punycode, the rest percent-encoded), fit for a Location header. */
  location: string;
}

interface Entry {
  target: RedirectTarget | null;
  /** Read since it last came up for eviction (the "second chance" of the CLOCK algorithm). */
  used: boolean;
}

/**
 * Code or name → link, for redirects: a bounded cache (unknown keys cached too, so a flood of made-up addresses
 * cannot reach the database). It is kept exact: the store reports every change of a link by its keys, and a
 * change by another process (the operator CLI) empties it.
 *
 * Eviction is second-chance (CLOCK) rather than strict LRU: a hit only sets a flag. Moving a hit to the end of
 * the Map on every read made one hot key slower the fuller the cache was (V8 keeps deleted entries in the hash
 * chain until it rehashes): 170 µs a read at 100,000 entries.
 */
export class LinkCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 100_000) {}

  get(key: string): RedirectTarget | null | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.target;
  }

  set(key: string, target: RedirectTarget | null): void {
    // A new entry starts with its second chance, so it is not the first to go when everything else was read.
    this.entries.set(key, { target, used: true });
    while (this.entries.size > this.maxEntries) this.evictOne();
  }

  forget(keys: Iterable<string>): void {
    for (const key of keys) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The oldest entry goes, unless it was read since: then it moves to the back once, and the next is tried. */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (!entry.used) return;
      entry.used = false;
      this.entries.set(key, entry);
    }
  }
}
