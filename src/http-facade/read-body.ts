import type { IncomingMessage } from 'node:http';
import { fail } from '../errors.js';

/** The largest body taken: 50 createLinks items of 2,048-character destinations fit several times over. */
export const MAX_BODY_BYTES = 512 * 1024;

/**
 * Reads a request's JSON object body. Anything else (another content type, malformed JSON, a JSON value that is
 * not an object, a body over the size cap) is 400 `bad_request`, and nothing else has happened yet.
 */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw fail('bad_request', 'Send the body as JSON with Content-Type: application/json.');
  }
  const text = await readText(req);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw fail('bad_request', 'The body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw fail('bad_request', 'The body must be a JSON object (it may be empty: {}).');
  }
  return body as Record<string, unknown>;
}

/** The body as UTF-8 text, refused (400 `bad_request`) past `limit` bytes or when it is not valid UTF-8. */
export async function readText(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fail('bad_request', 'The body is not valid UTF-8.');
  }
}

function tooLarge(limit: number) {
  return fail('bad_request', `The body is larger than ${limit / 1024} KiB.`);
}
