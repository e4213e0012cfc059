import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { Config } from '../config.js';
import type { RateLimiter } from '../support/rate-limiter.js';
import { hostAndPort } from '../support/serve-line.js';
import { answerPrimary } from './cluster-metrics.js';
import { countedChecks, countedRefusals, timedStore } from './instrument.js';
import { createLogger, type Logger } from './logger.js';
import { listenForMetrics, type MetricsListener } from './metrics-server.js';
import { ServiceMetrics } from './metrics.js';
import { RedirectLog } from './redirect-log.js';
import { requestLog } from './request-log.js';

/**
 * Everything one server process tells about itself: the request log, the redirect summary and the metrics. With
 * METRICS_PORT unset nothing is wrapped or timed beyond the tallies the log needs; with it set, the store's calls,
 * the rate limiter's refusals and the destination checks are measured too, and this process serves /metrics on
 * its own listener, or (a worker of WORKERS=N) answers the primary's scrapes.
 */
export function createObserver(config: Config, logger: Logger = createLogger(config.logLevel)) {
  const metrics = new ServiceMetrics();
  const measuring = config.metricsPort !== undefined;
  const registry: Registry | null = measuring ? metrics.registry() : null;
  const redirects = new RedirectLog(logger, metrics);
  let listener: MetricsListener | null = null;

  return {
    logger,
    metrics,
    /** Follows an API, MCP, web or OAuth request to its log line. */
    follow: requestLog(logger, metrics),
    redirected: (req: IncomingMessage, res: ServerResponse, qr: boolean, link: string | null, requestId: string, started: number) =>
      redirects.answered(req, res, qr, link, requestId, started),
    store: <S extends object>(store: S): S => (measuring ? timedStore(store, (call) => metrics.storeCall(call), ['changes']) : store),
    rates: (rates: RateLimiter): RateLimiter => (measuring ? countedRefusals(rates, (kind) => metrics.refused(kind)) : rates),
    checks: <T>(checker: { check(destination: string, field: string): Promise<T> }) =>
      measuring ? countedChecks(checker, (outcome) => metrics.checked(outcome)) : checker,
    /**
     * Starts serving /metrics and the `inside` paths (one process), or answering the primary (a worker); the
     * listener's address, if any.
     */
    async listen(inside: Parameters<typeof listenForMetrics>[3] = {}): Promise<string | null> {
      if (!registry) return null;
      if (config.workers > 1) {
        answerPrimary(registry);
        return null;
      }
      const scrape = async () => ({ type: registry.contentType, text: await registry.metrics() });
      listener = await listenForMetrics(config.metricsHost, config.metricsPort!, scrape, inside);
      return hostAndPort(listener.address);
    },
    async close(): Promise<void> {
      redirects.close();
      await listener?.close();
    },
  };
}
