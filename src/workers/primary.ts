import cluster, { type Worker } from 'node:cluster';
import { existsSync } from 'node:fs';
import type { Config } from '../config.js';
import { describeDatabase, openStore } from '../store/open.js';
import { hostAndPort } from '../support/serve-line.js';
import { scrapeWorkers } from '../observability/cluster-metrics.js';
import { processLog } from '../observability/logger.js';
import { listenForMetrics } from '../observability/metrics-server.js';
import { logStartUp } from '../observability/start-up.js';
import { RestartBackOff } from './back-off.js';
import { FINAL_STEPS_MS } from './close-on-signals.js';
import { closeHandoffsOfDeadWorker } from './handoffs.js';
import { WORKER_SLOT_VARIABLE } from '../support/worker-slot.js';

/**
 * The primary process of WORKERS=N (node:cluster): it serves nothing itself. It applies the migrations once,
 * before any worker opens the database, then starts N workers on the one port (cluster's round-robin hands each
 * new connection to the next worker) and prints the start-up lines once all of them listen. A worker that ends
 * unexpectedly is started again after a back-off (RestartBackOff). SIGINT or SIGTERM is passed to every worker,
 * and the primary exits 0 once all of them have closed; a worker still there well after its own deadline (its
 * event loop stuck) is killed, and the primary exits 1. A worker that ends before the service first started (the
 * port taken, a bad database) stops the whole service with exit code 1, as a single process would. Each worker has
 * a slot, 1 to N, which its replacement takes (the `worker` label of its metrics), and a connection handed to a
 * worker that died before taking it is closed at once (handoffs.ts) rather than left waiting.
 * With METRICS_PORT set, the primary serves /metrics: the workers' metrics, added up at each scrape.
 */
export async function superviseWorkers(config: Config): Promise<void> {
  const log = processLog();
  const database = describeDatabase(config, !existsSync(config.databasePath));
  // Migrations (each under SQLite's write lock, so never twice in any case) are done before a worker starts.
  await (await openStore(config)).close();
  const metrics = config.metricsPort === undefined ? null : await listenForMetrics(config.metricsHost, config.metricsPort, scrapeWorkers());

  /** The live workers, each with its slot. */
  const live = new Map<Worker, number>();
  const waiting = new Set<NodeJS.Timeout>();
  const backOff = new RestartBackOff();
  let started = false;
  let stopping: { exitCode: number } | null = null;
  const listening = new Set<Worker>();

  const start = (slot: number) => {
    const worker = cluster.fork({ [WORKER_SLOT_VARIABLE]: String(slot) });
    closeHandoffsOfDeadWorker(worker);
    live.set(worker, slot);
  };

  const stop = (signal: NodeJS.Signals, exitCode: number) => {
    if (stopping) return;
    stopping = { exitCode };
    for (const timer of waiting) clearTimeout(timer);
    waiting.clear();
    if (live.size === 0) process.exit(exitCode);
    for (const worker of live.keys()) worker.process.kill(signal);
    // Each worker gives up on its own after the deadline and FINAL_STEPS_MS; one that cannot even do that is stuck.
    setTimeout(() => {
      log.error(`${live.size} workers still running ${config.shutdownTimeoutMs + 2 * FINAL_STEPS_MS} ms after ${signal}; killing them`);
      for (const worker of live.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, config.shutdownTimeoutMs + 2 * FINAL_STEPS_MS).unref();
  };

  cluster.on('listening', (worker, address) => {
    if (started) return log.info(`Worker ${worker.process.pid} serves in place of the one that ended.`);
    listening.add(worker);
    if (listening.size < config.workers) return;
    started = true;
    const metricsAddress = metrics && hostAndPort(metrics.address);
    logStartUp(log, config, { address: { address: address.address ?? '::', port: address.port }, database, metrics: metricsAddress });
  });

  cluster.on('exit', (worker, code, signal) => {
    const slot = live.get(worker)!;
    live.delete(worker);
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (stopping) {
      if (started && (signal || code !== 0)) log.error(`Worker ${worker.process.pid} ended (${how}) while closing; its last click counts may be lost.`);
      if (live.size === 0) process.exit(stopping.exitCode);
      return;
    }
    if (!started) {
      log.error(`A worker ended before the service started (${how}); stopping.`);
      return stop('SIGTERM', 1);
    }
    const wait = backOff.next(Date.now());
    log.error(`Worker ${worker.process.pid} ended (${how}); another starts in ${wait} ms.`);
    const timer = setTimeout(() => {
      waiting.delete(timer);
      start(slot);
    }, wait);
    waiting.add(timer);
  });

  for (let slot = 1; slot <= config.workers; slot++) start(slot);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (!stopping) log.info(`${signal}: closing ${live.size} workers`);
      stop(signal, 0);
    });
  }
}
