import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface Drain {
  /**
   * Stops taking connections and lets the requests in flight finish, for `deadlineMs` at most; then closes every
   * connection still open. Resolves to how many requests were cut off that way.
   */
  drain(deadlineMs: number): Promise<number>;
}

/**
 * Closing an HTTP server without cutting answers short (SIGTERM, SIGINT). `server.close()` alone stops taking
 * connections but leaves each kept-alive one open until its client or its idle timeout ends it, and never ends a
 * request that does not end: so this keeps the requests in flight, makes every answer from the moment closing
 * began end its connection (`Connection: close`, so the client's next request goes to a process that serves on),
 * closes each connection as soon as it falls idle, and ends the rest at the deadline.
 *
 * A GET answered with an event stream (an MCP session's listening stream) carries no answer to wait for and would
 * only hold the process until the deadline: it is ended at once, and its client opens it again elsewhere.
 */
export function drainable(server: Server): Drain {
  const inFlight = new Map<ServerResponse, IncomingMessage>();
  let draining = false;

  // One handler for every answer (no closure per request: this runs for every redirect too).
  function ended(this: ServerResponse): void {
    inFlight.delete(this);
    // A kept-alive connection whose answer began before closing is idle now: closed rather than left open.
    if (draining) server.closeIdleConnections();
  }

  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(res, req);
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', ended);
  });

  return {
    async drain(deadlineMs) {
      draining = true;
      // Resolves once every connection has ended (at once when the server never listened).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const [res, req] of inFlight) {
        if (!res.headersSent) res.setHeader('Connection', 'close');
        if (isListeningStream(req, res)) res.end();
      }
      // A connection may also fall idle without an answer ending then (its answer went out before the rest of its
      // body came in): looked for every 100 ms.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
      await Promise.race([closed, deadline]);
      clearTimeout(timer);
      clearInterval(sweep);
      const cut = inFlight.size;
      server.closeAllConnections();
      await closed;
      return cut;
    },
  };
}

function isListeningStream(req: IncomingMessage, res: ServerResponse): boolean {
  return req.method === 'GET' && String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
}
