import type { App } from '../app.js';
import { processLog } from '../observability/logger.js';
import { closeOnSignals } from './close-on-signals.js';

/**
 * One worker of WORKERS=N. It listens on the shared port (the primary holds the socket and hands each new
 * connection to the workers in turn), names itself in `X-Served-By` (its process id, written by the app: serve.ts)
 * so an operator can tell which process answered, and closes on SIGINT or SIGTERM as a single process does (close-on-signals.ts).
 */
export async function serveAsWorker(app: App, shutdownTimeoutMs: number): Promise<void> {
  closeOnSignals(app, shutdownTimeoutMs);
  try {
    await app.listen();
  } catch (error) {
    // Ended at once, whatever would keep it running (the channel to the primary, the store's connections): the
    // primary stops the service with exit code 1 when a worker ends before all listened (primary.ts). Left to its
    // caller, `shortlinks serve` only set an exit code, and the worker, and so the service, ran on not listening.
    processLog().error(`This worker cannot listen: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
