import type { IdempotencyBegin } from './ports.js';
import { DAY_MS } from '../domain/limits.js';

/** How long a finished call's answer is kept (and a key stays bound to its body). */
export const ANSWER_KEPT_MS = DAY_MS;

/**
 * A claim is held this long past its last hold (IdempotencyStore.hold, every HOLD_EVERY_MS while its call runs).
 * One not held any longer belongs to a process that died mid-call (or stalled for seconds), and the next call with
 * the key takes it over: a retry after a crash is answered within seconds. That never makes a write twice, as a
 * write keeps its answer in its own transaction (AnswerSlot) and the stalled holder's write then rolls back.
 */
export const CLAIM_HELD_MS = 5_000;

/** How often a process holds its running calls' claims again: often enough that a late hold or two is no loss. */
export const HOLD_EVERY_MS = 1_000;

/**
 * The largest answer kept for a retry, in UTF-16 units of its JSON text (its bytes in the database for ASCII): well
 * above the largest legitimate answer, a createLinks of 50 links with 2,048-character destinations and 100-character
 * notes (about 130,000). Kept answers are held for a day, so what a caller sends must not make them larger.
 */
export const MAX_KEPT_ANSWER = 256 * 1024;

/** Expired rows are deleted by a begin at most this often per process: it is housekeeping, not correctness. */
const PURGE_EVERY_MS = 60_000;

/** A key's row as both adapters read it; createdAt (epoch ms) is the claim's number, heldUntil when it lapses. */
export interface StoredClaim {
  bodyHash: string;
  status: number | null;
  response: string | null;
  createdAt: number;
  heldUntil: number;
}

/**
 * What `begin` answers when the key already has a row, or null when the key is free to claim: no row, an answer
 * older than a day, or a claim no longer held.
 */
export function answerForStored(row: StoredClaim | null | undefined, bodyHash: string, now: number): IdempotencyBegin | null {
  if (!row) return null;
  const live = row.createdAt > now - ANSWER_KEPT_MS && (row.status !== null || row.heldUntil > now);
  if (!live) return null;
  if (row.bodyHash !== bodyHash) return { kind: 'reused' };
  if (row.status === null) return { kind: 'in_use' };
  return { kind: 'replay', status: row.status, body: row.response ?? 'null' };
}

/** Tells each begin whether it is time to delete expired rows (the first time, then once a minute). */
export function purgeSchedule(): (now: number) => boolean {
  let purgedAt = 0;
  return (now) => {
    if (now - purgedAt <= PURGE_EVERY_MS) return false;
    purgedAt = now;
    return true;
  };
}
