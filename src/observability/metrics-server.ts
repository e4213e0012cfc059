import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MetricsListener {
  address: AddressInfo;
  close(): Promise<void>;
}

/**
 * The metrics listener: `GET /metrics` answers Prometheus text (`scrape`), anything else 404. It is a listener of
 * its own, on METRICS_HOST:METRICS_PORT, so the public port never shows the service's insides, and a firewall or
 * the loopback default keeps it to the scraper.
 */
export async function listenForMetrics(host: string, port: number, scrape: () => Promise<{ type: string; text: string }>): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
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
