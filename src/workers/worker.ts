import type { App } from '../app.js';
import { closeOnSignals } from './close-on-signals.js';

/**
 * One worker of WORKERS=N. It listens on the shared port (the primary holds the socket and hands each new
 * connection to the workers in turn), names itself in `X-Served-By` (its process id, written by the app: serve.ts)
 * so an operator can tell which process answered, and closes on SIGINT or SIGTERM as a single process does (close-on-signals.ts).
 */
export async function serveAsWorker(app: App, shutdownTimeoutMs: number): Promise<void> {
  closeOnSignals(app, shutdownTimeoutMs);
  await app.listen();
}
