import { AggregatorRegistry, type Registry } from 'prom-client';
import { workerSlot } from '../support/worker-slot.js';

/** The event loop's delay gauges (prom-client's `nodejs_eventloop_lag_*`): per worker, as a stuck one is the point. */
const EVENT_LOOP_DELAY = 'nodejs_eventloop_lag_';

/**
 * WORKERS=N: each worker counts its own requests; the primary, which serves METRICS_PORT, asks every worker for
 * its metrics at each scrape (prom-client's cluster messages) and answers their sum: counters and histograms add
 * up, and so do the process metrics (CPU seconds, memory) of the workers. The event loop's delay is the exception:
 * prom-client averages it over the workers, so one stuck worker of four showed a quarter of its delay; each worker
 * answers it labelled `worker="<slot>"` instead, and the primary passes every worker's series on as it is.
 */
export function answerPrimary(registry: Registry): void {
  AggregatorRegistry.setRegistries([labelledEventLoop(registry, workerSlot())]);
  // Made for its side effect: a worker answers the primary's requests once an AggregatorRegistry exists.
  new AggregatorRegistry();
}

/** The registry as the primary reads it (getMetricsAsJSON), with `worker` added to the event loop's series. */
function labelledEventLoop(registry: Registry, worker: string): Registry {
  const labelled = Object.create(registry) as Registry;
  labelled.getMetricsAsJSON = async () =>
    (await registry.getMetricsAsJSON()).map((metric) =>
      metric.name.startsWith(EVENT_LOOP_DELAY) ? { ...metric, values: metric.values.map((value) => ({ ...value, labels: { ...value.labels, worker } })) } : metric,
    );
  return labelled;
}

/** The primary's scrape: every live worker's metrics, added up (rejects after 5 s when a worker does not answer). */
export function scrapeWorkers(): () => Promise<{ type: string; text: string }> {
  const aggregator = new AggregatorRegistry();
  return async () => ({ type: aggregator.contentType, text: await aggregator.clusterMetrics() });
}
