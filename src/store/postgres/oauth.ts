import type { OAuthClient, OAuthStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { throttledGrantTouches } from '../grant-touches.js';
import { beyondApproval, clientFrom, grantFrom, scopesOf, USED_CODE_MEMORY_MS } from '../oauth-records.js';
import { oauthSql, oauthTokenOf, tokenRows } from '../sql/oauth.js';
import type { PgPool } from './database.js';
import { changed, row, rows, run, transaction } from './query.js';

/**
 * OAuth for assistants. Spending a code or a refresh token is one `UPDATE … WHERE used_at IS NULL`: of two
 * processes spending one at once, the second waits on the row, sees it used and changes nothing, so exactly one is
 * told true.
 */
export function pgOAuth(pool: PgPool, random: Random): OAuthStore {
  const grantTouches = throttledGrantTouches((grantId, at) => run(pool, oauthSql.touchGrant, { grantId, at: at.toISOString() }));

  const saveClient = async (client: OAuthClient) => {
    const { id, kind, secretHash, name, redirectUris, metadata, createdAt, freshUntil } = client;
    // A newer copy of a metadata document keeps the first copy's createdAt: answered as stored.
    const stored = await row(pool, oauthSql.saveClient, {
      id, kind, secretHash, name, redirectUris: JSON.stringify(redirectUris), metadata: JSON.stringify(metadata), createdAt, freshUntil,
    });
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
      const found = await row(pool, oauthSql.client, { id });
      return found && clientFrom(found);
    },
    purgeClients(registeredBefore, now) {
      return changed(pool, oauthSql.purgeClients, { registeredBefore: registeredBefore.toISOString(), now: now.toISOString() });
    },
    saveCode(code, now) {
      const at = now.toISOString();
      const scopes = code.scopes.join(' ');
      const fresh = newId('grant', random);
      return transaction(pool, async (client) => {
        await run(client, oauthSql.purgeCodes, { before: new Date(now.getTime() - USED_CODE_MEMORY_MS).toISOString() });
        // The grant's row stays locked to the end, so two approvals of one client at once apply one after the other.
        const { id } = (await row(client, oauthSql.upsertGrant, { id: fresh, personId: code.personId, clientId: code.clientId, scopes, at }))!;
        if (id !== fresh) {
          // Approved again: tokens and codes given before that hold a scope the new approval does not name stop
          // working now (rather than living on for up to 30 days).
          const beyond = beyondApproval(code.scopes);
          const families = await rows(client, oauthSql.familiesOfGrant, { grantId: id });
          const codes = await rows(client, oauthSql.unusedCodesOfGrant, { grantId: id });
          const goneFamilies = families.filter((family) => beyond(family.scopes)).map(({ family }) => family);
          const goneCodes = codes.filter((stored) => beyond(stored.scopes)).map(({ codeHash }) => codeHash);
          await client.query('DELETE FROM oauth_tokens WHERE family = ANY($1::text[])', [goneFamilies]);
          await client.query('DELETE FROM oauth_codes WHERE code_hash = ANY($1::bytea[])', [goneCodes]);
        }
        const { codeHash, redirectUri, codeChallenge, resource, expiresAt } = code;
        await run(client, oauthSql.insertCode, { codeHash, grantId: id, redirectUri, codeChallenge, scopes, resource, expiresAt });
        return id;
      });
    },
    async code(codeHash) {
      const found = await row(pool, oauthSql.code, { codeHash });
      return found && { ...found, scopes: scopesOf(found.scopes) };
    },
    async useCode(codeHash, now) {
      return (await changed(pool, oauthSql.useCode, { codeHash, at: now.toISOString() })) > 0;
    },
    async saveTokens(tokens, now) {
      await transaction(pool, async (client) => {
        await run(client, oauthSql.purgeTokens, { before: now.toISOString() });
        for (const made of tokenRows(tokens, now.toISOString())) await run(client, oauthSql.insertToken, made);
      });
    },
    async token(tokenHash) {
      const found = await row(pool, oauthSql.token, { tokenHash });
      return found && oauthTokenOf(found);
    },
    async useRefreshToken(tokenHash, now) {
      return (await changed(pool, oauthSql.useRefresh, { tokenHash, at: now.toISOString() })) > 0;
    },
    async revokeFamily(family) {
      await run(pool, oauthSql.deleteFamily, { family });
    },
    async grants(personId) {
      return (await rows(pool, oauthSql.grants, { personId })).map(grantFrom);
    },
    async revokeGrant(personId, grantId) {
      grantTouches.forget(grantId);
      return (await changed(pool, oauthSql.deleteGrant, { grantId, personId })) > 0;
    },
    touchGrant(grantId, now) {
      return grantTouches.touch(grantId, now);
    },
  };
}
