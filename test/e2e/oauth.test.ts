/**
 * Assistants sign in with OAuth, end to end: the SDK's own OAuth client code (an OAuthClientProvider whose
 * "browser" is fetch with a signed-in session cookie) against the real server. Registration, PKCE, sign-in and
 * consent, token, a tool call, refresh and revocation; then the token endpoint's refusals, each with its exact
 * `error`. Checklist: shared/research/mcp-oauth.md sections 2 and 3; docs/behaviour.md "Assistants sign in".
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call, startServer, type TestServer } from '../helpers/server.js';
import {
  browserOf,
  callbackOf,
  connectWithOAuth,
  consent,
  pkce,
  register,
  tokenRequest,
  TestOAuthProvider,
} from '../helpers/oauth.js';

let server: TestServer;
let resource: string;
const CALLBACK = 'http://127.0.0.1:33418/callback';

beforeAll(async () => {
  server = await startServer();
  resource = `${server.url}/mcp`;
});
afterAll(() => server.stop());

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A raw initialize on /mcp with a bearer token. */
function mcpWith(token: string): Promise<Response> {
  return fetch(resource, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify(initialize),
  });
}

/** A registered public client, a signed-in person and a code from an approved consent. */
async function approvedCode(options: { scope?: string; resource?: string | null; redirect?: string } = {}) {
  const person = await server.person();
  const cookie = await browserOf(server, person.personId);
  const redirect = options.redirect ?? CALLBACK;
  const { body: client } = await register(server, { client_name: 'Manual', redirect_uris: [CALLBACK] });
  const { verifier, challenge } = pkce();
  const url = new URL(`${server.url}/authorize`);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirect,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
    scope: options.scope ?? 'links',
  };
  if (options.resource !== null) params.resource = options.resource ?? resource;
  url.search = new URLSearchParams(params).toString();
  const back = await consent(server, cookie, url);
  expect(back.code).toBeTruthy();
  return { person, cookie, clientId: client.client_id as string, verifier, code: back.code!, redirect };
}

function exchange(grant: { clientId: string; verifier: string; code: string; redirect: string }, extra: Record<string, string> = {}) {
  return tokenRequest(server, {
    grant_type: 'authorization_code',
    client_id: grant.clientId,
    code: grant.code,
    code_verifier: grant.verifier,
    redirect_uri: grant.redirect,
    ...extra,
  });
}

