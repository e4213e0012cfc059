import type { IdempotencyBegin, IdempotencyKey, IdempotencyStore } from '../ports.js';
import { ANSWER_KEPT_MS, answerForStored, CLAIM_HELD_MS, purgeSchedule } from '../idempotency-claims.js';
import { idempotencySql } from '../sql/idempotency.js';
import type { PgPool } from './database.js';
import { row, run, transaction } from './query.js';

const KEY = 'person_id = $1 AND operation = $2 AND key = $3';

const keyValues = ({ personId, operation, key }: IdempotencyKey) => [personId, operation, key];

/**
 * Idempotency keys. A claim is taken by inserting the key's row: when two processes begin with one key at once,
 * the unique key makes the second wait for the first to commit and then find its row, so exactly one of them is
 * told 'new'. A row already there is read locked (FOR UPDATE), so taking over an expired or stale one is decided
 * by one process at a time too. A write keeping its answer (keepAnswer in link-queries.ts) locks the row as well,
 * so a takeover and the write's answer are decided one after the other: the write finds its claim gone and rolls
 * back, or the takeover finds the answer and replays it.
 */
export function pgIdempotency(pool: PgPool): IdempotencyStore {
  const purgeDue = purgeSchedule();

  const begin = (key: IdempotencyKey, bodyHash: string, now: number) =>
    transaction(pool, async (client): Promise<IdempotencyBegin> => {
      const values = [...keyValues(key), bodyHash, now, now + CLAIM_HELD_MS];
      for (;;) {
        const claimed = await row(
          client,
          `INSERT INTO idempotency (person_id, operation, key, body_hash, created_at, held_until)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (person_id, operation, key) DO NOTHING RETURNING 1`,
          values,
        );
        if (claimed) return { kind: 'new', claim: now };
        const stored = await row(client, idempotencySql.stored, key);
        // Released or purged between the two statements: try to insert again.
        if (!stored) continue;
        const answer = answerForStored(stored, bodyHash, now);
        if (answer) return answer;
        await client.query(
          `UPDATE idempotency SET body_hash = $4, status = NULL, response = NULL, created_at = $5, held_until = $6
           WHERE ${KEY}`,
          values,
        );
        return { kind: 'new', claim: now };
      }
    });

  return {
    async begin(key, bodyHash, now) {
      const at = now.getTime();
      // Housekeeping in its own statement: expired rows answer nothing anyway (answerForStored).
      if (purgeDue(at)) await run(pool, idempotencySql.purge, { before: at - ANSWER_KEPT_MS });
      return begin(key, bodyHash, at);
    },
    async hold(claims, until) {
      if (claims.length === 0) return;
      const column = (pick: (held: (typeof claims)[number]) => unknown) => claims.map(pick);
      await pool.query(
        `UPDATE idempotency i SET held_until = $1
         FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[]) AS c(person_id, operation, key, claim)
         WHERE i.person_id = c.person_id AND i.operation = c.operation AND i.key = c.key AND i.created_at = c.claim
         AND i.status IS NULL`,
        [
          until.getTime(),
          column((held) => held.key.personId),
          column((held) => held.key.operation),
          column((held) => held.key.key),
          column((held) => held.claim),
        ],
      );
    },
    async finish(key, claim, status, response) {
      await run(pool, idempotencySql.finish, { ...key, claim, status, response });
    },
    async release(key, claim) {
      await run(pool, idempotencySql.release, { ...key, claim });
    },
  };
}
