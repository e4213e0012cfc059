import { utcDate } from '../domain/days.js';
import type { ClickStore } from '../store/ports.js';
import { processLog } from '../observability/logger.js';
import { reasonOf, writeFailures } from '../observability/write-failures.js';
import { isStorageFailure } from '../errors.js';

const FLUSH_MS = 1000;

/**
 * Counts clicks in memory (link → UTC day → count) and writes them in one transaction every second and at
 * shutdown, so a redirect never waits on disk. A crash loses at most the last second of counts, which are
 * estimates anyway.
 */
export class ClickCounter {
  private pending = new Map<string, Map<string, number>>();
  private readonly timer = setInterval(() => void this.flush(), FLUSH_MS);

  /** @param counted where every click counted is added up too, for the metrics and the log's redirect summary */
  constructor(
    private readonly clicks: ClickStore,
    private readonly counted: { value: number } = { value: 0 },
  ) {
    this.timer.unref();
  }

  count(linkId: string, at: Date): void {
    this.counted.value += 1;
    const day = this.dayOf(at);
    let days = this.pending.get(linkId);
    if (!days) this.pending.set(linkId, (days = new Map()));
    days.set(day, (days.get(day) ?? 0) + 1);
  }

  private lastDay: { index: number; text: string } = { index: -1, text: '' };

  /** The UTC date of `at`, formatted once per day rather than once per click. */
  private dayOf(at: Date): string {
    const index = Math.floor(at.getTime() / 86_400_000);
    if (index !== this.lastDay.index) this.lastDay = { index, text: utcDate(at) };
    return this.lastDay.text;
  }

  /** Writes the counts so far; resolves to the error that kept them from being written (they are kept), if any. */
  async flush(): Promise<unknown> {
    if (this.pending.size === 0) return undefined;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.clicks.add(batch);
      writeFailures.stored();
      return undefined;
    } catch (error) {
      // Busy past the timeout (the CLI holds a long write), or a full disk: put the counts back for the next round.
      for (const [linkId, days] of batch) for (const [day, n] of days) this.merge(linkId, day, n);
      if (isStorageFailure(error)) writeFailures.failed(error);
      else processLog().warn({ err: error }, 'Could not write click counts yet');
      return error;
    }
  }

  /**
   * Stops the timer and writes what is counted. Counts that still cannot be written are lost with the process: the
   * log's last word on them says how many, of how many links, and why (the process still exits 0: it stopped as
   * asked, and counts are estimates; this line is what an operator must not miss).
   */
  async close(): Promise<void> {
    clearInterval(this.timer);
    let failure = await this.flush();
    // A visit answered while that write was under way (one cut off by the drain's timeout) counted after it began:
    // written too, while writes work. Bounded, in case visits go on counting.
    for (let round = 0; round < 3 && failure === undefined && this.pending.size > 0; round++) failure = await this.flush();
    if (this.pending.size === 0) return;
    let clicks = 0;
    for (const days of this.pending.values()) for (const n of days.values()) clicks += n;
    const links = this.pending.size;
    const reason = reasonOf(failure);
    processLog().error(
      { clicks, links, reason },
      `closing: ${clicks} ${clicks === 1 ? 'click' : 'clicks'} counted on ${links} ${links === 1 ? 'link' : 'links'} could not be written (${reason}); they are lost`,
    );
  }

  private merge(linkId: string, day: string, n: number): void {
    let days = this.pending.get(linkId);
    if (!days) this.pending.set(linkId, (days = new Map()));
    days.set(day, (days.get(day) ?? 0) + n);
  }
}
