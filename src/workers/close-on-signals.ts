import type { App } from '../app.js';
import { processLog } from '../observability/logger.js';

/** How long closing may take past the deadline (writing click counts, closing the database) before giving up. */
export const FINAL_STEPS_MS = 5000;

/**
 * Closes the app on the first SIGINT or SIGTERM (app.close: no new connections, requests in flight finish within
 * SHUTDOWN_TIMEOUT_MS, click counts written, database closed) and exits 0. Further signals change nothing (a
 * terminal's Ctrl-C reaches every process of WORKERS=N, and the primary passes it on too), so closing always
 * completes. Should closing itself hang past the deadline and FINAL_STEPS_MS (a database that stopped answering),
 * the process exits 1 all the same: a supervisor's stop must not wait forever.
 */
export function closeOnSignals(app: App, deadlineMs: number, announce?: (signal: NodeJS.Signals) => void): void {
  let closing = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    announce?.(signal);
    setTimeout(() => {
      processLog().error(`${signal}: closing took longer than ${deadlineMs + FINAL_STEPS_MS} ms; exiting without finishing`);
      process.exit(1);
    }, deadlineMs + FINAL_STEPS_MS).unref();
    await app.close();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(signal));
}