describe('an MCP client signs in with the SDK OAuth client', () => {
  it('registers, signs in with PKCE and consent, calls createLink, refreshes, and is revoked', async () => {
    const alice = await server.person();
    const provider = new TestOAuthProvider(server, await browserOf(server, alice.personId));
    const { client } = await connectWithOAuth(server, provider);

    // Registration (RFC 7591): a public client, no secret.
    expect(provider.clientInfo).toMatchObject({ client_id: expect.stringMatching(/^oc_/) });
    expect(provider.clientInfo).not.toHaveProperty('client_secret');
    // The authorization request: PKCE S256, the resource and the challenge's scope.
    const opened = provider.opened[0]!;
    expect(opened.origin + opened.pathname).toBe(`${server.url}/authorize`);
    expect(opened.searchParams.get('code_challenge_method')).toBe('S256');
    expect(opened.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(opened.searchParams.get('resource')).toBe(resource);
    expect(opened.searchParams.get('scope')).toBe('links');
    // The answer: back to the loopback callback with code, state and iss (RFC 9207).
    const back = provider.callbacks[0]!;
    expect(back.url.origin + back.url.pathname).toBe(CALLBACK);
    expect(back.state).toBe('state-0');
    expect(back.iss).toBe(server.url);
    // The tokens: short-lived access token, rotating refresh token.
    const first = provider.saved!;
    expect(first).toMatchObject({ token_type: 'Bearer', scope: 'links', expires_in: 3600 });
    expect(first.access_token).toMatch(/^sla_[A-Za-z0-9]{48}$/);
    expect(first.refresh_token).toMatch(/^slr_[A-Za-z0-9]{48}$/);

    // A tool call acts as the person, in their team.
    const made = await client.callTool({ name: 'createLink', arguments: { team: alice.teamId, destination: 'https://example.com/oauth' } });
    expect(made.isError).toBeFalsy();
    const link = made.structuredContent as { code: string; destination: string };
    expect(link.destination).toBe('https://example.com/oauth');
    const listed = await call(server, 'listLinks', { team: alice.teamId }, alice.token);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(link.code);

    // An hour later the access token has expired; the client refreshes by itself and carries on.
    server.clock.advance(61 * 60_000);
    expect((await mcpWith(first.access_token)).status).toBe(401);
    const teams = await client.callTool({ name: 'myTeams', arguments: {} });
    expect(teams.isError).toBeFalsy();
    const second = provider.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(provider.opened).toHaveLength(1); // no second sign-in

    // Revocation (RFC 7009): the client signs out; its tokens stop working at once.
    const revoked = await fetch(`${server.url}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: second.refresh_token!, client_id: provider.clientInfo!.client_id }),
    });
    expect(revoked.status).toBe(200);
    expect((await mcpWith(second.access_token)).status).toBe(401);
    const refresh = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: second.refresh_token!,
      client_id: provider.clientInfo!.client_id,
    });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
    await client.close();
  });

  it('a person who denies: the client gets access_denied with state and iss, and no token', async () => {
    const bob = await server.person();
    const provider = new TestOAuthProvider(server, await browserOf(server, bob.personId), CALLBACK, undefined, 'deny');
    const transport = new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider });
    await expect(new Client({ name: 'e2e', version: '1' }).connect(transport)).rejects.toThrow();
    expect(provider.callbacks[0]).toMatchObject({ error: 'access_denied', code: null, state: 'state-0', iss: server.url });
    expect(provider.saved).toBeUndefined();
  });
});

describe('the token endpoint', () => {
  it('answers a good exchange with no-store, scope and a Bearer token that works on /mcp', async () => {
    const grant = await approvedCode();
    const res = await exchange(grant);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'links' });
    expect((await mcpWith(res.body.access_token)).status).toBe(200);
  });

  it('a missing code_verifier: invalid_grant', async () => {
    const grant = await approvedCode();
    const res = await tokenRequest(server, { grant_type: 'authorization_code', client_id: grant.clientId, code: grant.code, redirect_uri: CALLBACK });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('a wrong code_verifier: invalid_grant, and the code is spent', async () => {
    const grant = await approvedCode();
    const wrong = await exchange({ ...grant, verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const again = await exchange(grant);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('a code used twice: invalid_grant, and the tokens of its first use are revoked', async () => {
    const grant = await approvedCode();
    const first = await exchange(grant);
    expect(first.status).toBe(200);
    const second = await exchange(grant);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect((await mcpWith(first.body.access_token)).status).toBe(401);
    const refresh = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: grant.clientId });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('another redirect_uri than the authorization request: invalid_grant', async () => {
    const grant = await approvedCode();
    const res = await exchange({ ...grant, redirect: 'http://127.0.0.1:33418/other' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('no redirect_uri when the authorization request had one: invalid_grant', async () => {
    const grant = await approvedCode();
    const res = await tokenRequest(server, { grant_type: 'authorization_code', client_id: grant.clientId, code: grant.code, code_verifier: grant.verifier });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('a code of another client: invalid_grant', async () => {
    const grant = await approvedCode();
    const { body: other } = await register(server, { redirect_uris: [CALLBACK] });
    const res = await exchange({ ...grant, clientId: other.client_id });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('an expired code (after 5 minutes): invalid_grant', async () => {
    const grant = await approvedCode();
    server.clock.advance(5 * 60_000 + 1000);
    const res = await exchange(grant);
    expect(res.body.error).toBe('invalid_grant');
  });

  it.each([
    ['another server', 'https://elsewhere.example/mcp'],
    ['another path of ours', 'PUBLIC/v1'],
    ['two trailing slashes', 'PUBLIC/mcp//'],
  ])('a resource for %s: invalid_target', async (_what, value) => {
    const grant = await approvedCode();
    const res = await exchange(grant, { resource: value.replace('PUBLIC', server.url) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_target');
  });

  it('accepts the resource with one trailing slash, and without any resource at all', async () => {
    expect((await exchange(await approvedCode(), { resource: `${resource}/` })).status).toBe(200);
    expect((await exchange(await approvedCode({ resource: null }))).status).toBe(200);
  });

  it('an unknown client: 401 invalid_client (so the client registers again)', async () => {
    const grant = await approvedCode();
    const res = await exchange({ ...grant, clientId: 'oc_AAAAAAAAAAAAAAAA' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  it('an unsupported grant type: unsupported_grant_type', async () => {
    const grant = await approvedCode();
    const res = await tokenRequest(server, { grant_type: 'client_credentials', client_id: grant.clientId });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
  });

  it('a JSON body: invalid_request', async () => {
    const res = await fetch(`${server.url}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
  });
});

describe('refresh tokens', () => {
  it('rotate: each is good once; a reused one is invalid_grant and revokes what came from the sign-in', async () => {
    const grant = await approvedCode();
    const first = (await exchange(grant)).body;
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      tokenRequest(server, { grant_type: 'refresh_token', refresh_token: token, client_id: grant.clientId, ...extra });
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await mcpWith(second.body.access_token)).status).toBe(200);

    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // A replay means a copy is out there: the family goes, the newest tokens included.
    expect((await mcpWith(second.body.access_token)).status).toBe(401);
    expect((await refresh(second.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('carry the resource: a foreign one is invalid_target, ours with a slash is fine', async () => {
    const grant = await approvedCode();
    const first = (await exchange(grant)).body;
    const foreign = await tokenRequest(server, {
      grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: grant.clientId, resource: 'https://elsewhere.example/mcp',
    });
    expect(foreign.body.error).toBe('invalid_target');
    const ours = await tokenRequest(server, {
      grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: grant.clientId, resource: `${resource}/`,
    });
    expect(ours.status).toBe(200);
  });

  it('of another client: invalid_grant', async () => {
    const grant = await approvedCode();
    const first = (await exchange(grant)).body;
    const { body: other } = await register(server, { redirect_uris: [CALLBACK] });
    const res = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: other.client_id });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('cannot widen the scope', async () => {
    const grant = await approvedCode({ scope: 'links:read' });
    const first = (await exchange(grant)).body;
    expect(first.scope).toBe('links:read');
    const res = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: grant.clientId, scope: 'links' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_scope', error_description: 'A refresh cannot widen the scope: links was not granted.' });
    // The refresh token was not spent by the refusal.
    const same = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: grant.clientId });
    expect(same.status).toBe(200);
    expect(same.body.scope).toBe('links:read');
  });

  it('may narrow the scope: links includes links:read; unknown scopes are ignored, as at /authorize', async () => {
    const grant = await approvedCode({ scope: 'links' });
    const first = (await exchange(grant)).body;
    expect(first.scope).toBe('links');
    const narrowed = await tokenRequest(server, {
      grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: grant.clientId, scope: 'links:read offline_access',
    });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe('links:read');
    // What the narrowed token may do: read, not change.
    const caller = await server.app.ctx.store.oauth.token(createHash('sha256').update(narrowed.body.access_token).digest());
    expect(caller?.scopes).toEqual(['links:read']);
    const unknownOnly = await tokenRequest(server, {
      grant_type: 'refresh_token', refresh_token: narrowed.body.refresh_token, client_id: grant.clientId, scope: 'offline_access',
    });
    expect(unknownOnly.status).toBe(200);
    expect(unknownOnly.body.scope).toBe('links:read');
  });

  it('expire after 30 days', async () => {
    const grant = await approvedCode();
    const first = (await exchange(grant)).body;
    server.clock.advance(30 * 86_400_000 + 1000);
    const res = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: grant.clientId });
    expect(res.body.error).toBe('invalid_grant');
  });
});

describe('access tokens on /mcp', () => {
  it('expire after an hour: 401 invalid_token with the challenge', async () => {
    const token = (await exchange(await approvedCode())).body.access_token as string;
    server.clock.advance(59 * 60_000);
    expect((await mcpWith(token)).status).toBe(200);
    server.clock.advance(2 * 60_000);
    const res = await mcpWith(token);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="links"`,
    );
    expect(await res.json()).toMatchObject({ status: 401, code: 'invalid_token' });
  });

  it('are for /mcp only: the HTTP API answers 401 invalid_token (audience)', async () => {
    const grant = await approvedCode();
    const token = (await exchange(grant)).body.access_token as string;
    const res = await call(server, 'listTeams', {}, token);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'invalid_token' });
  });

  it('are never taken from the query string', async () => {
    const token = (await exchange(await approvedCode())).body.access_token as string;
    const res = await fetch(`${resource}?access_token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(res.status).toBe(401);
  });

  it('share the person\'s budget of calls per minute with their personal tokens', async () => {
    const grant = await approvedCode();
    const token = (await exchange(grant)).body.access_token as string;
    const personal = await server.token(grant.person.personId, grant.person.teamId);
    const viaApi = await call(server, 'listTeams', {}, personal);
    const left = Number(/r=(\d+)/.exec(viaApi.headers.get('ratelimit') ?? '')![1]);
    const viaMcp = await mcpWith(token);
    expect(Number(/r=(\d+)/.exec(viaMcp.headers.get('ratelimit') ?? '')![1])).toBe(left - 1);
  });
});

describe('redirect answers', () => {
  it('carry the code to an exact registered URI, any port on loopback', async () => {
    const grant = await approvedCode({ redirect: 'http://127.0.0.1:54321/callback' });
    expect((await exchange(grant)).status).toBe(200);
  });

  it('callbackOf reads code, state and iss', () => {
    expect(callbackOf('http://127.0.0.1/cb?code=a&state=b&iss=c')).toMatchObject({ code: 'a', state: 'b', iss: 'c' });
  });
});

describe('malformed requests', () => {
  it('a body over 16 KiB at /token or /revoke: 413 invalid_request, never a 500', async () => {
    for (const path of ['/token', '/revoke']) {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `a=${'x'.repeat(20_000)}`,
      });
      expect(res.status, path).toBe(413);
      expect(await res.json()).toEqual({ error: 'invalid_request', error_description: 'The body is too large.' });
    }
  });

  it('a body over 16 KiB at /register: 413 invalid_client_metadata', async () => {
    const res = await fetch(`${server.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/cb'], client_name: 'x'.repeat(20_000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'invalid_client_metadata', error_description: 'The body must be a JSON object of at most 16 KiB.' });
  });

  it('/token and /revoke answer only POST', async () => {
    for (const path of ['/token', '/revoke']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('/revoke: an unknown token changes nothing and answers 200; an unknown client 401 invalid_client', async () => {
    const grant = await approvedCode();
    const tokens = (await exchange(grant)).body;
    const revoke = (fields: Record<string, string>) =>
      fetch(`${server.url}/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    expect((await revoke({ token: 'sla_unknown', client_id: grant.clientId })).status).toBe(200);
    const unknown = await revoke({ token: tokens.access_token, client_id: 'oc_AAAAAAAAAAAAAAAA' });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: string }).error).toBe('invalid_client');
    // Another client cannot revoke it either.
    const { body: other } = await register(server, { redirect_uris: [CALLBACK] });
    expect((await revoke({ token: tokens.access_token, client_id: other.client_id })).status).toBe(200);
    expect((await mcpWith(tokens.access_token)).status).toBe(200);
    // Revoking the access token ends the refresh token too.
    expect((await revoke({ token: tokens.access_token, client_id: grant.clientId })).status).toBe(200);
    expect((await mcpWith(tokens.access_token)).status).toBe(401);
    const refresh = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: grant.clientId });
    expect(refresh.body.error).toBe('invalid_grant');
  });
});

