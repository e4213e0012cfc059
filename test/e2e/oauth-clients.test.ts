/**
 * Clients: dynamic client registration (RFC 7591) with its checks, confidential clients' secrets, the
 * per-address limit and the clean-up of unused registrations; client ID metadata documents refused when they
 * are not public https addresses, and fetched (from a loopback stand-in, through the fetcher's test-only option)
 * with the care of a destination. Checklist A5–A7, A10 of shared/research/mcp-oauth.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizeUrl, browserOf, consent, pkce, register, tokenRequest, startDocumentHost, type DocumentHost } from '../helpers/oauth.js';
import { metadataDocuments } from '../../src/oauth/metadata-documents.js';
import { isPublicAddress } from '../../src/destinations/public-lookup.js';

const CALLBACK = 'http://127.0.0.1:33418/callback';

/** Signs a person in and approves `clientId`; returns the code and its verifier. */
async function approve(server: TestServer, clientId: string, redirect = CALLBACK) {
  const person = await server.person();
  const { verifier, challenge } = pkce();
  const back = await consent(server, await browserOf(server, person.personId), authorizeUrl(server, {
    response_type: 'code', client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256',
  }));
  return { code: back.code!, verifier };
}

function exchange(server: TestServer, clientId: string, grant: { code: string; verifier: string }, extra: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return tokenRequest(server, {
    grant_type: 'authorization_code', client_id: clientId, code: grant.code, code_verifier: grant.verifier, redirect_uri: CALLBACK, ...extra,
  }, headers);
}

describe('dynamic client registration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('registers a public client: 201, no secret, no-store, the metadata as registered', async () => {
    const res = await register(server, {
      client_name: 'Visual Studio Code',
      redirect_uris: ['https://vscode.dev/redirect', 'http://127.0.0.1/', 'http://127.0.0.1:33418/'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      ignored_field: 'x',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      client_id: expect.stringMatching(/^oc_[A-Za-z0-9]{16}$/),
      client_id_issued_at: Math.floor(server.clock.now().getTime() / 1000),
      client_name: 'Visual Studio Code',
      redirect_uris: ['https://vscode.dev/redirect', 'http://127.0.0.1/', 'http://127.0.0.1:33418/'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    });
  });

  it('defaults to a public client with both grants', async () => {
    const res = await register(server, { redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });
  });

  it.each([
    ['no redirect_uris', {}],
    ['an empty list', { redirect_uris: [] }],
    ['javascript:', { redirect_uris: ['javascript:alert(1)'] }],
    ['data:', { redirect_uris: ['data:text/html,hi'] }],
    ['file:', { redirect_uris: ['file:///etc/passwd'] }],
    ['chrome:', { redirect_uris: ['chrome://settings/passwords'] }],
    ['view-source:', { redirect_uris: ['view-source:https://app.example/'] }],
    ['jar:', { redirect_uris: ['jar:https://app.example/a.jar!/x'] }],
    ['ms-settings:', { redirect_uris: ['ms-settings:privacy'] }],
    ['plain http off loopback', { redirect_uris: ['http://evil.example/callback'] }],
    ['a fragment', { redirect_uris: ['https://app.example/cb#x'] }],
    ['not a URI', { redirect_uris: ['callback'] }],
    ['not a string', { redirect_uris: [42] }],
  ])('refuses %s: invalid_redirect_uri', async (_what, metadata) => {
    const res = await register(server, metadata);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_redirect_uri');
  });

  it.each([
    ['an auth method we lack', { token_endpoint_auth_method: 'private_key_jwt' }],
    ['another grant', { grant_types: ['authorization_code', 'client_credentials'] }],
    ['no authorization_code grant', { grant_types: ['refresh_token'] }],
    ['another response type', { response_types: ['token'] }],
    ['a name that is not a string', { client_name: 7 }],
  ])('refuses %s: invalid_client_metadata', async (_what, extra) => {
    const res = await register(server, { redirect_uris: [CALLBACK], ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_client_metadata');
  });

  it('refuses a body that is not a JSON object', async () => {
    for (const body of ['[]', 'not json', '"x"']) {
      const res = await fetch(`${server.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_client_metadata');
    }
    const form = await fetch(`${server.url}/register`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' });
    expect(form.status).toBe(400);
  });

  it('answers only POST, with CORS', async () => {
    const res = await fetch(`${server.url}/register`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    const preflight = await fetch(`${server.url}/register`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Content-Type');
  });
});

describe('confidential clients', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  for (const method of ['client_secret_post', 'client_secret_basic']) {
    it(`${method}: a secret shown once; the token endpoint wants it`, async () => {
      const { body: client } = await register(server, { redirect_uris: [CALLBACK], token_endpoint_auth_method: method });
      expect(client.client_secret).toMatch(/^slcs_[A-Za-z0-9]{48}$/);
      expect(client.client_secret_expires_at).toBe(0);
      const basic = (secret: string) => ({ authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}` });

      const missing = await exchange(server, client.client_id, await approve(server, client.client_id));
      expect(missing.status).toBe(401);
      expect(missing.body.error).toBe('invalid_client');
      const wrong = await exchange(server, client.client_id, await approve(server, client.client_id), {}, basic('slcs_wrong'));
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe('invalid_client');
      expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="shortlinks"');

      const grant = await approve(server, client.client_id);
      const ok = method === 'client_secret_post'
        ? await exchange(server, client.client_id, grant, { client_secret: client.client_secret })
        : await exchange(server, client.client_id, grant, {}, basic(client.client_secret));
      expect(ok.status).toBe(200);
      const refresh = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: ok.body.refresh_token, client_id: client.client_id });
      expect(refresh.status).toBe(401);
      const refreshed = await tokenRequest(server, {
        grant_type: 'refresh_token', refresh_token: ok.body.refresh_token, client_id: client.client_id, client_secret: client.client_secret,
      });
      expect(refreshed.status).toBe(200);
    });
  }
});

