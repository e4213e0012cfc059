import type { TokenGrant, TokenRecord } from '../ports.js';
import { flag, sql } from './statement.js';

const TOKEN = `t.id, t.person_id AS "personId", t.team_id AS "teamId", t.label, t.scopes, t.limited, t.created_at AS "createdAt",
  t.last_used_at AS "lastUsedAt", t.expires_at AS "expiresAt", t.revoked_at AS "revokedAt"`;

/** A token as read: scopes as JSON text (null: every operation), flags 0/1 in SQLite. */
export type TokenRead = Omit<TokenRecord, 'scopes' | 'limited'> & { scopes: string | null; limited: number | boolean };

/** A grant as read: a token with its person's standing. */
export type GrantRead = TokenRead &
  Pick<TokenGrant, 'secretHash'> & { personAgreedTerms: number | boolean; personInTeam: number | boolean };

export function tokenOf(row: TokenRead): TokenRecord {
  return { ...row, scopes: row.scopes === null ? null : (JSON.parse(row.scopes) as string[]), limited: flag(row.limited) };
}

export function grantOf({ secretHash, personAgreedTerms, personInTeam, ...token }: GrantRead): TokenGrant {
  return { ...tokenOf(token), secretHash, personAgreedTerms: flag(personAgreedTerms), personInTeam: flag(personInTeam) };
}

/** Personal access tokens. `limited` is bound as 0 or 1 (see people.ts). */
export const tokenSql = {
  insert: sql<{ id: string; secretHash: Buffer; personId: string; teamId: string; label: string | null; scopes: string | null; limited: 0 | 1; createdAt: string }>(
    `INSERT INTO tokens (id, secret_hash, person_id, team_id, label, scopes, limited, created_at)
     VALUES (:id, :secretHash, :personId, :teamId, :label, :scopes, :limited, :createdAt)`,
  ),
  /** Every API call reads its token's grant. */
  grant: sql<{ id: string }, GrantRead>(
    `SELECT ${TOKEN}, t.secret_hash AS "secretHash", p.agreed_terms_at IS NOT NULL AS "personAgreedTerms",
       EXISTS (SELECT 1 FROM members m WHERE m.team_id = t.team_id AND m.person_id = t.person_id) AS "personInTeam"
     FROM tokens t JOIN people p ON p.id = t.person_id WHERE t.id = :id`,
  ),
  forPerson: sql<{ personId: string }, TokenRead>(
    (d) => `SELECT ${TOKEN} FROM tokens t WHERE t.person_id = :personId AND t.revoked_at IS NULL
     ORDER BY t.created_at${d.bytes} DESC, t.id${d.bytes}`,
  ),
  revoke: sql<{ id: string; at: string }>('UPDATE tokens SET revoked_at = :at WHERE id = :id AND revoked_at IS NULL'),
};
