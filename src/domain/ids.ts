import { randomString, type Random } from './random.js';

/** A random id with a readable prefix: `team_…`, `person_…`, `tok_…`. */
export function newId(prefix: string, random: Random): string {
  return `${prefix}_${randomString(random, 16)}`;
}

/**
 * Link ids and creation times that only ever grow, so that "newest first (createdAt, then id, descending)" is the
 * same order as insertion. That lets listLinks walk an index (or a full-text index by rowid) newest-first and stop
 * at the page size, instead of sorting every match.
 */
export class LinkIds {
  private lastMs = 0;
  private counter = 0;

  constructor(private readonly random: Random) {}

  /** Never hands out a time before one already given (a clock stepping back is clamped). */
  seed(lastMs: number): void {
    this.lastMs = Math.max(this.lastMs, lastMs);
  }

  next(nowMs: number): { id: string; createdAt: Date } {
    if (nowMs > this.lastMs) {
      this.lastMs = nowMs;
      this.counter = 0;
    } else {
      this.counter += 1;
    }
    const time = this.lastMs.toString(36).padStart(9, '0');
    const count = this.counter.toString(36).padStart(4, '0');
    return { id: `link_${time}${count}${randomString(this.random, 8)}`, createdAt: new Date(this.lastMs) };
  }
}
