import type { App } from '../app.js';

/**
 * One worker of WORKERS=N. It listens on the shared port (the primary holds the socket and hands each new
 * connection to the workers in turn), names itself in `X-Served-By` (its process id) so an operator can tell which
 * process answered, and closes on SIGINT or SIGTERM: it stops taking requests, writes its pending click counts
 * and exits 0. A second signal changes nothing (a terminal's Ctrl-C reaches every worker and the primary, which
 * forwards it), so closing always completes.
 */
export async function serveAsWorker(app: App): Promise<void> {
  const servedBy = String(process.pid);
  app.server.prependListener('request', (_req, res) => res.setHeader('X-Served-By', servedBy));
  await app.listen();
  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
