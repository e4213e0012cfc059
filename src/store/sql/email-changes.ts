import type { OneTimeLinkRow } from '../password-link-state.js';
import { byEmail } from './people.js';
import { sql } from './statement.js';

/** Email-change links, kept by the hash of their token. */
export const emailChangeSql = {
  byHash: sql<{ tokenHash: Buffer }, OneTimeLinkRow & { personId: string; email: string }>(
    (d) => `SELECT person_id AS "personId", email, expires_at AS "expiresAt", used_at AS "usedAt" FROM email_changes
     WHERE token_hash = :tokenHash${d.forUpdate}`,
  ),
  /** A person has at most one change waiting: a new one replaces the old. */
  forget: sql<{ personId: string }>('DELETE FROM email_changes WHERE person_id = :personId'),
  insert: sql<{ tokenHash: Buffer; personId: string; email: string; createdAt: string; expiresAt: string }>(
    `INSERT INTO email_changes (token_hash, person_id, email, created_at, expires_at, used_at)
     VALUES (:tokenHash, :personId, :email, :createdAt, :expiresAt, NULL)`,
  ),
  /** Whether someone other than the person has the address, whatever its case. */
  takenBy: sql<{ email: string; personId: string }, { id: string }>(
    (d) => `SELECT p.id FROM people p WHERE ${byEmail(d)} AND p.id <> :personId`,
  ),
  setEmail: sql<{ personId: string; email: string }>('UPDATE people SET email = :email WHERE id = :personId'),
  spend: sql<{ tokenHash: Buffer; at: string }>('UPDATE email_changes SET used_at = :at WHERE token_hash = :tokenHash'),
};