describe('registrations are limited and cleaned up', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('60 registrations an hour per address; then 429 with Retry-After', async () => {
    for (let i = 0; i < 60; i++) expect((await register(server, { redirect_uris: [CALLBACK] })).status).toBe(201);
    const refused = await register(server, { redirect_uris: [CALLBACK] });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('too_many_requests');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    server.clock.advance(60 * 60_000);
    expect((await register(server, { redirect_uris: [CALLBACK] })).status).toBe(201);
  });

  it('forgets a registration nobody approved within a day, keeps approved ones', async () => {
    server.clock.advance(60 * 60_000);
    const { body: unused } = await register(server, { redirect_uris: [CALLBACK] });
    const { body: used } = await register(server, { redirect_uris: [CALLBACK] });
    const tokens = (await exchange(server, used.client_id, await approve(server, used.client_id))).body;
    server.clock.advance(24 * 60 * 60_000 + 1000);
    expect((await register(server, { redirect_uris: [CALLBACK] })).status).toBe(201); // sweeps

    const gone = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: 'slr_x', client_id: unused.client_id });
    expect(gone.status).toBe(401);
    expect(gone.body.error).toBe('invalid_client');
    const page = await fetch(authorizeUrl(server, { response_type: 'code', client_id: unused.client_id, redirect_uri: CALLBACK }));
    expect(page.status).toBe(400);
    const kept = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: used.client_id });
    expect(kept.status).toBe(200);
  });
});

describe('client ID metadata documents: refusals', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await server.app.ctx.store.settings.block('blocked.example.com', server.clock.now());
  });
  afterAll(() => server.stop());

  it.each([
    ['plain http', 'http://app.example.com/client.json'],
    ['an IPv4 literal', 'https://127.0.0.1/client.json'],
    ['a private IPv4', 'https://10.0.0.1/client.json'],
    ['an IPv6 literal', 'https://[::1]/client.json'],
    ['localhost', 'https://localhost/client.json'],
    ['a single-label name', 'https://intranet/client.json'],
    ['a .local name', 'https://printer.local/client.json'],
    ['no path', 'https://app.example.com/'],
    ['a non-normalized URL', 'https://App.Example.com/client.json'],
    ['credentials', 'https://user@app.example.com/client.json'],
    ['a fragment', 'https://app.example.com/client.json#x'],
    ['a blocked domain', 'https://apps.blocked.example.com/client.json'],
  ])('%s: 401 invalid_client at /token, a page at /authorize', async (_what, clientId) => {
    const res = await tokenRequest(server, { grant_type: 'authorization_code', client_id: clientId, code: 'x', code_verifier: 'y'.repeat(43), redirect_uri: CALLBACK });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    const person = await server.person();
    const page = await fetch(authorizeUrl(server, { response_type: 'code', client_id: clientId, redirect_uri: CALLBACK }), {
      headers: { cookie: await browserOf(server, person.personId) },
      redirect: 'manual',
    });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
  });
});

