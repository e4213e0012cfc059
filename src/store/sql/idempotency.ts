import type { StoredClaim } from '../idempotency-claims.js';
import type { IdempotencyKey } from '../ports.js';
import { sql } from './statement.js';

const KEY = 'person_id = :personId AND operation = :operation AND key = :key';

type Claimed = IdempotencyKey & { claim: number };

/**
 * Idempotency keys (store/idempotency-claims.ts). Taking a claim differs: SQLite's write transaction holds the
 * file, so one upsert takes a key or takes it over; PostgreSQL inserts, and takes over a row it read locked.
 */
export const idempotencySql = {
  /** The key's row, locked on PostgreSQL, so taking it over is decided by one process at a time. */
  stored: sql<IdempotencyKey, StoredClaim>(
    (d) => `SELECT body_hash AS "bodyHash", status, response, created_at AS "createdAt", held_until AS "heldUntil"
     FROM idempotency WHERE ${KEY}${d.forUpdate}`,
  ),
  /**
   * Keeps a call's answer while the claim is still the call's: at the end of the call, or with the change it made
   * (keepAnswer, operations/links.ts).
   */
  finish: sql<Claimed & { status: number; response: string }>(
    `UPDATE idempotency SET status = :status, response = :response WHERE ${KEY} AND created_at = :claim AND status IS NULL`,
  ),
  release: sql<Claimed>(`DELETE FROM idempotency WHERE ${KEY} AND created_at = :claim AND status IS NULL`),
  /** Housekeeping: rows past keeping answer nothing anyway (answerForStored). */
  purge: sql<{ before: number }>('DELETE FROM idempotency WHERE created_at < :before'),
};
