import { utcDate } from '../domain/days.js';
import type { UncountedClass } from '../domain/analytics.js';
import { unwrittenOf, type AnalyticsStore, type ClickStore } from '../store/ports.js';
import { processLog } from '../observability/logger.js';
import { reasonOf, writeFailures } from '../observability/write-failures.js';
import { isStorageFailure } from '../errors.js';
import { nextTurn } from '../support/next-turn.js';
import { AnalyticsTally, mergePending, pendingOf, sketchVisitors, type ClickFacts, type PendingAnalytics } from './analytics-tally.js';

const FLUSH_MS = 1000;
/**
 * Link days one part of a write of analytics holds: taking, sketching and grouping a part's rows run in one piece each
 * before its sliced transactions. Over 5,000 links at once they held the event loop for 20 to 40 ms at a time; parts
 * of 1,000 still held it for 4 to 9 ms at each of those steps, parts of 250 for 1 to 2 ms.
 */
export const LINK_DAYS_A_WRITE = 250;

/**
 * Counts clicks in memory (link → UTC day → count), with their analytics when on, and writes them every second
 * and at shutdown, so a redirect never waits on disk. A crash loses at most the last second of counts, which are
 * estimates anyway. Analytics are written less often (ANALYTICS_WRITE_MS, 10 s by default): a write adds to a row
 * per link clicked, on pages spread over the tables, so its cost is by the links clicked, hardly by the clicks; on
 * a busy service whose clicks spread over thousands of links, a write each second cost more than the redirects.
 */
export class ClickCounter {
  private pending = new Map<string, Map<string, number>>();
  /**
   * The counts of writes under way: what each has not written yet, as its links leave it once their transaction
   * commits (ClickStore.add). Usually one; a write slower than a second meets the next.
   */
  private readonly writing: Array<Map<string, Map<string, number>>> = [];
  private readonly tally: AnalyticsTally | null;
  private readonly timer = setInterval(() => void this.flush(), FLUSH_MS);
  /** Analytics a failed write kept, written with the next. */
  private kept: PendingAnalytics | null = null;
  /** Flushes since analytics were last written: they are written every `analyticsWriteMs / FLUSH_MS` flushes. */
  private flushesSinceAnalytics = 0;
  /**
   * The visitor keys (hex) of the latest days, asked of the store once a day, not once a click: `known` once it
   * answered (clicks hash their visitors as they come), `failed` when it could not (asked again at the next write).
   */
  private keys = new Map<string, { asked: Promise<string>; known?: string; failed?: boolean }>();

  /**
   * @param counted where every click counted is added up too, for the metrics and the log's redirect summary
   * @param analytics where click analytics go (ANALYTICS=on); null: the daily counts only
   * @param analyticsWriteMs how often analytics are written (by default with every flush of the clicks)
   */
  constructor(
    private readonly clicks: ClickStore,
    private readonly counted: { value: number } = { value: 0 },
    private readonly analytics: AnalyticsStore | null = null,
    private readonly analyticsWriteMs = 0,
  ) {
    this.tally = analytics && new AnalyticsTally();
    this.timer.unref();
  }

  /** A click on `linkId` at `at`; `facts` are its analytics (left out with ANALYTICS=off). */
  count(linkId: string, at: Date, facts?: ClickFacts): void {
    this.counted.value += 1;
    const day = this.dayOf(at);
    this.merge(linkId, day, 1);
    if (facts) this.tally?.clicked(linkId, day, facts, this.knownKey(day));
  }

  /** A visit of an active link not counted as a click, by its class (nothing with ANALYTICS=off). */
  notCounted(linkId: string, at: Date, kind: UncountedClass): void {
    this.tally?.notCounted(linkId, this.dayOf(at), kind);
  }

  /** The clicks on `linkId` this process counted that the store may not hold yet: pending, or being written. */
  clicksNotWritten(linkId: string): number {
    let clicks = 0;
    for (const days of [this.pending.get(linkId), ...this.writing.map((batch) => batch.get(linkId))]) for (const n of days?.values() ?? []) clicks += n;
    return clicks;
  }

  private lastDay: { index: number; text: string } = { index: -1, text: '' };

  /** The UTC date of `at`, formatted once per day rather than once per click. */
  private dayOf(at: Date): string {
    const index = Math.floor(at.getTime() / 86_400_000);
    if (index !== this.lastDay.index) this.lastDay = { index, text: utcDate(at) };
    return this.lastDay.text;
  }

