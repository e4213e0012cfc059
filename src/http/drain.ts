import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { SlotSet } from '../support/slot-set.js';

/** How long a connection must have been idle while closing (no answer in flight, nothing received) to be closed. */
const QUIET_MS = 250;
/** How often closing looks for idle connections. */
const LOOK_EVERY_MS = 50;

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
 * closes each connection once it is idle, and ends the rest at the deadline.
 *
 * Idle is no answer in flight on the connection and nothing read since its last answer, looked at right after
 * the event loop has read what arrived; a connection is closed once idle for QUIET_MS. `server.closeIdleConnections()`,
 * used before, counted as idle every connection between two requests, also one whose next request had arrived but
 * was not yet read: closed with that request unread, the connection was reset (RST) rather than answered, all 50
 * busy kept-alive connections of a client in a test. Now such a request is read and answered with `Connection:
 * close`; and a client whose last answer came just before closing began has QUIET_MS to send its next request on
 * that connection and be answered, rather than cross it with the server's close. Only a request sent at the very
 * moment an idle connection closes still meets a reset, which no server can tell from one never sent (RFC 9112
 * §9.3.1 lets the client retry it).
 *
 * A GET answered with an event stream (an MCP session's listening stream) carries no answer to wait for and would
 * only hold the process until the deadline: it is ended at once, and its client opens it again elsewhere.
 *
 * It installs the server's request listener: each request is followed, then handed to `listener`.
 */
/** Each connection's bytes read when its last answer ended: more since is a request arriving. */
const ANSWERED_AT = Symbol('bytes read when the last answer ended');
type Tracked = Socket & { [ANSWERED_AT]?: number };

export function drainable(server: Server, listener: (req: IncomingMessage, res: ServerResponse) => void): Drain {
  // Slots, not Sets: a Set's discarded tables kept answers alive in the collector's eyes (support/slot-set.ts).
  const inFlight = new SlotSet<ServerResponse>();
  const connections = new SlotSet<Socket>();
  let draining = false;

  // One handler for every answer and connection (no closure each: this runs for every redirect too). The bytes read
  // are kept on the socket itself rather than in a WeakMap, whose entries cost every answer a hash and the collector
  // an ephemeron each.
  function ended(this: ServerResponse): void {
    const socket: Tracked = this.req.socket;
    socket[ANSWERED_AT] = socket.bytesRead;
    inFlight.delete(this);
  }
  function gone(this: Socket): void {
    connections.delete(this);
  }

  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', gone);
  });
  // The server's one request listener, which follows each request and hands it on: a second listener beside the
  // service's would make every emit copy the listener list.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    if (draining) res.setHeader('Connection', 'close');
    // `on`, not `once`: an answer closes once, and once would wrap the handler in a new closure for each one.
    res.on('close', ended);
    listener(req, res);
  });

  /** No answer in flight on it, and nothing read since its last answer (or ever): between requests. */
  function isIdle(socket: Tracked, busy: Set<Socket>): boolean {
    return !busy.has(socket) && socket.bytesRead === (socket[ANSWERED_AT] ?? 0);
  }

  return {
    async drain(deadlineMs) {
      draining = true;
      // Resolves once every connection has ended (at once when the server never listened). net's close, as http's
      // closes the idle connections first (see above); its timer for the headers and request timeouts, which it
      // would stop too, keeps watching slow clients while closing (it holds no process open).
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      for (const res of inFlight) {
        if (!res.headersSent) res.setHeader('Connection', 'close');
        if (isListeningStream(res.req, res)) res.end();
      }
      const idleSince = new Map<Socket, number>();
      const closeIdle = () => {
        const now = performance.now();
        const busy = new Set<Socket>();
        for (const res of inFlight) busy.add(res.req.socket);
        for (const socket of connections) {
          if (!isIdle(socket, busy)) idleSince.delete(socket);
          else if (!idleSince.has(socket)) idleSince.set(socket, now);
          else if (now - idleSince.get(socket)! >= QUIET_MS) socket.destroy();
        }
      };
      // Each look runs as an immediate: after the poll phase, which read whatever had arrived on any connection.
      const look = setInterval(() => setImmediate(closeIdle), LOOK_EVERY_MS);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
      await Promise.race([closed, deadline]);
      clearTimeout(timer);
      clearInterval(look);
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
