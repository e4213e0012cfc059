import type { IncomingMessage } from 'node:http';
import { apiError } from '../errors.js';

/** The largest body taken: 50 createLinks items of 2,048-character destinations fit several times over. */
export const MAX_BODY_BYTES = 512 * 1024;

/** How much of a refused body is still read (and thrown away) so the 413 reaches the client, and for how long. */
const DRAIN_BYTES = 16 * 1024 * 1024;
const DRAIN_MS = 10_000;

/** The client hung up before its body was read: there is nobody to answer. */
export class ClientGone extends Error {
  constructor() {
    super('The client hung up before its request body was read.');
  }
}

/**
 * Reads a request's JSON object body. Anything else (another content type, malformed JSON, a JSON value that is
 * not an object) is 400 `bad_request`, a body over the size cap 413 `content_too_large`, and nothing else has
 * happened yet.
 */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (mediaTypeOf(req.headers['content-type']) !== 'application/json') {
    throw apiError.badRequest('Send the body as JSON with Content-Type: application/json.');
  }
  const text = await readText(req);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw apiError.badRequest('The body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw apiError.badRequest('The body must be a JSON object (it may be empty: {}).');
  }
  return body as Record<string, unknown>;
}

/** A Content-Type's media type alone, lowercase: `application/json; charset=utf-8` is `application/json`. */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The body as UTF-8 text: 413 `content_too_large` past `limit` bytes, 400 `bad_request` when it is not valid UTF-8,
 * `ClientGone` when the client hangs up. It listens rather than iterating, because leaving an async iterator early
 * destroys the request, and a destroyed request has no socket left to answer on (that once ended the process).
 */
export function readText(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    discard(req);
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      discard(req);
      reject(tooLarge(limit));
    };
    const onEnd = () => {
      stop();
      try {
        resolve(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
      } catch {
        reject(apiError.badRequest('The body is not valid UTF-8.'));
      }
    };
    const onGone = () => {
      stop();
      reject(new ClientGone());
    };
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
  });
}

/**
 * Reads and drops the rest of a refused body, so the client, still sending, is not cut off before it reads the
 * answer; past a bound of bytes or time the connection is closed instead.
 */
function discard(req: IncomingMessage): void {
  let dropped = 0;
  const timer = setTimeout(() => req.destroy(), DRAIN_MS).unref();
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_BYTES) req.destroy();
  });
  req.on('error', () => {}); // a client that hangs up while its body is dropped has nobody to tell
  req.on('close', () => clearTimeout(timer));
  req.resume();
}

function tooLarge(limit: number) {
  const size = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : `${limit / 1024} KiB`;
  return apiError.contentTooLarge(`The body is larger than ${size}.`);
}
