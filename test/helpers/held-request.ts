import { connect } from 'node:net';

/** What came back on a held request's connection before the server closed it; status null when nothing did. */
export interface HeldAnswer {
  status: number | null;
  headers: Record<string, string>;
  body: string;
}

export interface HeldRequest {
  /** Resolves once the connection is open and the first part of the request was sent. */
  sent: Promise<void>;
  /** Sends the rest of the request. */
  finish(): void;
  /** Everything the server answered, once it closed the connection (or it was closed on it). */
  answer: Promise<HeldAnswer>;
}

const HEALTHY = '{"status":"ok"}';
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/**
 * An HTTP/1.1 request on a connection of its own, sent up to `holdAt` characters and held there until finish(): a
 * request in flight for as long as a test wants (held in its headers, or in its body, like a slow upload).
 * `request` is the whole request as sent on the wire.
 *
 * When `sent` resolves, the server has the request (or the connection) in hand, not merely the kernel: a request
 * with `Expect: 100-continue` waits for the server's 100 Continue, which it sends once it has read the headers;
 * with `served`, the connection first carries a GET /healthz and waits for its answer, so the server has taken the
 * connection (one still in the kernel's queue when the server stops listening is reset, never served). `answer`
 * holds only what came back after that.
 */
export function holdRequest(port: number, request: string, holdAt: number, { served = false } = {}): HeldRequest {
  const socket = connect({ host: '127.0.0.1', port });
  let received = '';
  let awaited: { text: string; arrived: () => void } | null = null;
  const reply = (text: string) => new Promise<void>((resolve) => (awaited = { text, arrived: resolve }));
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
    if (awaited && received.endsWith(awaited.text)) {
      received = '';
      awaited.arrived();
      awaited = null;
    }
  });
  const answer = new Promise<HeldAnswer>((resolve) => {
    socket.on('error', () => {});
    socket.on('close', () => resolve(parse(received)));
  });
  const sent = new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', async () => {
      if (served) {
        const healthy = reply(HEALTHY);
        socket.write(rawRequest(port, 'GET', '/healthz', {}));
        await healthy;
      }
      const continued = /^expect: 100-continue$/im.test(request) ? reply(CONTINUE) : null;
      await new Promise<void>((written) => socket.write(request.slice(0, holdAt), () => written()));
      await continued;
      resolve();
    });
  });
  return { sent, finish: () => void socket.write(request.slice(holdAt)), answer };
}

/** A request as sent on the wire, with Host and, for a body, Content-Length. */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body = ''): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (body !== '') lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

function parse(text: string): HeldAnswer {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return { status: null, headers: {}, body: text };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) };
}
