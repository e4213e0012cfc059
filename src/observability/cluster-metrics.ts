import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * WORKERS=N: each worker counts its own requests; the primary, which serves METRICS_PORT, asks every worker for
 * its metrics at each scrape (prom-client's cluster messages) and answers their sum: counters and histograms add
 * up, and so do the process metrics (CPU seconds, memory) of the workers.
 */
export function answerPrimary(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
  // Made for its side effect: a worker answers the primary's requests once an AggregatorRegistry exists.
  new AggregatorRegistry();
}

/** The primary's scrape: every live worker's metrics, added up (rejects after 5 s when a worker does not answer). */
export function scrapeWorkers(): () => Promise<{ type: string; text: string }> {
  const aggregator = new AggregatorRegistry();
  return async () => ({ type: aggregator.contentType, text: await aggregator.clusterMetrics() });
}