describe('client ID metadata documents: fetching (loopback stand-in, test-only option)', () => {
  let server: TestServer;
  let standIn: DocumentHost;
  let base: string;
  let hits: Map<string, number>;
  let routes: DocumentHost['routes'];
  /** Answers a JSON document; a function is called at request time (after `base` is known). */
  const json = (body: unknown, headers: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(typeof body === 'function' ? body() : body));
  };
  const doc = (path: string, extra: Record<string, unknown> = {}) => ({
    client_id: `${base}${path}`, client_name: 'Stand-in Assistant', redirect_uris: [CALLBACK], ...extra,
  });

  beforeAll(async () => {
    standIn = await startDocumentHost();
    ({ base, hits, routes } = standIn);
    server = await startServer({ oauth: { metadataDocuments: { testOnlyAllowLoopbackHttp: true, timeoutMs: 300 } } });
  });
  afterAll(async () => {
    await server.stop();
    await standIn.close();
  });

  async function open(clientId: string, redirect = CALLBACK): Promise<Response> {
    const person = await server.person();
    return fetch(authorizeUrl(server, {
      response_type: 'code', client_id: clientId, redirect_uri: redirect, code_challenge: pkce().challenge, code_challenge_method: 'S256',
    }), { headers: { cookie: await browserOf(server, person.personId) }, redirect: 'manual' });
  }

  it('signs in a client known by its document: consent names it and its id, tokens work on /mcp', async () => {
    routes.set('/good.json', json(() => doc('/good.json')));
    const clientId = `${base}/good.json`;
    const page = await open(clientId);
    const html = await page.text();
    expect(page.status).toBe(200);
    // Headlined by the host its document was fetched from; its self-chosen name is shown as unverified.
    expect(html).toContain(`Allow ${new URL(clientId).host} to use shortlinks as you?`);
    expect(html).toContain('calls itself “Stand-in Assistant”; that name is unverified');
    expect(html).toContain(`identified by <code>${clientId}</code>`);
    const grant = await approve(server, clientId);
    const res = await exchange(server, clientId, grant);
    expect(res.status).toBe(200);
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${res.body.access_token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(mcp.status).toBe(200);
  });

  it('keeps a fetched document for its max-age (at least 5 minutes), then fetches it again', async () => {
    routes.set('/cached.json', json(() => doc('/cached.json'), { 'cache-control': 'max-age=600' }));
    const clientId = `${base}/cached.json`;
    expect((await open(clientId)).status).toBe(200);
    expect((await open(clientId)).status).toBe(200);
    expect(hits.get('/cached.json')).toBe(1);
    server.clock.advance(601_000);
    expect((await open(clientId)).status).toBe(200);
    expect(hits.get('/cached.json')).toBe(2);
  });

  it('validates the redirect URI against the document', async () => {
    routes.set('/strict.json', json(() => doc('/strict.json')));
    const res = await open(`${base}/strict.json`, 'http://127.0.0.1:33418/elsewhere');
    expect(res.status).toBe(400);
  });

  it.each([
    ['another client_id inside', '/other-id.json', json(() => doc('/someone-else.json')), "not the address it was fetched from"],
    ['a redirect (not followed)', '/moved.json', (_req: IncomingMessage, res: ServerResponse) => res.writeHead(302, { location: '/good.json' }).end(), 'answered 302'],
    ['a 404', '/missing.json', undefined, 'answered 404'],
    ['not JSON', '/text.json', (_req: IncomingMessage, res: ServerResponse) => res.writeHead(200).end('hello'), 'not JSON'],
    ['a secret inside', '/secret.json', json(() => doc('/secret.json', { client_secret: 's' })), 'must not carry a client secret'],
    ['a bad redirect URI inside', '/bad-uri.json', json(() => doc('/bad-uri.json', { redirect_uris: ['javascript:alert(1)'] })), 'not allowed'],
    ['an auth method with a secret', '/basic.json', json(() => doc('/basic.json', { token_endpoint_auth_method: 'client_secret_basic' })), 'Only token_endpoint_auth_method'],
    ['over 16 KiB with a length', '/big.json', json(() => doc('/big.json', { padding: 'x'.repeat(17_000) })), 'over 16384 bytes'],
    ['over 16 KiB, chunked', '/chunked.json', (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 20; i++) res.write('x'.repeat(1024));
      res.end();
    }, 'over 16384 bytes'],
    ['no answer in time', '/slow.json', () => undefined, 'took too long'],
  ])('refuses %s', async (_what, path, route, reason) => {
    // After its first failure the stand-in is a failing host, fetched twice a minute: each case in a minute of its own.
    server.clock.advance(61_000);
    if (route) routes.set(path, route);
    const res = await open(`${base}${path}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(reason);
    const token = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: 'slr_x', client_id: `${base}${path}` });
    expect(token.status).toBe(401);
    expect(token.body.error).toBe('invalid_client');
  });
});

describe('the metadata document fetcher', () => {
  it('refuses a public-looking name that resolves to a private address (checked when connecting)', async () => {
    const documents = metadataDocuments({ resolve: async () => [{ address: '10.0.0.5', family: 4 }] });
    await expect(documents.fetch('https://cimd.example.com/client.json')).rejects.toThrow('resolves to a private address');
  });

  it('refuses a name with one private address among public ones', async () => {
    const documents = metadataDocuments({
      resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: 'fd00::1', family: 6 }],
    });
    await expect(documents.fetch('https://cimd.example.com/client.json')).rejects.toThrow('resolves to a private address');
  });

  it('without the test-only option, refuses loopback http', async () => {
    await expect(metadataDocuments().fetch('http://127.0.0.1:9/client.json')).rejects.toThrow('https');
  });

  it.each([
    ['10.1.2.3', false], ['172.16.0.1', false], ['192.168.1.1', false], ['127.0.0.1', false], ['169.254.169.254', false],
    ['100.64.0.1', false], ['0.0.0.0', false], ['::1', false], ['fe80::1', false], ['fc00::1', false], ['::ffff:10.0.0.1', false],
    ['93.184.216.34', true], ['2606:2800:220:1:248:1893:25c8:1946', true], ['not an ip', false],
  ])('isPublicAddress(%s) is %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
