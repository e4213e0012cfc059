import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { freePort } from './server.js';

/** One request as the balancer passed it on. */
export interface Forwarded {
  /** Which upstream it went to: an index into the list the balancer was started with. */
  upstream: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The request's body as text, as far as the client sent it. */
  body: string;
}

export interface RoundRobin {
  /** The balancer's own address, `http://127.0.0.1:<port>`: what clients connect to, and the upstreams' PUBLIC_URL. */
  url: string;
  /** Every request passed on so far, in the order they arrived. */
  forwarded: Forwarded[];
  close(): Promise<void>;
}

/**
 * A load balancer without stickiness, as the service's processes may run behind: each request goes to the next
 * upstream in turn, whatever it carries (an `Mcp-Session-Id` included). Everything passes through unchanged both
 * ways, the `Host` header too (the upstreams see the balancer's address, as behind a real one), and answers stream
 * as they come, so SSE works. It listens on loopback, on `port` when given: the upstreams must know the balancer's
 * address (their PUBLIC_URL) before it knows theirs.
 */
export async function startRoundRobin(upstreams: string[], { port }: { port?: number } = {}): Promise<RoundRobin> {
  const targets = upstreams.map((upstream) => new URL(upstream));
  const forwarded: Forwarded[] = [];
  let next = 0;
  const proxy = createServer((req, res) => {
    const upstream = next++ % targets.length;
    const target = targets[upstream]!;
    const entry: Forwarded = { upstream, method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: '' };
    forwarded.push(entry);
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    // The client going away ends the upstream request too, as a real balancer does (an SSE stream is then closed).
    res.on('close', () => out.destroy());
    req.on('data', (chunk: Buffer) => (entry.body += chunk.toString()));
    req.pipe(out);
  });
  const listening = port ?? (await freePort());
  await new Promise<void>((resolve) => proxy.listen(listening, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${listening}`,
    forwarded,
    async close() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
