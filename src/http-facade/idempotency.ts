import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { apiError } from '../errors.js';
import type { IdempotencyKey, Store } from '../store/ports.js';
import type { Caller } from '../shared/caller.js';

/** What one call answered: the status and the JSON text of the body. */
export interface Answer {
  status: number;
  body: string;
  replayed?: boolean;
}

/** The Idempotency-Key header, checked (1 to 255 characters), or null when absent. */
export function idempotencyKeyOf(req: IncomingMessage): string | null {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (value.length < 1 || value.length > 255) {
    throw apiError.badRequest('Idempotency-Key is 1 to 255 characters.', 'Idempotency-Key');
  }
  return value;
}

/**
 * The scope of a key: the person and the operation, and for a token limited to a team's record that record too, so
 * a limited token can never replay what the person's other tokens were answered elsewhere.
 */
export function idempotencyScope(caller: Caller, operation: string, key: string): IdempotencyKey {
  const personId = caller.recordTeamId === null ? caller.personId : `${caller.personId}@${caller.recordTeamId}`;
  return { personId, operation, key };
}

/**
 * Runs `call` at most once per (person, operation, key) and body for 24 hours. A retry gets the first answer
 * again; a retry with another body 422 `idempotency_key_reused`; one while the first still runs 409
 * `idempotency_key_in_use`. A 429 or 5xx answer is not kept, so a retry after the wait can succeed.
 */
export async function runOnce(
  store: Store,
  key: IdempotencyKey,
  body: unknown,
  now: Date,
  call: () => Promise<Answer>,
): Promise<Answer> {
  const started = await store.idempotency.begin(key, bodyHash(body), now);
  if (started.kind === 'replay') return { status: started.status, body: started.body, replayed: true };
  if (started.kind === 'in_use') throw apiError.idempotencyKeyInUse();
  if (started.kind === 'reused') throw apiError.idempotencyKeyReused(undefined, 'Idempotency-Key');
  let answer: Answer;
  try {
    answer = await call();
  } catch (error) {
    await store.idempotency.release(key, started.claim);
    throw error;
  }
  if (answer.status === 429 || answer.status >= 500) await store.idempotency.release(key, started.claim);
  else await store.idempotency.finish(key, started.claim, answer.status, answer.body);
  return answer;
}

/** A digest of the body that ignores key order and white space. */
function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