describe('storage', () => {
  it('keeps codes, tokens and client secrets only as SHA-256 hashes', async () => {
    const grant = await approvedCode();
    const tokens = (await exchange(grant)).body;
    const { body: confidential } = await register(server, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_post' });
    const db = new Database(server.dbPath, { readonly: true });
    try {
      const dump = JSON.stringify(
        ['oauth_clients', 'oauth_grants', 'oauth_codes', 'oauth_tokens'].flatMap((table) =>
          (db.prepare(`SELECT * FROM ${table}`).all() as Array<Record<string, unknown>>).map((row) =>
            Object.values(row).map((value) => (Buffer.isBuffer(value) ? value.toString('latin1') : value)),
          ),
        ),
      );
      for (const secret of [grant.code, tokens.access_token, tokens.refresh_token, confidential.client_secret]) {
        expect(dump).not.toContain(secret);
      }
      const hash = (text: string) => createHash('sha256').update(text).digest();
      expect(db.prepare('SELECT kind FROM oauth_tokens WHERE token_hash = ?').get(hash(tokens.access_token))).toEqual({ kind: 'access' });
      expect(db.prepare('SELECT kind FROM oauth_tokens WHERE token_hash = ?').get(hash(tokens.refresh_token))).toEqual({ kind: 'refresh' });
      expect(db.prepare('SELECT used_at IS NOT NULL AS used FROM oauth_codes WHERE code_hash = ?').get(hash(grant.code))).toEqual({ used: 1 });
      expect(db.prepare('SELECT 1 AS found FROM oauth_clients WHERE secret_hash = ?').get(hash(confidential.client_secret))).toEqual({ found: 1 });
    } finally {
      db.close();
    }
  });
});
