import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { loadConfig } from './config.js';
import { createLogger, useProcessLog } from './observability/logger.js';
import { logStartUp } from './observability/start-up.js';
import { guardProcess } from './process-guards.js';
import { describeDatabase } from './store/open.js';
import { closeOnSignals } from './workers/close-on-signals.js';
import { superviseWorkers } from './workers/primary.js';
import { serveAsWorker } from './workers/worker.js';

/**
 * `npm start` and `shortlinks serve`: serve everything on one port until SIGINT or SIGTERM. With WORKERS=N above
 * 1, this process becomes the primary of N worker processes (workers/primary.ts), each of which runs this again.
 */
export async function serve(): Promise<void> {
  guardProcess();
  const config = loadConfig();
  // From here on every line of this process, the guards' included, is JSON on standard output at LOG_LEVEL.
  const logger = createLogger(config.logLevel);
  useProcessLog(logger);
  if (config.workers > 1 && cluster.isPrimary) return superviseWorkers(config);
  const database = describeDatabase(config, !existsSync(config.databasePath));
  // Imported here, so the primary of WORKERS=N, which serves nothing, never loads the app.
  const { createApp } = await import('./app.js');
  const app = await createApp(config, { logger });
  // WORKERS=1 serves as one process even inside another's cluster (pm2's cluster mode, say).
  if (config.workers > 1) return serveAsWorker(app, config.shutdownTimeoutMs);
  // Before listening: a signal that arrives as soon as the start-up lines are out must close, not kill.
  closeOnSignals(app, config.shutdownTimeoutMs, (signal) => logger.info(`${signal}: closing`));
  const address = await app.listen();
  logStartUp(logger, config, { address, database, metrics: app.metricsAddress() });
}
