import type { TokenStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { grantOf, tokenOf, tokenSql } from '../sql/tokens.js';
import { batchedTouches } from '../token-touches.js';
import type { PgPool } from './database.js';
import { silentAccessWrite, type AccessWrite } from './access-writes.js';
import { changed, row, rows, run, type Queryable } from './query.js';

/** How often last-used times are written: every call would turn each read into a write. */
const TOUCH_FLUSH_MS = 5_000;

/**
 * Personal access tokens. Making and revoking one change access: they run as `accessWrite`, which tells every
 * process (grants are kept in memory in front of this store, index.ts), so a revoked token is refused on its very
 * next call wherever it lands.
 */
export function pgTokens(pool: PgPool, random: Random, accessWrite: AccessWrite = silentAccessWrite(pool)): TokenStore & { close(): Promise<void> } {
  // One statement per batch. A time only moves forward: other processes write their own batches, maybe later.
  const touches = batchedTouches(async (batch: ReadonlyMap<string, Date>) => {
    await pool.query(
      `UPDATE tokens t SET last_used_at = v.at FROM unnest($1::text[], $2::text[]) AS v(id, at)
       WHERE t.id = v.id AND (t.last_used_at IS NULL OR t.last_used_at < v.at)`,
      [[...batch.keys()], [...batch.values()].map((at) => at.toISOString())],
    );
  }, TOUCH_FLUSH_MS);

  return {
    async add({ personId, teamId, label = null, scopes, limited, secretHash }, now) {
      const id = newId('tok', random);
      const at = now.toISOString();
      await accessWrite((client) =>
        run(client, tokenSql.insert, { id, secretHash, personId, teamId, label, scopes: scopes && JSON.stringify(scopes), limited: limited ? 1 : 0, createdAt: at }),
      );
      return { id, personId, teamId, label, scopes, limited, createdAt: at, lastUsedAt: null, expiresAt: null, revokedAt: null };
    },
    async grant(id) {
      const found = await row(pool, tokenSql.grant, { id });
      return found && grantOf(found);
    },
    async listForPerson(personId) {
      return (await rows(pool, tokenSql.forPerson, { personId })).map(tokenOf);
    },
    async revoke(id, now) {
      const revoking = (client: Queryable) => changed(client, tokenSql.revoke, { id, at: now.toISOString() });
      return (await accessWrite(revoking)) > 0;
    },
    async touch(id, now) {
      touches.record(id, now);
    },
    close: () => touches.close(),
  };
}
