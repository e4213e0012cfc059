import type { ClickStore } from '../store/ports.js';
import { LruCache } from '../support/lru-cache.js';

/** How long a capped link's total from the store serves before a visit has it read again, in the background. */
export const CAP_TOTAL_FRESH_MS = 1_000;

/** A capped link's counted clicks as this process knows them. */
interface Used {
  /** The store's total when last read, with this process's clicks not written then. */
  before: number;
  /** Counted by this process since. */
  here: number;
  readAt: number;
  reading: boolean;
}

/** Every click a link ever counted: the daily counts are never removed (the retention job keeps them). */
const ALL_DAYS = ['0000-01-01', '9999-12-31'] as const;

/**
 * The counted clicks of links with a click cap (maxClicks), for the redirect to answer 410 once a link reached its
 * cap, without a read per visit. A process reads a capped link's total once, at its first visit, then counts its
 * own clicks on top; the total is read again in the background, by a visit at least CAP_TOTAL_FRESH_MS after the
 * last read, to take in other processes' clicks. So one process ends a link exactly at its cap; several may let
 * through, past it, the clicks the others counted in the last second or two (docs/behaviour.md, "Link options").
 * Kept by link id, not by address: a link's code and name share one count.
 */
export class ClickCaps {
  private readonly used = new LruCache<Used>(100_000);

  /**
   * @param notWritten the clicks on a link this process counted that the store may not hold yet (ClickCounter)
   */
  constructor(
    private readonly clicks: ClickStore,
    private readonly notWritten: (linkId: string) => number,
  ) {}

  /** Whether the link reached `maxClicks`: answered from memory, but at a link's first visit, which reads its total. */
  async reached(linkId: string, maxClicks: number, nowMs: number): Promise<boolean> {
    let used = this.used.get(linkId);
    if (used === undefined) used = await this.read(linkId, nowMs);
    else if (!used.reading && nowMs - used.readAt >= CAP_TOTAL_FRESH_MS) void this.read(linkId, nowMs).catch(() => (used!.reading = false));
    return used.before + used.here >= maxClicks;
  }

  /** A click counted on a capped link (after `reached` answered for it). */
  counted(linkId: string): void {
    const used = this.used.get(linkId);
    if (used) used.here += 1;
  }

  private async read(linkId: string, nowMs: number): Promise<Used> {
    const known = this.used.get(linkId);
    if (known) known.reading = true;
    const totals = await this.clicks.totals([linkId], ...ALL_DAYS);
    const used: Used = { before: (totals.get(linkId) ?? 0) + this.notWritten(linkId), here: 0, readAt: nowMs, reading: false };
    this.used.set(linkId, used);
    return used;
  }
}
