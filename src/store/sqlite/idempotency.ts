import type { IdempotencyBegin, IdempotencyKey, IdempotencyStore } from '../ports.js';
import { ANSWER_KEPT_MS, answerForStored, CLAIM_HELD_MS, purgeSchedule } from '../idempotency-claims.js';
import { idempotencySql } from '../sql/idempotency.js';
import { writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';

export function sqliteIdempotency(db: Db): IdempotencyStore {
  const s = prepareAll(db, idempotencySql);
  const claim = db.prepare(
    `INSERT INTO idempotency (person_id, operation, key, body_hash, created_at, held_until)
     VALUES (@personId, @operation, @key, @bodyHash, @now, @heldUntil)
     ON CONFLICT (person_id, operation, key) DO UPDATE SET
       body_hash = excluded.body_hash, status = NULL, response = NULL, created_at = excluded.created_at,
       held_until = excluded.held_until`,
  );
  const holdOne = db.prepare(
    `UPDATE idempotency SET held_until = @until
     WHERE person_id = @personId AND operation = @operation AND key = @key AND created_at = @claim AND status IS NULL`,
  );
  const purgeDue = purgeSchedule();

  const begin = writeTransaction(db, (key: IdempotencyKey, bodyHash: string, now: number): IdempotencyBegin => {
    if (purgeDue(now)) s.purge.run({ before: now - ANSWER_KEPT_MS });
    const answer = answerForStored(s.stored.get(key), bodyHash, now);
    if (answer) return answer;
    claim.run({ ...key, bodyHash, now, heldUntil: now + CLAIM_HELD_MS });
    return { kind: 'new', claim: now };
  });
  // One write transaction for them all: the statements run in this process, so one each costs no round trip.
  const hold = writeTransaction(db, (claims: Parameters<IdempotencyStore['hold']>[0], until: number) => {
    for (const held of claims) holdOne.run({ ...held.key, claim: held.claim, until });
  });

  return {
    begin: async (key, bodyHash, now) => begin(key, bodyHash, now.getTime()),
    hold: async (claims, until) => void (claims.length > 0 && hold(claims, until.getTime())),
    finish: async (key, claimed, status, response) => void s.finish.run({ ...key, claim: claimed, status, response }),
    release: async (key, claimed) => void s.release.run({ ...key, claim: claimed }),
  };
}
