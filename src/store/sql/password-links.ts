import type { StoredPasswordLink } from '../password-link-state.js';
import { PERSON_COLUMNS, type PersonRead } from './people.js';
import { sql } from './statement.js';

type OfPerson = { personId: string };

/** The link of a token hash and its person, `lock` added on PostgreSQL. */
const link = (lock: string) =>
  sql<{ tokenHash: Buffer }, Omit<StoredPasswordLink, 'operator'> & PersonRead>(
    (d) => `SELECT ${PERSON_COLUMNS}, l.expires_at AS "expiresAt", l.used_at AS "usedAt"
     FROM password_links l JOIN people p ON p.id = l.person_id WHERE l.token_hash = :tokenHash${d.name === 'postgres' ? lock : ''}`,
  );

/** One-time links where a person sets their password, kept by the hash of their token. */
export const passwordLinkSql = {
  byHash: link(''),
  /** Locked on PostgreSQL: of two forms sent at once, the second waits and then finds the link used. */
  lockedByHash: link(' FOR UPDATE OF l'),
  /** A person has at most one link: a new one replaces the old, so a link handed out earlier stops working. */
  forget: sql<OfPerson>('DELETE FROM password_links WHERE person_id = :personId'),
  insert: sql<OfPerson & { tokenHash: Buffer; createdAt: string; expiresAt: string }>(
    `INSERT INTO password_links (token_hash, person_id, created_at, expires_at, used_at)
     VALUES (:tokenHash, :personId, :createdAt, :expiresAt, NULL)`,
  ),
  spend: sql<{ tokenHash: Buffer; at: string }>('UPDATE password_links SET used_at = :at WHERE token_hash = :tokenHash AND used_at IS NULL'),
  setPassword: sql<OfPerson & { passwordHash: string | null }>('UPDATE people SET password_hash = :passwordHash WHERE id = :personId'),
  /** Every session that was started with the old password (or by whoever knew it). */
  endSessions: sql<OfPerson>('DELETE FROM web_sessions WHERE person_id = :personId'),
};
