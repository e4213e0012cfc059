import { Agent, createServer, request } from 'node:http';

export interface Balancer {
  url: string;
  port: number;
  /** How many requests each upstream was sent, by its index. */
  sent: number[];
  close(): Promise<void>;
}

/** The header naming the upstream (its index) that answered, set on every answer passed back. */
export const UPSTREAM_HEADER = 'x-test-upstream';

/**
 * A real round-robin load balancer on loopback, as an operator puts in front of several server processes: each
 * request goes to the next upstream in turn, whatever connection it came on (no stickiness), and the client's
 * Host travels unchanged so the servers see their PUBLIC_URL's. A dead upstream answers 502.
 */
export async function startBalancer(port: number, upstreams: number[]): Promise<Balancer> {
  const sent = upstreams.map(() => 0);
  const agent = new Agent({ keepAlive: true });
  let next = 0;
  const server = createServer((req, res) => {
    const index = next++ % upstreams.length;
    sent[index]! += 1;
    const forward = request(
      { host: '127.0.0.1', port: upstreams[index], method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        // Hop-by-hop headers are the upstream connection's, not the client's (RFC 9110 section 7.6.1): passed on,
        // the server's `Keep-Alive: timeout=65` had clients keep an idle connection the balancer closes after 5 s,
        // and a request sent on it as it closed was reset.
        const { connection: _connection, 'keep-alive': _keepAlive, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, { ...headers, [UPSTREAM_HEADER]: String(index) });
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { [UPSTREAM_HEADER]: String(index) });
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    sent,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
