const FIRST_CAPACITY = 4;

/**
 * The times one key was allowed, oldest first, at most `limit` of them: a ring buffer, so adding a time and
 * dropping the oldest are O(1). It starts small and doubles up to the limit, so a key used once costs a few
 * bytes, not the 600 a busy one may need (limits go up to a billion).
 */
export class TimeRing {
  private times = new Float64Array(FIRST_CAPACITY);
  private head = 0;
  private count = 0;

  /** How many times are kept. */
  get size(): number {
    return this.count;
  }

  /** The oldest time kept (only when `size` > 0). */
  oldest(): number {
    return this.times[this.head]!;
  }

  /** The `index`-th oldest time kept, from 0 (only when `index` < `size`). */
  at(index: number): number {
    return this.times[(this.head + index) % this.times.length]!;
  }

  newest(): number {
    return this.times[(this.head + this.size - 1) % this.times.length]!;
  }

  /** Drops the times at or before `cutoff` (they left the window), and the oldest beyond `limit`. */
  drop(cutoff: number, limit: number): void {
    while (this.size > 0 && (this.size > limit || this.oldest() <= cutoff)) {
      this.head = (this.head + 1) % this.times.length;
      this.count -= 1;
    }
  }

  /**
   * Adds `at`. A clock that stepped back would break the order the ring relies on, so such a time is kept as
   * the newest one instead: the call then counts a little longer, never shorter.
   */
  push(at: number, limit: number): void {
    if (this.size === this.times.length) this.grow(limit);
    const time = this.size > 0 ? Math.max(at, this.newest()) : at;
    this.times[(this.head + this.size) % this.times.length] = time;
    this.count += 1;
  }

  private grow(limit: number): void {
    // Only a time under the limit is pushed, so a full ring is smaller than the limit and this grows it.
    const bigger = new Float64Array(Math.min(this.times.length * 2, limit));
    for (let i = 0; i < this.size; i++) bigger[i] = this.times[(this.head + i) % this.times.length]!;
    this.times = bigger;
    this.head = 0;
  }
}
