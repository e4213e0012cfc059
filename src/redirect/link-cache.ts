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

/**
 * Code or name → link, for redirects: a bounded LRU cache (unknown keys cached too, so a flood of made-up
 * addresses cannot reach the database). It is kept exact: the store reports every change of a link by its keys,
 * and a change by another process (the operator CLI) empties it.
 */
export class LinkCache {
  private readonly entries = new Map<string, RedirectTarget | null>();

  constructor(private readonly maxEntries = 100_000) {}

  get(key: string): RedirectTarget | null | undefined {
    const found = this.entries.get(key);
    if (found === undefined) return undefined;
    // Map keeps insertion order: moving a hit to the end makes the first entry the least recently used.
    this.entries.delete(key);
    this.entries.set(key, found);
    return found;
  }

  set(key: string, target: RedirectTarget | null): void {
    this.entries.set(key, target);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
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
}
