import type { AuthorizationCodeRecord, NewOAuthTokens, OAuthTokenRecord } from '../ports.js';
import { scopesOf, type ClientRow, type GrantRow } from '../oauth-records.js';
import { flag, sql } from './statement.js';

const CLIENT = `id, kind, secret_hash AS "secretHash", name, redirect_uris AS "redirectUris", metadata,
  created_at AS "createdAt", fresh_until AS "freshUntil"`;

/** A code's or token's row with its scopes still text (oauth-records.ts). */
type Scoped<T> = Omit<T, 'scopes'> & { scopes: string };
type Expiring = { before: string };

/** A token as read: `personAgreedTerms` is 0/1 in SQLite. */
export type OAuthTokenRead = Omit<Scoped<OAuthTokenRecord>, 'personAgreedTerms'> & { personAgreedTerms: number | boolean };

export function oauthTokenOf(row: OAuthTokenRead): OAuthTokenRecord {
  return { ...row, scopes: scopesOf(row.scopes), personAgreedTerms: flag(row.personAgreedTerms) };
}

/** The rows of a new access token, and of its refresh token when there is one (oauthSql.insertToken). */
export function tokenRows(tokens: NewOAuthTokens, createdAt: string) {
  const { grantId, family, resource } = tokens;
  const row = (tokenHash: Buffer, kind: 'access' | 'refresh', expiresAt: string) =>
    ({ tokenHash, kind, grantId, family, scopes: tokens.scopes.join(' '), resource, createdAt, expiresAt });
  const rows = [row(tokens.accessHash, 'access', tokens.accessExpiresAt)];
  if (tokens.refreshHash && tokens.refreshExpiresAt) rows.push(row(tokens.refreshHash, 'refresh', tokens.refreshExpiresAt));
  return rows;
}

/**
 * OAuth for assistants (values stored as oauth-records.ts says). Spending a code or a refresh token is one
 * `UPDATE … WHERE used_at IS NULL`: of two processes spending one at once, exactly one is told it changed a row.
 */
export const oauthSql = {
  /** A newer copy of a metadata document keeps the first copy's createdAt, which it answers. */
  saveClient: sql<{ id: string; kind: string; secretHash: Buffer | null; name: string | null; redirectUris: string; metadata: string; createdAt: string; freshUntil: string | null }, { createdAt: string }>(
    `INSERT INTO oauth_clients (id, kind, secret_hash, name, redirect_uris, metadata, created_at, fresh_until)
     VALUES (:id, :kind, :secretHash, :name, :redirectUris, :metadata, :createdAt, :freshUntil)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris,
       metadata = excluded.metadata, fresh_until = excluded.fresh_until
     RETURNING created_at AS "createdAt"`,
  ),
  client: sql<{ id: string }, ClientRow>(`SELECT ${CLIENT} FROM oauth_clients WHERE id = :id`),
  purgeClients: sql<{ registeredBefore: string; now: string }>(
    `DELETE FROM oauth_clients
     WHERE ((kind = 'registered' AND created_at < :registeredBefore) OR (kind = 'metadata_document' AND fresh_until <= :now))
       AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_clients.id)`,
  ),
  /** The person's grant of the client, made or its scopes replaced; its id (not `id` when it stood already). */
  upsertGrant: sql<{ id: string; personId: string; clientId: string; scopes: string; at: string }, { id: string }>(
    `INSERT INTO oauth_grants (id, person_id, client_id, scopes, created_at) VALUES (:id, :personId, :clientId, :scopes, :at)
     ON CONFLICT (person_id, client_id) DO UPDATE SET scopes = excluded.scopes, created_at = excluded.created_at
     RETURNING id`,
  ),
  familiesOfGrant: sql<{ grantId: string }, { family: string; scopes: string }>(
    'SELECT DISTINCT family, scopes FROM oauth_tokens WHERE grant_id = :grantId',
  ),
  unusedCodesOfGrant: sql<{ grantId: string }, { codeHash: Buffer; scopes: string }>(
    'SELECT code_hash AS "codeHash", scopes FROM oauth_codes WHERE grant_id = :grantId AND used_at IS NULL',
  ),
  insertCode: sql<{ codeHash: Buffer; grantId: string; redirectUri: string; codeChallenge: string; scopes: string; resource: string | null; expiresAt: string }>(
    `INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, scopes, resource, expires_at)
     VALUES (:codeHash, :grantId, :redirectUri, :codeChallenge, :scopes, :resource, :expiresAt)`,
  ),
  purgeCodes: sql<Expiring>('DELETE FROM oauth_codes WHERE expires_at <= :before'),
  code: sql<{ codeHash: Buffer }, Scoped<AuthorizationCodeRecord>>(
    `SELECT c.code_hash AS "codeHash", c.grant_id AS "grantId", g.person_id AS "personId",
       g.client_id AS "clientId", c.scopes, c.redirect_uri AS "redirectUri", c.code_challenge AS "codeChallenge",
       c.resource, c.expires_at AS "expiresAt", c.used_at AS "usedAt"
     FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id WHERE c.code_hash = :codeHash`,
  ),
  useCode: sql<{ codeHash: Buffer; at: string }>('UPDATE oauth_codes SET used_at = :at WHERE code_hash = :codeHash AND used_at IS NULL'),
  insertToken: sql<{ tokenHash: Buffer; kind: 'access' | 'refresh'; grantId: string; family: string; scopes: string; resource: string | null; createdAt: string; expiresAt: string }>(
    `INSERT INTO oauth_tokens (token_hash, kind, grant_id, family, scopes, resource, created_at, expires_at)
     VALUES (:tokenHash, :kind, :grantId, :family, :scopes, :resource, :createdAt, :expiresAt)`,
  ),
  purgeTokens: sql<Expiring>('DELETE FROM oauth_tokens WHERE expires_at <= :before'),
  token: sql<{ tokenHash: Buffer }, OAuthTokenRead>(
    `SELECT t.kind, t.grant_id AS "grantId", t.family, g.person_id AS "personId", g.client_id AS "clientId",
       t.scopes, t.resource, t.expires_at AS "expiresAt", t.used_at AS "usedAt",
       p.agreed_terms_at IS NOT NULL AS "personAgreedTerms"
     FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN people p ON p.id = g.person_id
     WHERE t.token_hash = :tokenHash`,
  ),
  useRefresh: sql<{ tokenHash: Buffer; at: string }>(
    "UPDATE oauth_tokens SET used_at = :at WHERE token_hash = :tokenHash AND kind = 'refresh' AND used_at IS NULL",
  ),
  deleteFamily: sql<{ family: string }>('DELETE FROM oauth_tokens WHERE family = :family'),
  grants: sql<{ personId: string }, GrantRow>(
    (d) => `SELECT g.id, g.person_id AS "personId", g.client_id AS "clientId", c.name AS "clientName",
       c.redirect_uris AS "redirectUris", g.scopes, g.created_at AS "createdAt", g.last_used_at AS "lastUsedAt"
     FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
     WHERE g.person_id = :personId ORDER BY g.created_at${d.bytes} DESC, g.id${d.bytes}`,
  ),
  deleteGrant: sql<{ grantId: string; personId: string }>('DELETE FROM oauth_grants WHERE id = :grantId AND person_id = :personId'),
  touchGrant: sql<{ grantId: string; at: string }>('UPDATE oauth_grants SET last_used_at = :at WHERE id = :grantId'),
};
