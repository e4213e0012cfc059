import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger.js';
import type { ServiceMetrics } from './metrics.js';
import type { CounterSeries, HistogramSeries } from './tallies.js';

const SUMMARY_MS = 60_000;

/**
 * Redirects, counted without a line each: tens of thousands a second would drown the log and cost more than the
 * redirect. Each is added to its series (looked up by status, no allocation) and its time to the histogram; a
 * summary line every minute (and at shutdown) gives the counts by status since the last one. At LOG_LEVEL=debug
 * each redirect gets a line too, naming the link by its id: never its code or name, which are the short address
 * itself and would let anyone reading the log follow it.
 */
export class RedirectLog {
  private readonly visits = new Map<number, CounterSeries>();
  private readonly qrCodes = new Map<number, CounterSeries>();
  private readonly visitTime: HistogramSeries;
  private readonly qrTime: HistogramSeries;
  private readonly debug: boolean;
  private readonly reported = new Map<CounterSeries, number>();
  private clicksReported = 0;
  private since = performance.now();
  private readonly timer = setInterval(() => this.summarize(), SUMMARY_MS);

  constructor(
    private readonly logger: Logger,
    private readonly metrics: ServiceMetrics,
  ) {
    this.visitTime = metrics.durations.of('redirect', 'visit');
    this.qrTime = metrics.durations.of('redirect', 'qr');
    this.debug = logger.isLevelEnabled('debug');
    this.timer.unref();
  }

  /** A redirect (or its page: warning, disabled, not found) or a QR code was answered; `link` is the link's id. */
  answered(req: IncomingMessage, res: ServerResponse, qr: boolean, link: string | null, requestId: string, started: number): void {
    const seconds = (performance.now() - started) / 1000;
    const status = res.statusCode;
    const byStatus = qr ? this.qrCodes : this.visits;
    let series = byStatus.get(status);
    if (series === undefined) byStatus.set(status, (series = this.metrics.requests.of('redirect', qr ? 'qr' : 'visit', String(status))));
    series.value += 1;
    (qr ? this.qrTime : this.visitTime).observe(seconds);
    if (!this.debug) return;
    const route = qr ? '/:code/qr' : '/:code';
    this.logger.debug({ requestId, surface: 'redirect', method: req.method, route, operation: qr ? 'qr' : 'visit', status, durationMs: Math.round(seconds * 100_000) / 100, link }, 'redirect');
  }

  /** Writes the counts since the last summary, when there are any. */
  summarize(): void {
    const visits = this.added(this.visits);
    const qr = this.added(this.qrCodes);
    const clicks = this.metrics.clicksCounted.value - this.clicksReported;
    this.clicksReported += clicks;
    const now = performance.now();
    const seconds = Math.round((now - this.since) / 1000);
    this.since = now;
    if (Object.keys(visits).length === 0 && Object.keys(qr).length === 0 && clicks === 0) return;
    this.logger.info({ surface: 'redirect', seconds, visits, qr, clicks }, 'redirects');
  }

  close(): void {
    clearInterval(this.timer);
    this.summarize();
  }

  /** Counts by status added since the last summary. */
  private added(byStatus: Map<number, CounterSeries>): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [status, series] of byStatus) {
      const added = series.value - (this.reported.get(series) ?? 0);
      if (added > 0) counts[status] = added;
      this.reported.set(series, series.value);
    }
    return counts;
  }
}
