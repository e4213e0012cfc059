import type { OneTimeLinkRow } from '../password-link-state.js';
import { sql } from './statement.js';

/** Sign-up links for an email, kept by the hash of their token. */
export const signupInvitationSql = {
  byHash: sql<{ tokenHash: Buffer }, OneTimeLinkRow & { email: string }>(
    'SELECT email, expires_at AS "expiresAt", used_at AS "usedAt" FROM signup_invitations WHERE token_hash = :tokenHash',
  ),
  /** An email has at most one link: a new one replaces the old, so a link handed out earlier stops working. */
  forget: sql<{ email: string }>('DELETE FROM signup_invitations WHERE email = :email'),
  insert: sql<{ tokenHash: Buffer; email: string; createdAt: string; expiresAt: string }>(
    `INSERT INTO signup_invitations (token_hash, email, created_at, expires_at, used_at)
     VALUES (:tokenHash, :email, :createdAt, :expiresAt, NULL)`,
  ),
  spend: sql<{ tokenHash: Buffer; at: string }>(
    'UPDATE signup_invitations SET used_at = :at WHERE token_hash = :tokenHash AND used_at IS NULL AND expires_at > :at',
  ),
};