  /**
   * Writes the counts so far, then their analytics when due (or `all`); resolves to the error that kept either from
   * being written (what was not written is kept for the next round), if any.
   */
  async flush(all = false): Promise<unknown> {
    // Everything counted until now is taken at once, and written in parts of LINK_DAYS_A_WRITE link days.
    const taken = this.tally && !this.tally.empty && (all || this.analyticsDue()) ? this.tally.split() : null;
    let analytics = taken && taken.take(LINK_DAYS_A_WRITE);
    if (this.kept) {
      analytics = analytics ? mergePending(this.kept, analytics) : this.kept;
      this.kept = null;
    }
    if (this.pending.size === 0 && !analytics) return undefined;
    // Taking analytics of thousands of links, writing the counts and sketching the visitors each take milliseconds:
    // a turn between them lets the waiting requests be answered. (Clicks counted meanwhile are in the counts written
    // now and in the next analytics: a day never has analytics of clicks it does not count.)
    if (analytics) await nextTurn();
    if (this.pending.size > 0) {
      const batch = this.pending;
      this.pending = new Map();
      this.writing.push(batch);
      const written = await this.clicks.add(batch).then(
        () => true,
        (error: unknown) => error,
      );
      this.writing.splice(this.writing.indexOf(batch), 1);
      if (written !== true) {
        // Busy past the timeout (the CLI holds a long write), or a full disk: put the counts not written back for the
        // next round, with their analytics, so that no day has analytics of clicks it does not count.
        for (const [linkId, days] of batch) for (const [day, n] of days) this.merge(linkId, day, n);
        this.keepAll(analytics, taken);
        return failed(written);
      }
    }
    for (; analytics; analytics = taken && !taken.empty ? taken.take(LINK_DAYS_A_WRITE) : null) {
      try {
        for (const [day, key] of this.keys) if (key.failed) this.keys.delete(day);
        await nextTurn();
        await this.analytics!.add(await sketchVisitors(analytics, (day) => this.keyOf(day)));
      } catch (error) {
        // A write that failed part way wrote the rest: only what it left is written again, with the parts not begun.
        const unwritten = unwrittenOf(error);
        this.keepAll(unwritten ? pendingOf(unwritten) : analytics, taken);
        return failed(error);
      }
    }
    writeFailures.stored();
    return undefined;
  }

  private analyticsDue(): boolean {
    if (++this.flushesSinceAnalytics < Math.round(this.analyticsWriteMs / FLUSH_MS)) return false;
    this.flushesSinceAnalytics = 0;
    return true;
  }

  /** Keeps a part not written and the parts of its write not begun (`taken`'s rest), for the next flush. */
  private keepAll(part: PendingAnalytics | null, taken: AnalyticsTally | null): void {
    this.keep(part);
    if (taken && !taken.empty) this.keep(taken.take());
  }

  /** Keeps analytics that could not be written for the next flush (with what another flush under way kept). */
  private keep(analytics: PendingAnalytics | null): void {
    if (analytics) this.kept = this.kept ? mergePending(this.kept, analytics) : analytics;
  }

  /** The visitor key of `day` if the store has answered it; else asks for it, and the click's visitor waits for the write. */
  private knownKey(day: string): string | undefined {
    const key = this.keys.get(day);
    if (key === undefined) this.keyOf(day).catch(() => {});
    return key?.known;
  }

  /** The visitor key of `day`, asked of the store once; a failed ask is asked again at the next write. */
  private keyOf(day: string): Promise<string> {
    const found = this.keys.get(day);
    if (found) return found.asked;
    // A day's key serves its clicks until the day is over: the latest two days' are kept (the turn of a day).
    if (this.keys.size >= 2) this.keys = new Map([...this.keys].slice(-1));
    const key: { asked: Promise<string>; known?: string; failed?: boolean } = {
      asked: this.analytics!.visitorKey(day).then((bytes) => (key.known = Buffer.from(bytes).toString('hex'))),
    };
    // Asked again at the next write, not at the next click: while the database is out, clicks must not each ask.
    key.asked.catch(() => (key.failed = true));
    this.keys.set(day, key);
    return key.asked;
  }

  /**
   * Stops the timer and writes what is counted. Counts that still cannot be written are lost with the process: the
   * log's last word on them says how many, of how many links, and why (the process still exits 0: it stopped as
   * asked, and counts are estimates; this line is what an operator must not miss).
   */
  async close(): Promise<void> {
    clearInterval(this.timer);
    let failure = await this.flush(true);
    // A visit answered while that write was under way (one cut off by the drain's timeout) counted after it began:
    // written too, while writes work. Bounded, in case visits go on counting.
    for (let round = 0; round < 3 && failure === undefined && this.unwritten(); round++) failure = await this.flush(true);
    if (!this.unwritten()) return;
    const reason = reasonOf(failure);
    let clicks = 0;
    for (const days of this.pending.values()) for (const n of days.values()) clicks += n;
    const links = this.pending.size;
    if (links > 0) {
      processLog().error(
        { clicks, links, reason },
        `closing: ${clicks} ${clicks === 1 ? 'click' : 'clicks'} counted on ${links} ${links === 1 ? 'link' : 'links'} could not be written (${reason}); they are lost`,
      );
    } else {
      const rows = this.kept?.facets.length ?? 0;
      processLog().error({ rows, reason }, `closing: click analytics (${rows} ${rows === 1 ? 'count' : 'counts'} by value) could not be written (${reason}); they are lost`);
    }
  }

  private unwritten(): boolean {
    return this.pending.size > 0 || this.kept !== null || (this.tally !== null && !this.tally.empty);
  }

  private merge(linkId: string, day: string, n: number): void {
    let days = this.pending.get(linkId);
    if (!days) this.pending.set(linkId, (days = new Map()));
    days.set(day, (days.get(day) ?? 0) + n);
  }
}

/** Logs a failed write as ClickCounter always has, and answers it. */
function failed(error: unknown): unknown {
  if (isStorageFailure(error)) writeFailures.failed(error);
  else processLog().warn({ err: error }, 'Could not write click counts yet');
  return error;
}
