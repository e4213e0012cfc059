import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewAuthorizationCode, NewOAuthTokens } from '../../../src/store/ports.js';
import { at, DAY_MS, HOUR_MS, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const hash = () => randomBytes(32);
const RESOURCE = 'https://links.example/mcp';
const REDIRECT = 'http://127.0.0.1:33418/callback';

export function oauth(open: OpenStore): void {
  describe('oauth', () => {
    const s = storeUnderTest(open);

    const registered = (id = `oc_${randomBytes(6).toString('hex')}`, now = T0) =>
      s.store.oauth.addClient(
        { id, secretHash: null, name: 'Desk Assistant', redirectUris: [REDIRECT], metadata: { client_name: 'Desk Assistant' } },
        now,
      );
    const codeFor = (personId: string, clientId: string, scopes: string[]): NewAuthorizationCode => ({
      codeHash: hash(), personId, clientId, scopes, redirectUri: REDIRECT, codeChallenge: 'challenge', resource: RESOURCE,
      expiresAt: at(10 * MINUTE).toISOString(),
    });
    const tokensFor = (grantId: string, family: string, scopes: string[]): NewOAuthTokens => ({
      grantId, family, scopes, resource: RESOURCE, accessHash: hash(), accessExpiresAt: at(HOUR_MS).toISOString(),
      refreshHash: hash(), refreshExpiresAt: at(30 * DAY_MS).toISOString(),
    });
    /** A person who approved a client for `scopes`: the grant's id and the code it made. */
    const approved = async (scopes = ['links:read', 'links:write']) => {
      const person = await s.person();
      const client = await registered();
      const code = codeFor(person.id, client.id, scopes);
      const grantId = await s.store.oauth.saveCode(code, T0);
      return { person, client, grantId, code };
    };

    describe('clients', () => {
      it('registers a client and reads it back, its secret hash and metadata intact', async () => {
        const secretHash = hash();
        const redirectUris = [REDIRECT, 'https://bot.example/cb'];
        const input = { id: 'oc_confidential', secretHash, name: 'Bot', redirectUris, metadata: { client_name: 'Bot', scope: 'a b' } };
        const client = await s.store.oauth.addClient(input, T0);
        expect(client).toEqual({ ...input, kind: 'registered', createdAt: T0.toISOString(), freshUntil: null });
        const read = await s.store.oauth.client('oc_confidential');
        expect(read).toEqual(client);
        expect(read!.secretHash!.equals(secretHash)).toBe(true);
        expect(await s.store.oauth.client('oc_unknown')).toBeNull();
      });

      it('keeps a metadata document, a newer copy replacing the older', async () => {
        const id = 'https://assistant.example/client.json';
        const first = { id, name: 'Assistant', redirectUris: [REDIRECT], metadata: { client_name: 'Assistant' }, freshUntil: at(HOUR_MS).toISOString() };
        const kind = 'metadata_document';
        expect(await s.store.oauth.saveMetadataDocument(first, T0)).toEqual({ ...first, kind, secretHash: null, createdAt: T0.toISOString() });
        const second = {
          ...first, name: 'Assistant 2', redirectUris: ['https://assistant.example/cb'], metadata: { client_name: 'Assistant 2' },
          freshUntil: at(3 * HOUR_MS).toISOString(),
        };
        const resaved = await s.store.oauth.saveMetadataDocument(second, at(2 * HOUR_MS));
        // The first copy's createdAt stays, and the answer says so.
        expect(resaved).toEqual({ ...second, kind, secretHash: null, createdAt: T0.toISOString() });
        expect(await s.store.oauth.client(id)).toEqual(resaved);
      });

      it('purges old registered clients and stale metadata documents that no person has a grant with', async () => {
        const document = (id: string, freshUntil: Date) =>
          s.store.oauth.saveMetadataDocument({ id, name: null, redirectUris: [REDIRECT], metadata: {}, freshUntil: freshUntil.toISOString() }, T0);
        await registered('oc_old');
        await registered('oc_new', at(2 * HOUR_MS));
        await document('https://stale.example/c.json', at(HOUR_MS));
        await document('https://fresh.example/c.json', at(3 * HOUR_MS));
        const kept = [await registered('oc_old_used'), await document('https://stale-used.example/c.json', at(HOUR_MS))];
        const person = await s.person();
        for (const client of kept) await s.store.oauth.saveCode(codeFor(person.id, client.id, ['links:read']), T0);
        expect(await s.store.oauth.purgeClients(at(HOUR_MS), at(2 * HOUR_MS))).toBe(2);
        const left = async (id: string) => (await s.store.oauth.client(id)) !== null;
        expect(await left('oc_old')).toBe(false);
        expect(await left('https://stale.example/c.json')).toBe(false);
        for (const id of ['oc_new', 'https://fresh.example/c.json', 'oc_old_used', 'https://stale-used.example/c.json']) {
          expect(await left(id)).toBe(true);
        }
        expect(await s.store.oauth.purgeClients(at(HOUR_MS), at(2 * HOUR_MS))).toBe(0);
      });
    });

    describe('codes and tokens', () => {
      it('saves an authorization code under a grant and spends it once', async () => {
        const person = await s.person();
        const client = await registered();
        const code = codeFor(person.id, client.id, ['links:read']);
        const grantId = await s.store.oauth.saveCode(code, T0);
        expect(await s.store.oauth.code(code.codeHash)).toEqual({ ...code, grantId, usedAt: null });
        expect(await s.store.oauth.useCode(code.codeHash, at(MINUTE))).toBe(true);
        expect(await s.store.oauth.useCode(code.codeHash, at(2 * MINUTE))).toBe(false);
        expect((await s.store.oauth.code(code.codeHash))!.usedAt).toBe(at(MINUTE).toISOString());
        expect(await s.store.oauth.code(hash())).toBeNull();
        expect(await s.store.oauth.useCode(hash(), T0)).toBe(false);
      });

      it('saves access and refresh tokens; a refresh token is exchanged once, an access token never', async () => {
        const { person, client, grantId } = await approved();
        const tokens = tokensFor(grantId, 'family-1', ['links:read']);
        await s.store.oauth.saveTokens(tokens, T0);
        const common = {
          grantId, family: 'family-1', personId: person.id, clientId: client.id, scopes: ['links:read'], resource: RESOURCE,
          usedAt: null, personAgreedTerms: true,
        };
        expect(await s.store.oauth.token(tokens.accessHash)).toEqual({ ...common, kind: 'access', expiresAt: tokens.accessExpiresAt });
        expect(await s.store.oauth.token(tokens.refreshHash!)).toEqual({ ...common, kind: 'refresh', expiresAt: tokens.refreshExpiresAt });
        expect(await s.store.oauth.useRefreshToken(tokens.accessHash, at(MINUTE))).toBe(false);
        expect(await s.store.oauth.useRefreshToken(tokens.refreshHash!, at(MINUTE))).toBe(true);
        expect(await s.store.oauth.useRefreshToken(tokens.refreshHash!, at(2 * MINUTE))).toBe(false);
        expect((await s.store.oauth.token(tokens.refreshHash!))!.usedAt).toBe(at(MINUTE).toISOString());
        expect(await s.store.oauth.token(hash())).toBeNull();
      });

      it('saves an access token without a refresh token', async () => {
        const { grantId } = await approved();
        const tokens = { ...tokensFor(grantId, 'family-1', ['links:read']), refreshHash: null, refreshExpiresAt: null };
        await s.store.oauth.saveTokens(tokens, T0);
        expect(await s.store.oauth.token(tokens.accessHash)).toMatchObject({ kind: 'access', family: 'family-1' });
      });

      it('revokes a whole family, and only it', async () => {
        const { grantId } = await approved();
        const [revoked, kept] = [tokensFor(grantId, 'family-1', ['links:read']), tokensFor(grantId, 'family-2', ['links:read'])];
        await s.store.oauth.saveTokens(revoked, T0);
        await s.store.oauth.saveTokens(kept, T0);
        await s.store.oauth.revokeFamily('family-1');
        expect(await s.store.oauth.token(revoked.accessHash)).toBeNull();
        expect(await s.store.oauth.token(revoked.refreshHash!)).toBeNull();
        expect(await s.store.oauth.token(kept.accessHash)).not.toBeNull();
        expect(await s.store.oauth.token(kept.refreshHash!)).not.toBeNull();
      });
    });

    describe('grants', () => {
      it('lists what a person allowed, most recently allowed first, one grant per client with its scopes replaced', async () => {
        const person = await s.person();
        const [first, second] = [await registered('oc_first'), await registered('oc_second')];
        const grantId = await s.store.oauth.saveCode(codeFor(person.id, first.id, ['links:read']), T0);
        const secondId = await s.store.oauth.saveCode(codeFor(person.id, second.id, ['links:read']), at(MINUTE));
        expect(await s.store.oauth.saveCode(codeFor(person.id, first.id, ['links:read', 'links:write']), at(2 * MINUTE))).toBe(grantId);
        const shown = { clientName: 'Desk Assistant', redirectUris: [REDIRECT], personId: person.id, lastUsedAt: null };
        expect(await s.store.oauth.grants(person.id)).toEqual([
          { ...shown, id: grantId, clientId: 'oc_first', scopes: ['links:read', 'links:write'], createdAt: at(2 * MINUTE).toISOString() },
          { ...shown, id: secondId, clientId: 'oc_second', scopes: ['links:read'], createdAt: at(MINUTE).toISOString() },
        ]);
        expect(await s.store.oauth.grants((await s.person()).id)).toEqual([]);
      });

      it('records when a grant was last used, at most once a minute', async () => {
        const { person, grantId } = await approved();
        await s.store.oauth.touchGrant(grantId, at(MINUTE));
        await s.store.oauth.touchGrant(grantId, at(MINUTE + 10_000));
        expect((await s.store.oauth.grants(person.id))[0]!.lastUsedAt).toBe(at(MINUTE).toISOString());
        await s.store.oauth.touchGrant(grantId, at(3 * MINUTE));
        expect((await s.store.oauth.grants(person.id))[0]!.lastUsedAt).toBe(at(3 * MINUTE).toISOString());
        await expect(s.store.oauth.touchGrant('grant_unknown', T0)).resolves.toBeUndefined();
      });

      it("revokes a person's grant with its codes and tokens; false for none or another person's", async () => {
        const { person, grantId, code } = await approved();
        const tokens = tokensFor(grantId, 'family-1', ['links:read']);
        await s.store.oauth.saveTokens(tokens, T0);
        const stranger = await approved();
        expect(await s.store.oauth.revokeGrant(stranger.person.id, grantId)).toBe(false);
        expect(await s.store.oauth.revokeGrant(person.id, grantId)).toBe(true);
        expect(await s.store.oauth.revokeGrant(person.id, grantId)).toBe(false);
        expect(await s.store.oauth.grants(person.id)).toEqual([]);
        expect(await s.store.oauth.code(code.codeHash)).toBeNull();
        expect(await s.store.oauth.token(tokens.accessHash)).toBeNull();
        expect(await s.store.oauth.token(tokens.refreshHash!)).toBeNull();
        expect(await s.store.oauth.grants(stranger.person.id)).toHaveLength(1);
      });

      it('approving again with narrower scopes deletes the families and unused codes holding a dropped scope', async () => {
        const { person, client, grantId, code: unusedWide } = await approved(['links:read', 'links:write']);
        const wide = tokensFor(grantId, 'family-wide', ['links:read', 'links:write']);
        const narrow = tokensFor(grantId, 'family-narrow', ['links:read']);
        for (const tokens of [wide, narrow]) await s.store.oauth.saveTokens(tokens, T0);
        const usedWide = codeFor(person.id, client.id, ['links:read', 'links:write']);
        await s.store.oauth.saveCode(usedWide, T0);
        await s.store.oauth.useCode(usedWide.codeHash, T0);
        const again = codeFor(person.id, client.id, ['links:read']);
        expect(await s.store.oauth.saveCode(again, at(MINUTE))).toBe(grantId);
        expect(await s.store.oauth.token(wide.accessHash)).toBeNull();
        expect(await s.store.oauth.token(wide.refreshHash!)).toBeNull();
        expect(await s.store.oauth.token(narrow.accessHash)).toMatchObject({ family: 'family-narrow' });
        expect(await s.store.oauth.code(unusedWide.codeHash)).toBeNull();
        expect(await s.store.oauth.code(usedWide.codeHash)).toMatchObject({ usedAt: T0.toISOString() });
        expect(await s.store.oauth.code(again.codeHash)).toEqual({ ...again, grantId, usedAt: null });
        expect((await s.store.oauth.grants(person.id))[0]!.scopes).toEqual(['links:read']);
      });

      it('approving again with wider scopes keeps what the client holds', async () => {
        const { person, client, grantId, code } = await approved(['links:read']);
        const tokens = tokensFor(grantId, 'family-1', ['links:read']);
        await s.store.oauth.saveTokens(tokens, T0);
        await s.store.oauth.saveCode(codeFor(person.id, client.id, ['links:read', 'links:write']), at(MINUTE));
        expect(await s.store.oauth.token(tokens.accessHash)).toMatchObject({ family: 'family-1' });
        expect(await s.store.oauth.code(code.codeHash)).toEqual({ ...code, grantId, usedAt: null });
        expect((await s.store.oauth.grants(person.id))[0]!.scopes).toEqual(['links:read', 'links:write']);
      });
    });
  });
}
