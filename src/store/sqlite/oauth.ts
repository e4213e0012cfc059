import type { OAuthClient, OAuthStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { throttledGrantTouches } from '../grant-touches.js';
import { beyondApproval, clientFrom, grantFrom, scopesOf, USED_CODE_MEMORY_MS } from '../oauth-records.js';
import { oauthSql, oauthTokenOf, tokenRows } from '../sql/oauth.js';
import { writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';

export function sqliteOAuth(db: Db, random: Random): OAuthStore {
  const s = prepareAll(db, oauthSql);
  // One code at a time here; PostgreSQL deletes the codes a new approval narrows away in one statement.
  const deleteCode = db.prepare('DELETE FROM oauth_codes WHERE code_hash = ?');
  const grantTouches = throttledGrantTouches((grantId, at) => s.touchGrant.run({ grantId, at: at.toISOString() }));

  const saveClient = (client: OAuthClient) => {
    const { id, kind, secretHash, name, redirectUris, metadata, createdAt, freshUntil } = client;
    // A newer copy of a metadata document keeps the first copy's createdAt: answered as stored.
    const stored = s.saveClient.get({ id, kind, secretHash, name, redirectUris: JSON.stringify(redirectUris), metadata: JSON.stringify(metadata), createdAt, freshUntil })!;
    return { ...client, createdAt: stored.createdAt };
  };

  const saveCode = writeTransaction(db, (code: Parameters<OAuthStore['saveCode']>[0], now: Date): string => {
    const at = now.toISOString();
    s.purgeCodes.run({ before: new Date(now.getTime() - USED_CODE_MEMORY_MS).toISOString() });
    const fresh = newId('grant', random);
    const { id } = s.upsertGrant.get({ id: fresh, personId: code.personId, clientId: code.clientId, scopes: code.scopes.join(' '), at })!;
    if (id !== fresh) {
      // Approved again: the approval's scopes replace the old ones, so tokens and codes given before that hold a
      // scope the new approval does not name stop working now (rather than living on for up to 30 days).
      const beyond = beyondApproval(code.scopes);
      for (const { family, scopes } of s.familiesOfGrant.all({ grantId: id })) {
        if (beyond(scopes)) s.deleteFamily.run({ family });
      }
      for (const { codeHash, scopes } of s.unusedCodesOfGrant.all({ grantId: id })) {
        if (beyond(scopes)) deleteCode.run(codeHash);
      }
    }
    const { codeHash, redirectUri, codeChallenge, resource, expiresAt } = code;
    s.insertCode.run({ codeHash, grantId: id, redirectUri, codeChallenge, scopes: code.scopes.join(' '), resource, expiresAt });
    return id;
  });

  const saveTokens = writeTransaction(db, (tokens: Parameters<OAuthStore['saveTokens']>[0], now: Date) => {
    const at = now.toISOString();
    s.purgeTokens.run({ before: at });
    for (const row of tokenRows(tokens, at)) s.insertToken.run(row);
  });

  return {
    async addClient(client, now) {
      return saveClient({ ...client, kind: 'registered', createdAt: now.toISOString(), freshUntil: null });
    },
    async saveMetadataDocument(client, now) {
      return saveClient({ ...client, kind: 'metadata_document', secretHash: null, createdAt: now.toISOString() });
    },
    async client(id) {
      const row = s.client.get({ id });
      return row ? clientFrom(row) : null;
    },
    async purgeClients(registeredBefore, now) {
      return s.purgeClients.run({ registeredBefore: registeredBefore.toISOString(), now: now.toISOString() }).changes;
    },
    async saveCode(code, now) {
      return saveCode(code, now);
    },
    async code(codeHash) {
      const row = s.code.get({ codeHash });
      return row ? { ...row, scopes: scopesOf(row.scopes) } : null;
    },
    async useCode(codeHash, now) {
      return s.useCode.run({ codeHash, at: now.toISOString() }).changes > 0;
    },
    async saveTokens(tokens, now) {
      saveTokens(tokens, now);
    },
    async token(tokenHash) {
      const row = s.token.get({ tokenHash });
      return row ? oauthTokenOf(row) : null;
    },
    async useRefreshToken(tokenHash, now) {
      return s.useRefresh.run({ tokenHash, at: now.toISOString() }).changes > 0;
    },
    async revokeFamily(family) {
      s.deleteFamily.run({ family });
    },
    async grants(personId) {
      return s.grants.all({ personId }).map(grantFrom);
    },
    async revokeGrant(personId, grantId) {
      grantTouches.forget(grantId);
      return s.deleteGrant.run({ grantId, personId }).changes > 0;
    },
    async touchGrant(grantId, now) {
      // Busy past the timeout (the operator CLI holds a long write): logged, and the next use records it.
      await grantTouches.touch(grantId, now);
    },
  };
}
