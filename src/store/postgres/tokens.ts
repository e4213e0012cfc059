import type { TokenGrant, TokenRecord, TokenStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { batchedTouches } from '../token-touches.js';
import type { PgPool } from './database.js';
import { silentAccessWrite, type AccessWrite } from './access-writes.js';
import { changed, row, rows, type Queryable } from './query.js';
import { BYTES } from './rows.js';

const TOKEN = `t.id, t.person_id AS "personId", t.team_id AS "teamId", t.label, t.scopes, t.limited, t.created_at AS "createdAt",
  t.last_used_at AS "lastUsedAt", t.expires_at AS "expiresAt", t.revoked_at AS "revokedAt"`;

/** Scopes are stored as JSON text (null: every operation). */
type TokenRow<T extends TokenRecord> = Omit<T, 'scopes'> & { scopes: string | null };

function fromRow<T extends TokenRecord>(found: TokenRow<T>): T {
  return { ...found, scopes: found.scopes === null ? null : (JSON.parse(found.scopes) as string[]) } as T;
}

/** How often last-used times are written: every call would turn each read into a write. */
const TOUCH_FLUSH_MS = 5_000;

/**
 * Personal access tokens. Making and revoking one change access: they run as `accessWrite`, which tells every
 * process (grants are kept in memory in front of this store, index.ts), so a revoked token is refused on its very
 * next call wherever it lands.
 */
export function pgTokens(pool: PgPool, random: Random, accessWrite: AccessWrite = silentAccessWrite(pool)): TokenStore & { close(): Promise<void> } {
  // One statement per batch. A time only moves forward: other processes write their own batches, maybe later.
  const touches = batchedTouches(async (batch) => {
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
        client.query(
          `INSERT INTO tokens (id, secret_hash, person_id, team_id, label, scopes, limited, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [id, secretHash, personId, teamId, label, scopes && JSON.stringify(scopes), limited, at],
        ),
      );
      return { id, personId, teamId, label, scopes, limited, createdAt: at, lastUsedAt: null, expiresAt: null, revokedAt: null };
    },
    async grant(id) {
      const found = await row<TokenRow<TokenGrant>>(
        pool,
        `SELECT ${TOKEN}, t.secret_hash AS "secretHash", p.agreed_terms_at IS NOT NULL AS "personAgreedTerms",
           EXISTS (SELECT 1 FROM members m WHERE m.team_id = t.team_id AND m.person_id = t.person_id) AS "personInTeam"
         FROM tokens t JOIN people p ON p.id = t.person_id WHERE t.id = $1`,
        [id],
      );
      return found && fromRow(found);
    },
    async listForPerson(personId) {
      const found = await rows<TokenRow<TokenRecord>>(
        pool,
        `SELECT ${TOKEN} FROM tokens t WHERE t.person_id = $1 AND t.revoked_at IS NULL
         ORDER BY t.created_at ${BYTES} DESC, t.id ${BYTES}`,
        [personId],
      );
      return found.map(fromRow);
    },
    async revoke(id, now) {
      const revoking = (client: Queryable) =>
        changed(client, 'UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now.toISOString(), id]);
      return (await accessWrite(revoking)) > 0;
    },
    async touch(id, now) {
      touches.record(id, now);
    },
    close: () => touches.close(),
  };
}
