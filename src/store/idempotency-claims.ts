import type { IdempotencyBegin } from './ports.js';
import { DAY_MS } from '../domain/limits.js';

/** How long a finished call's answer is kept (and a key stays bound to its body). */
export const ANSWER_KEPT_MS = DAY_MS;

/**
 * A claim whose call never finished (the process died mid-call) stops blocking the key after this long: well past
 * the longest call (50 createLinks items, each waiting on its destination checks).
 */
const STALE_CLAIM_MS = 5 * 60_000;

/** Expired rows are deleted by a begin at most this often per process: it is housekeeping, not correctness. */
const PURGE_EVERY_MS = 60_000;

/** A key's row as both adapters read it; createdAt (epoch ms) is the claim's number. */
export interface StoredClaim {
  bodyHash: string;
  status: number | null;
  response: string | null;
  createdAt: number;
}

/**
 * What `begin` answers when the key already has a row, or null when the key is free to claim: no row, an answer
 * older than a day, or a claim gone stale.
 */
export function answerForStored(row: StoredClaim | null | undefined, bodyHash: string, now: number): IdempotencyBegin | null {
  if (!row) return null;
  const live = row.createdAt > now - ANSWER_KEPT_MS && (row.status !== null || row.createdAt > now - STALE_CLAIM_MS);
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
