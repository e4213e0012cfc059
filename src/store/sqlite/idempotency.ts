import type { IdempotencyBegin, IdempotencyKey, IdempotencyStore } from '../ports.js';
import { DAY_MS } from '../../domain/limits.js';
import { writeTransaction, type Db } from './database.js';

/**
 * A claim whose call never finished (the process died mid-call) stops blocking the key after this long: well past
 * the longest call (50 createLinks items, each waiting on its destination checks).
 */
const STALE_CLAIM_MS = 5 * 60_000;

interface Row {
  bodyHash: string;
  status: number | null;
  response: string | null;
  createdAt: number;
}

export function sqliteIdempotency(db: Db): IdempotencyStore {
  const find = db.prepare(
    `SELECT body_hash AS bodyHash, status, response, created_at AS createdAt FROM idempotency
     WHERE person_id = @personId AND operation = @operation AND key = @key`,
  );
  const claim = db.prepare(
    `INSERT INTO idempotency (person_id, operation, key, body_hash, created_at)
     VALUES (@personId, @operation, @key, @bodyHash, @now)
     ON CONFLICT (person_id, operation, key) DO UPDATE SET
       body_hash = excluded.body_hash, status = NULL, response = NULL, created_at = excluded.created_at`,
  );
  const finish = db.prepare(
    `UPDATE idempotency SET status = @status, response = @response
     WHERE person_id = @personId AND operation = @operation AND key = @key AND created_at = @claim
     AND status IS NULL`,
  );
  const release = db.prepare(
    `DELETE FROM idempotency WHERE person_id = @personId AND operation = @operation AND key = @key
     AND created_at = @claim AND status IS NULL`,
  );
  const purge = db.prepare('DELETE FROM idempotency WHERE created_at < ?');
  let purgedAt = 0;

  const begin = writeTransaction(db, (key: IdempotencyKey, bodyHash: string, now: number): IdempotencyBegin => {
    if (now - purgedAt > 60_000) {
      purge.run(now - DAY_MS);
      purgedAt = now;
    }
    const row = find.get(key) as Row | undefined;
    const live = row && row.createdAt > now - DAY_MS && (row.status !== null || row.createdAt > now - STALE_CLAIM_MS);
    if (row && live) {
      if (row.bodyHash !== bodyHash) return { kind: 'reused' };
      if (row.status === null) return { kind: 'in_use' };
      return { kind: 'replay', status: row.status, body: row.response ?? 'null' };
    }
    claim.run({ ...key, bodyHash, now });
    return { kind: 'new', claim: now };
  });

  return {
    begin: async (key, bodyHash, now) => begin(key, bodyHash, now.getTime()),
    finish: async (key, claimed, status, response) => void finish.run({ ...key, claim: claimed, status, response }),
    release: async (key, claimed) => void release.run({ ...key, claim: claimed }),
  };
}
