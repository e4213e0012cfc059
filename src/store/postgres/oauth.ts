import type { AuthorizationCodeRecord, NewOAuthTokens, OAuthClient, OAuthStore, OAuthTokenRecord } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { throttledGrantTouches } from '../grant-touches.js';
import { beyondApproval, clientFrom, grantFrom, scopesOf, USED_CODE_MEMORY_MS } from '../oauth-records.js';
import type { ClientRow, GrantRow } from '../oauth-records.js';
import type { PgPool } from './database.js';
import { changed, row, rows, transaction } from './query.js';
import { BYTES } from './rows.js';

const CLIENT = `id, kind, secret_hash AS "secretHash", name, redirect_uris AS "redirectUris", metadata,
  created_at AS "createdAt", fresh_until AS "freshUntil"`;

/**
 * OAuth for assistants. Spending a code or a refresh token is one `UPDATE … WHERE used_at IS NULL`: of two
 * processes spending one at once, the second waits on the row, sees it used and changes nothing, so exactly one is
 * told true.
 */
export function pgOAuth(pool: PgPool, random: Random): OAuthStore {
  const grantTouches = throttledGrantTouches((grantId, at) =>
    pool.query('UPDATE oauth_grants SET last_used_at = $1 WHERE id = $2', [at.toISOString(), grantId]),
  );

  const saveClient = async (client: OAuthClient) => {
    const { id, kind, secretHash, name, redirectUris, metadata, createdAt, freshUntil } = client;
    // A newer copy of a metadata document keeps the first copy's createdAt: answered as stored.
    const stored = await row<{ createdAt: string }>(
      pool,
      `INSERT INTO oauth_clients (id, kind, secret_hash, name, redirect_uris, metadata, created_at, fresh_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris,
         metadata = excluded.metadata, fresh_until = excluded.fresh_until
       RETURNING created_at AS "createdAt"`,
      [id, kind, secretHash, name, JSON.stringify(redirectUris), JSON.stringify(metadata), createdAt, freshUntil],
    );
    return { ...client, createdAt: stored!.createdAt };
  };

  return {
    addClient(client, now) {
      return saveClient({ ...client, kind: 'registered', createdAt: now.toISOString(), freshUntil: null });
    },
    saveMetadataDocument(client, now) {
      return saveClient({ ...client, kind: 'metadata_document', secretHash: null, createdAt: now.toISOString() });
    },
    async client(id) {
      const found = await row<ClientRow>(pool, `SELECT ${CLIENT} FROM oauth_clients WHERE id = $1`, [id]);
      return found && clientFrom(found);
    },
    purgeClients(registeredBefore, now) {
      return changed(
        pool,
        `DELETE FROM oauth_clients
         WHERE ((kind = 'registered' AND created_at < $1) OR (kind = 'metadata_document' AND fresh_until <= $2))
           AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_clients.id)`,
        [registeredBefore.toISOString(), now.toISOString()],
      );
    },
    saveCode(code, now) {
      const at = now.toISOString();
      const scopes = code.scopes.join(' ');
      const fresh = newId('grant', random);
      return transaction(pool, async (client) => {
        await client.query('DELETE FROM oauth_codes WHERE expires_at <= $1', [
          new Date(now.getTime() - USED_CODE_MEMORY_MS).toISOString(),
        ]);
        // The grant's row stays locked to the end, so two approvals of one client at once apply one after the other.
        const { id } = (await row<{ id: string }>(
          client,
          `INSERT INTO oauth_grants (id, person_id, client_id, scopes, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (person_id, client_id) DO UPDATE SET scopes = excluded.scopes, created_at = excluded.created_at
           RETURNING id`,
          [fresh, code.personId, code.clientId, scopes, at],
        ))!;
        if (id !== fresh) {
          // Approved again: tokens and codes given before that hold a scope the new approval does not name stop
          // working now (rather than living on for up to 30 days).
          const beyond = beyondApproval(code.scopes);
          const families = await rows<{ family: string; scopes: string }>(
            client,
            'SELECT DISTINCT family, scopes FROM oauth_tokens WHERE grant_id = $1',
            [id],
          );
          const codes = await rows<{ codeHash: Buffer; scopes: string }>(
            client,
            'SELECT code_hash AS "codeHash", scopes FROM oauth_codes WHERE grant_id = $1 AND used_at IS NULL',
            [id],
          );
          const goneFamilies = families.filter((family) => beyond(family.scopes)).map(({ family }) => family);
          const goneCodes = codes.filter((stored) => beyond(stored.scopes)).map(({ codeHash }) => codeHash);
          await client.query('DELETE FROM oauth_tokens WHERE family = ANY($1::text[])', [goneFamilies]);
          await client.query('DELETE FROM oauth_codes WHERE code_hash = ANY($1::bytea[])', [goneCodes]);
        }
        await client.query(
          `INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, scopes, resource, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [code.codeHash, id, code.redirectUri, code.codeChallenge, scopes, code.resource, code.expiresAt],
        );
        return id;
      });
    },
    async code(codeHash) {
      const found = await row<Omit<AuthorizationCodeRecord, 'scopes'> & { scopes: string }>(
        pool,
        `SELECT c.code_hash AS "codeHash", c.grant_id AS "grantId", g.person_id AS "personId",
           g.client_id AS "clientId", c.scopes, c.redirect_uri AS "redirectUri", c.code_challenge AS "codeChallenge",
           c.resource, c.expires_at AS "expiresAt", c.used_at AS "usedAt"
         FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id WHERE c.code_hash = $1`,
        [codeHash],
      );
      return found && { ...found, scopes: scopesOf(found.scopes) };
    },
    async useCode(codeHash, now) {
      const spent = await changed(pool, 'UPDATE oauth_codes SET used_at = $1 WHERE code_hash = $2 AND used_at IS NULL', [
        now.toISOString(),
        codeHash,
      ]);
      return spent > 0;
    },
    async saveTokens(tokens, now) {
      await transaction(pool, async (client) => {
        await client.query('DELETE FROM oauth_tokens WHERE expires_at <= $1', [now.toISOString()]);
        for (const [hash, kind, expiresAt] of tokenRows(tokens)) {
          await client.query(
            `INSERT INTO oauth_tokens (token_hash, kind, grant_id, family, scopes, resource, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
            [hash, kind, tokens.grantId, tokens.family, tokens.scopes.join(' '), tokens.resource, now.toISOString(), expiresAt],
          );
        }
      });
    },
    async token(tokenHash) {
      const found = await row<Omit<OAuthTokenRecord, 'scopes'> & { scopes: string }>(
        pool,
        `SELECT t.kind, t.grant_id AS "grantId", t.family, g.person_id AS "personId", g.client_id AS "clientId",
           t.scopes, t.resource, t.expires_at AS "expiresAt", t.used_at AS "usedAt",
           p.agreed_terms_at IS NOT NULL AS "personAgreedTerms"
         FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN people p ON p.id = g.person_id
         WHERE t.token_hash = $1`,
        [tokenHash],
      );
      return found && { ...found, scopes: scopesOf(found.scopes) };
    },
    async useRefreshToken(tokenHash, now) {
      const spent = await changed(
        pool,
        "UPDATE oauth_tokens SET used_at = $1 WHERE token_hash = $2 AND kind = 'refresh' AND used_at IS NULL",
        [now.toISOString(), tokenHash],
      );
      return spent > 0;
    },
    async revokeFamily(family) {
      await pool.query('DELETE FROM oauth_tokens WHERE family = $1', [family]);
    },
    async grants(personId) {
      const found = await rows<GrantRow>(
        pool,
        `SELECT g.id, g.person_id AS "personId", g.client_id AS "clientId", c.name AS "clientName",
           c.redirect_uris AS "redirectUris", g.scopes, g.created_at AS "createdAt", g.last_used_at AS "lastUsedAt"
         FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
         WHERE g.person_id = $1 ORDER BY g.created_at ${BYTES} DESC, g.id ${BYTES}`,
        [personId],
      );
      return found.map(grantFrom);
    },
    async revokeGrant(personId, grantId) {
      grantTouches.forget(grantId);
      return (await changed(pool, 'DELETE FROM oauth_grants WHERE id = $1 AND person_id = $2', [grantId, personId])) > 0;
    },
    touchGrant(grantId, now) {
      return grantTouches.touch(grantId, now);
    },
  };
}

/** The access token's row, and the refresh token's when there is one. */
function tokenRows(tokens: NewOAuthTokens): Array<[Buffer, 'access' | 'refresh', string]> {
  const made: Array<[Buffer, 'access' | 'refresh', string]> = [[tokens.accessHash, 'access', tokens.accessExpiresAt]];
  if (tokens.refreshHash && tokens.refreshExpiresAt) made.push([tokens.refreshHash, 'refresh', tokens.refreshExpiresAt]);
  return made;
}
