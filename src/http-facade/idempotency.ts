import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { apiError } from '../errors.js';
import type { IdempotencyKey, Store } from '../store/ports.js';
import type { Caller } from '../shared/caller.js';
import { MAX_KEPT_ANSWER } from '../store/idempotency-claims.js';
import type { Once } from '../tools/define-tool.js';
import type { ClaimKeeper } from './claim-keeper.js';

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
 * `idempotency_key_in_use`. A call's write keeps its answer in its own transaction (`once`, see Once); an answer
 * of a call that wrote nothing is kept after it. A 429 or 5xx answer is not kept, so a retry after the wait can
 * succeed; nor is one larger than MAX_KEPT_ANSWER (such a call wrote nothing: a write's answer is refused 413).
 */
export async function runOnce(
  store: Store,
  claims: ClaimKeeper,
  key: IdempotencyKey,
  body: unknown,
  now: Date,
  call: (once: Once) => Promise<Answer>,
): Promise<Answer> {
  const started = await store.idempotency.begin(key, bodyHash(body), now);
  if (started.kind === 'replay') return { status: started.status, body: started.body, replayed: true };
  if (started.kind === 'in_use') throw apiError.idempotencyKeyInUse();
  if (started.kind === 'reused') throw apiError.idempotencyKeyReused(undefined, 'Idempotency-Key');
  const { claim } = started;
  // The answer the write kept, once it committed: what this call answers too, so a replay is the same text.
  let kept = null as Answer | null;
  const once: Once = {
    slot: (output) => ({
      key,
      claim,
      render: (result) => (kept = { status: 200, body: JSON.stringify(output(result)) }),
    }),
  };
  let answer: Answer;
  try {
    answer = await claims.while({ key, claim }, () => call(once));
  } catch (error) {
    await store.idempotency.release(key, claim);
    throw error;
  }
  if (kept !== null && answer.status === 200) return kept;
  if (answer.status === 429 || answer.status >= 500 || answer.body.length > MAX_KEPT_ANSWER) {
    await store.idempotency.release(key, claim);
  } else {
    await store.idempotency.finish(key, claim, answer.status, answer.body);
  }
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
