import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MetricsListener {
  address: AddressInfo;
  close(): Promise<void>;
}

/**
 * The metrics listener: `GET /metrics` answers Prometheus text (`scrape`), the `inside` paths their own, anything
 * else 404. It is a listener of
 * its own, on METRICS_HOST:METRICS_PORT, so the public port never shows the service's insides, and a firewall or
 * the loopback default keeps it to the scraper.
 */
export async function listenForMetrics(
  host: string,
  port: number,
  scrape: () => Promise<{ type: string; text: string }>,
  /** Other questions for the operator's machinery only, by path (the proxy's /tls/allowed: domains/tls-ask.ts). */
  inside: Readonly<Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>>> = {},
): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (Object.hasOwn(inside, path)) {
      return void inside[path]!(req, res).catch(() => {
        res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Unavailable; ask again.\n');
      });
    }
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end('Not found: metrics are at /metrics.\n');
    }
    scrape().then(
      ({ type, text }) => {
        res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      // A worker that did not answer in time (WORKERS=N): the scraper tries again at its next interval.
      (error: Error) => {
        res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`Metrics unavailable: ${error.message}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
