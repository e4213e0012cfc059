import type { TokenGrant, TokenRecord, TokenStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { batchedTouches } from '../token-touches.js';
import type { Db } from './database.js';
import { cachedRead } from './read-cache.js';

const TOKEN = `t.id, t.person_id AS personId, t.team_id AS teamId, t.label, t.scopes, t.limited, t.created_at AS createdAt,
  t.last_used_at AS lastUsedAt, t.expires_at AS expiresAt, t.revoked_at AS revokedAt`;

type TokenRow = Omit<TokenRecord, 'scopes' | 'limited'> & { scopes: string | null; limited: number };

function toRecord(row: TokenRow): TokenRecord {
  return { ...row, scopes: row.scopes === null ? null : (JSON.parse(row.scopes) as string[]), limited: row.limited === 1 };
}

/** How often last-used times are written: every call would turn each read into a write. */
const TOUCH_FLUSH_MS = 5_000;

export function sqliteTokens(db: Db, random: Random): TokenStore {
  const insert = db.prepare(
    `INSERT INTO tokens (id, secret_hash, person_id, team_id, label, scopes, limited, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const grantRow = db.prepare(
    `SELECT ${TOKEN}, t.secret_hash AS secretHash, p.agreed_terms_at IS NOT NULL AS personAgreedTerms,
       EXISTS (SELECT 1 FROM members m WHERE m.team_id = t.team_id AND m.person_id = t.person_id) AS personInTeam
     FROM tokens t JOIN people p ON p.id = t.person_id WHERE t.id = ?`,
  );
  const byPerson = db.prepare(
    `SELECT ${TOKEN} FROM tokens t WHERE t.person_id = ? AND t.revoked_at IS NULL ORDER BY t.created_at DESC, t.id`,
  );
  const revoke = db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const touch = db.prepare('UPDATE tokens SET last_used_at = ? WHERE id = ?');
  const readGrant = (id: string): TokenGrant | null => {
    const row = grantRow.get(id) as (TokenRow & { secretHash: Buffer; personAgreedTerms: number; personInTeam: number }) | undefined;
    if (!row) return null;
    const { secretHash, personAgreedTerms, personInTeam, ...rest } = row;
    return { ...toRecord(rest), secretHash, personAgreedTerms: personAgreedTerms === 1, personInTeam: personInTeam === 1 };
  };
  // Every API call reads its token's grant.
  const grant = cachedRead(db, 10_000, (id: string) => id, readGrant);
  // Times are written as text when flushed, not on every call. Busy past the timeout (the CLI holds a long
  // write): the batch waits for the next round.
  const touches = batchedTouches(
    db.transaction((batch: ReadonlyMap<string, Date>) => {
      for (const [id, at] of batch) touch.run(at.toISOString(), id);
    }),
    TOUCH_FLUSH_MS,
  );

  return {
    async add({ personId, teamId, label = null, scopes, limited, secretHash }, now) {
      const id = newId('tok', random);
      const at = now.toISOString();
      insert.run(id, secretHash, personId, teamId, label, scopes && JSON.stringify(scopes), limited ? 1 : 0, at);
      return { id, personId, teamId, label, scopes, limited, createdAt: at, lastUsedAt: null, expiresAt: null, revokedAt: null };
    },
    async grant(id) {
      return grant(id);
    },
    async listForPerson(personId) {
      return (byPerson.all(personId) as TokenRow[]).map(toRecord);
    },
    async revoke(id, now) {
      return revoke.run(now.toISOString(), id).changes > 0;
    },
    async touch(id, now) {
      touches.record(id, now);
    },
    close: () => touches.close(),
  } as TokenStore & { close(): Promise<void> };
}
