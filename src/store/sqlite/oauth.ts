import type { AuthorizationCodeRecord, OAuthClient, OAuthStore, OAuthTokenRecord } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { throttledGrantTouches } from '../grant-touches.js';
import { beyondApproval, clientFrom, grantFrom, scopesOf, USED_CODE_MEMORY_MS } from '../oauth-records.js';
import type { ClientRow, GrantRow } from '../oauth-records.js';
import { writeTransaction, type Db } from './database.js';

const CLIENT = `id, kind, secret_hash AS secretHash, name, redirect_uris AS redirectUris, metadata,
  created_at AS createdAt, fresh_until AS freshUntil`;

export function sqliteOAuth(db: Db, random: Random): OAuthStore {
  const insertClient = db.prepare(
    `INSERT INTO oauth_clients (id, kind, secret_hash, name, redirect_uris, metadata, created_at, fresh_until)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris,
       metadata = excluded.metadata, fresh_until = excluded.fresh_until
     RETURNING created_at AS createdAt`,
  );
  const clientById = db.prepare(`SELECT ${CLIENT} FROM oauth_clients WHERE id = ?`);
  const purgeClients = db.prepare(
    `DELETE FROM oauth_clients
     WHERE ((kind = 'registered' AND created_at < ?) OR (kind = 'metadata_document' AND fresh_until <= ?))
       AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_clients.id)`,
  );
  const upsertGrant = db.prepare(
    `INSERT INTO oauth_grants (id, person_id, client_id, scopes, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (person_id, client_id) DO UPDATE SET scopes = excluded.scopes, created_at = excluded.created_at
     RETURNING id`,
  );
  const familiesOfGrant = db.prepare('SELECT DISTINCT family, scopes FROM oauth_tokens WHERE grant_id = ?');
  const unusedCodesOfGrant = db.prepare('SELECT code_hash AS codeHash, scopes FROM oauth_codes WHERE grant_id = ? AND used_at IS NULL');
  const deleteCode = db.prepare('DELETE FROM oauth_codes WHERE code_hash = ?');
  const insertCode = db.prepare(
    `INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, scopes, resource, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const purgeCodes = db.prepare('DELETE FROM oauth_codes WHERE expires_at <= ?');
  const codeByHash = db.prepare(
    `SELECT c.code_hash AS codeHash, c.grant_id AS grantId, g.person_id AS personId, g.client_id AS clientId,
       c.scopes, c.redirect_uri AS redirectUri, c.code_challenge AS codeChallenge, c.resource,
       c.expires_at AS expiresAt, c.used_at AS usedAt
     FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id WHERE c.code_hash = ?`,
  );
  const useCode = db.prepare('UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL');
  const insertToken = db.prepare(
    `INSERT INTO oauth_tokens (token_hash, kind, grant_id, family, scopes, resource, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const purgeTokens = db.prepare('DELETE FROM oauth_tokens WHERE expires_at <= ?');
  const tokenByHash = db.prepare(
    `SELECT t.kind, t.grant_id AS grantId, t.family, g.person_id AS personId, g.client_id AS clientId, t.scopes,
       t.resource, t.expires_at AS expiresAt, t.used_at AS usedAt, p.agreed_terms_at IS NOT NULL AS personAgreedTerms
     FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN people p ON p.id = g.person_id
     WHERE t.token_hash = ?`,
  );
  const useRefresh = db.prepare(
    "UPDATE oauth_tokens SET used_at = ? WHERE token_hash = ? AND kind = 'refresh' AND used_at IS NULL",
  );
  const deleteFamily = db.prepare('DELETE FROM oauth_tokens WHERE family = ?');
  const grantsOf = db.prepare(
    `SELECT g.id, g.person_id AS personId, g.client_id AS clientId, c.name AS clientName,
       c.redirect_uris AS redirectUris, g.scopes, g.created_at AS createdAt, g.last_used_at AS lastUsedAt
     FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
     WHERE g.person_id = ? ORDER BY g.created_at DESC, g.id`,
  );
  const deleteGrant = db.prepare('DELETE FROM oauth_grants WHERE id = ? AND person_id = ?');
  const touch = db.prepare('UPDATE oauth_grants SET last_used_at = ? WHERE id = ?');
  const grantTouches = throttledGrantTouches((grantId, at) => touch.run(at.toISOString(), grantId));

  const saveClient = (client: OAuthClient) => {
    const { id, kind, secretHash, name, redirectUris, metadata, createdAt, freshUntil } = client;
    // A newer copy of a metadata document keeps the first copy's createdAt: answered as stored.
    const stored = insertClient.get(id, kind, secretHash, name, JSON.stringify(redirectUris), JSON.stringify(metadata), createdAt, freshUntil) as { createdAt: string };
    return { ...client, createdAt: stored.createdAt };
  };

  const saveCode = writeTransaction(db, (code: Parameters<OAuthStore['saveCode']>[0], now: Date): string => {
    const at = now.toISOString();
    purgeCodes.run(new Date(now.getTime() - USED_CODE_MEMORY_MS).toISOString());
    const fresh = newId('grant', random);
    const { id } = upsertGrant.get(fresh, code.personId, code.clientId, code.scopes.join(' '), at) as { id: string };
    if (id !== fresh) {
      // Approved again: the approval's scopes replace the old ones, so tokens and codes given before that hold a
      // scope the new approval does not name stop working now (rather than living on for up to 30 days).
      const beyond = beyondApproval(code.scopes);
      for (const row of familiesOfGrant.all(id) as Array<{ family: string; scopes: string }>) {
        if (beyond(row.scopes)) deleteFamily.run(row.family);
      }
      for (const row of unusedCodesOfGrant.all(id) as Array<{ codeHash: Buffer; scopes: string }>) {
        if (beyond(row.scopes)) deleteCode.run(row.codeHash);
      }
    }
    insertCode.run(code.codeHash, id, code.redirectUri, code.codeChallenge, code.scopes.join(' '), code.resource, code.expiresAt);
    return id;
  });

  const saveTokens = writeTransaction(db, (tokens: Parameters<OAuthStore['saveTokens']>[0], now: Date) => {
    const at = now.toISOString();
    purgeTokens.run(at);
    const scopes = tokens.scopes.join(' ');
    const row = (hash: Buffer, kind: string, expiresAt: string) =>
      insertToken.run(hash, kind, tokens.grantId, tokens.family, scopes, tokens.resource, at, expiresAt);
    row(tokens.accessHash, 'access', tokens.accessExpiresAt);
    if (tokens.refreshHash && tokens.refreshExpiresAt) row(tokens.refreshHash, 'refresh', tokens.refreshExpiresAt);
  });

  return {
    async addClient(client, now) {
      return saveClient({ ...client, kind: 'registered', createdAt: now.toISOString(), freshUntil: null });
    },
    async saveMetadataDocument(client, now) {
      return saveClient({ ...client, kind: 'metadata_document', secretHash: null, createdAt: now.toISOString() });
    },
    async client(id) {
      const row = clientById.get(id) as ClientRow | undefined;
      return row ? clientFrom(row) : null;
    },
    async purgeClients(registeredBefore, now) {
      return purgeClients.run(registeredBefore.toISOString(), now.toISOString()).changes;
    },
    async saveCode(code, now) {
      return saveCode(code, now);
    },
    async code(codeHash) {
      const row = codeByHash.get(codeHash) as (Omit<AuthorizationCodeRecord, 'scopes'> & { scopes: string }) | undefined;
      return row ? { ...row, scopes: scopesOf(row.scopes) } : null;
    },
    async useCode(codeHash, now) {
      return useCode.run(now.toISOString(), codeHash).changes > 0;
    },
    async saveTokens(tokens, now) {
      saveTokens(tokens, now);
    },
    async token(tokenHash) {
      const row = tokenByHash.get(tokenHash) as
        | (Omit<OAuthTokenRecord, 'scopes' | 'personAgreedTerms'> & { scopes: string; personAgreedTerms: number })
        | undefined;
      return row ? { ...row, scopes: scopesOf(row.scopes), personAgreedTerms: row.personAgreedTerms === 1 } : null;
    },
    async useRefreshToken(tokenHash, now) {
      return useRefresh.run(now.toISOString(), tokenHash).changes > 0;
    },
    async revokeFamily(family) {
      deleteFamily.run(family);
    },
    async grants(personId) {
      return (grantsOf.all(personId) as GrantRow[]).map(grantFrom);
    },
    async revokeGrant(personId, grantId) {
      grantTouches.forget(grantId);
      return deleteGrant.run(grantId, personId).changes > 0;
    },
    async touchGrant(grantId, now) {
      // Busy past the timeout (the operator CLI holds a long write): logged, and the next use records it.
      await grantTouches.touch(grantId, now);
    },
  };
}
