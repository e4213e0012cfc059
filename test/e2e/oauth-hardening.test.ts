/**
 * Security findings of the authorization server, each pinned by a test on the real server: client confusion at
 * /token, /authorize as an open redirector, client ID metadata document fetches as an amplifier, re-approval
 * with narrower scopes, 500 HTML answers of /token, missing page headers, unverified document names as
 * headlines, and IPv6 forms of private IPv4 addresses.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import OAuth2Server from '@node-oauth/oauth2-server';
import { clientDirectory } from '../../src/oauth/clients.js';
import { metadataDocuments } from '../../src/oauth/metadata-documents.js';
import { oauthModel } from '../../src/oauth/model.js';
import { isPublicAddress } from '../../src/destinations/public-lookup.js';
import { cryptoRandom } from '../../src/domain/random.js';
import { processLog } from '../../src/observability/logger.js';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  authorizeUrl,
  basicHeader,
  browserOf,
  callbackOf,
  consent,
  hiddenFields,
  mcpStatus,
  pkce,
  register,
  signIn,
  tokenRequest,
  startDocumentHost,
  type DocumentHost,
} from '../helpers/oauth.js';

const CALLBACK = 'http://127.0.0.1:33418/callback';
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

function headersOf(res: Response, names: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(names.map((name) => [name, res.headers.get(name)]));
}

/**
 * A Basic header naming `id` with some wrong secret whose standard base64 has "+" or "/", sent as base64url
 * (so it has "-" or "_"): oauth2-server's parser (basic-auth) reads it, a strict one refuses it.
 */
function forgedBasic(id: string): string {
  for (let i = 0; ; i++) {
    const secret = `${'x'.repeat(i % 3)}~~${i}`;
    if (/[+/]/.test(basicHeader(id, secret))) return basicHeader(id, secret, { urlSafe: true });
  }
}

describe('1. /token authenticates the client it acts for (no client confusion)', () => {
  let server: TestServer;
  let confidential: Record<string, any>;
  let publicClient: Record<string, any>;
  let refreshToken: string;

  beforeAll(async () => {
    server = await startServer();
    confidential = (await register(server, { client_name: 'Confidential', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_basic' })).body;
    publicClient = (await register(server, { client_name: 'Attacker', redirect_uris: [CALLBACK] })).body;
    const cookie = await browserOf(server, (await server.person()).personId);
    const tokens = await signIn(server, cookie, confidential.client_id, { headers: { authorization: basicHeader(confidential.client_id, confidential.client_secret) } });
    expect(tokens.status).toBe(200);
    refreshToken = tokens.body.refresh_token;
  });
  afterAll(() => server.stop());

  it("a stolen refresh token of a confidential client cannot be refreshed as another client with a base64url Basic header: 401", async () => {
    const res = await tokenRequest(
      server,
      { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: publicClient.client_id },
      { authorization: forgedBasic(confidential.client_id) },
    );
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  it('Basic credentials that are not strict standard base64 are refused, even with the right secret', async () => {
    const right = basicHeader(confidential.client_id, confidential.client_secret);
    for (const authorization of [
      right.replace(/=+$/, '') + '!', // stray character
      right.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), // base64url, unpadded
      `Basic ${Buffer.from(confidential.client_id).toString('base64')}`, // no colon
      'Basic',
    ]) {
      const res = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: 'slr_x' }, { authorization });
      expect(res.status, authorization).toBe(401);
      expect(res.body.error).toBe('invalid_client');
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="shortlinks"');
    }
  });

  it('a refresh token of one client does not work for another client: invalid_grant', async () => {
    const res = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: publicClient.client_id });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it("the token endpoint's model checks the secret itself (constant time, hashed)", async () => {
    const { store, clock } = server.app.ctx;
    const clients = clientDirectory({ oauth: store.oauth, settings: store.settings, clock, documents: metadataDocuments() });
    const deps = { store: store.oauth, clock, random: cryptoRandom, clients, resource: `${server.url}/mcp` };
    const model = oauthModel({ ...deps, authenticatesClients: true });
    await expect(model.getClient(confidential.client_id, 'slcs_wrong')).rejects.toBeInstanceOf(OAuth2Server.InvalidClientError);
    await expect(model.getClient(confidential.client_id, undefined as unknown as string)).rejects.toBeInstanceOf(OAuth2Server.InvalidClientError);
    await expect(model.getClient(confidential.client_id, confidential.client_secret)).resolves.toMatchObject({ id: confidential.client_id });
    await expect(model.getClient(publicClient.client_id, undefined as unknown as string)).resolves.toMatchObject({ id: publicClient.client_id });
    // /authorize's model: clients send no secret there.
    const authorizer = oauthModel({ ...deps, authenticatesClients: false });
    await expect(authorizer.getClient(confidential.client_id, null as unknown as string)).resolves.toMatchObject({ id: confidential.client_id });
  });

  it('the right secret still works, by Basic and in the body', async () => {
    const cookie = await browserOf(server, (await server.person()).personId);
    const tokens = await signIn(server, cookie, confidential.client_id, { extra: { client_secret: confidential.client_secret } });
    expect(tokens.status).toBe(200);
    const refreshed = await tokenRequest(
      server,
      { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token },
      { authorization: basicHeader(confidential.client_id, confidential.client_secret) },
    );
    expect(refreshed.status).toBe(200);
  });
});

describe('2. /authorize is no open redirector (RFC 9700 §4.11.1)', () => {
  let server: TestServer;
  let clientId: string;
  const PHISH = 'https://evil.example/phish';

  beforeAll(async () => {
    server = await startServer();
    clientId = (await register(server, { client_name: 'Totally legit', redirect_uris: [PHISH] })).body.client_id;
  });
  afterAll(() => server.stop());

  const params = (overrides: Record<string, string | null> = {}) => {
    const all: Record<string, string | null> = {
      response_type: 'code', client_id: clientId, redirect_uri: PHISH, code_challenge: pkce().challenge, code_challenge_method: 'S256',
      state: 'st', ...overrides,
    };
    return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null));
  };
  const open = (url: URL, cookie?: string) => fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });

  async function expectShown(res: Response, error: string): Promise<void> {
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(headersOf(res, Object.keys(PAGE_HEADERS))).toEqual(PAGE_HEADERS);
    const html = await res.text();
    expect(html).toContain('This sign-in link does not work');
    const link = /<a href="([^"]+)" rel="noreferrer">Return to evil\.example<\/a>/.exec(html);
    expect(link, html).not.toBeNull();
    const back = callbackOf(link![1]!.replace(/&amp;/g, '&'));
    expect(back).toMatchObject({ error, state: 'st', iss: server.url, code: null });
  }

  it.each([
    ['no response_type', { response_type: null }, 'unsupported_response_type'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no code_challenge', { code_challenge: null }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['another resource', { resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
  ])('%s, signed out: shown on our page, not redirected', async (_what, overrides, error) => {
    await expectShown(await open(authorizeUrl(server, params(overrides))), error);
  });

  it('a repeated parameter, signed in but never approved: shown, not redirected', async () => {
    const cookie = await browserOf(server, (await server.person()).personId);
    const url = authorizeUrl(server, params());
    url.searchParams.append('scope', 'links');
    url.searchParams.append('scope', 'links:read');
    await expectShown(await open(url, cookie), 'invalid_request');
  });

  it('the consent form answers Deny on the redirect URI, with state and iss', async () => {
    const cookie = await browserOf(server, (await server.person()).personId);
    const back = await consent(server, cookie, authorizeUrl(server, params()), 'deny');
    expect(back.url.origin + back.url.pathname).toBe(PHISH);
    expect(back).toMatchObject({ error: 'access_denied', state: 'st', iss: server.url });
  });

  it('an error after the consent form (a tampered field) goes back from the POST, with iss', async () => {
    const cookie = await browserOf(server, (await server.person()).personId);
    const page = await open(authorizeUrl(server, params()), cookie);
    const fields = hiddenFields(await page.text());
    const res = await fetch(`${server.url}/authorize`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ ...fields, resource: 'https://elsewhere.example/mcp', decision: 'approve' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(callbackOf(res.headers.get('location')!)).toMatchObject({ error: 'invalid_target', state: 'st', iss: server.url });
  });

  it('for a client this person approved before, errors go back to it (302, with state and iss)', async () => {
    const cookie = await browserOf(server, (await server.person()).personId);
    expect((await consent(server, cookie, authorizeUrl(server, params()))).code).toBeTruthy();
    const res = await open(authorizeUrl(server, params({ code_challenge: null })), cookie);
    expect(res.status).toBe(302);
    const back = callbackOf(res.headers.get('location')!);
    expect(back.url.origin + back.url.pathname).toBe(PHISH);
    expect(back).toMatchObject({ error: 'invalid_request', state: 'st', iss: server.url });
    // Another person has not approved it: shown.
    const stranger = await browserOf(server, (await server.person()).personId);
    await expectShown(await open(authorizeUrl(server, params({ code_challenge: null })), stranger), 'invalid_request');
  });
});

describe('3. client ID metadata document fetches are bounded', () => {
  let server: TestServer;
  let standIn: DocumentHost;
  let base: string;
  let hits: Map<string, number>;
  let routes: DocumentHost['routes'];
  const doc = (path: string, name = 'Stand-in') => ({ client_id: `${base}${path}`, client_name: name, redirect_uris: [CALLBACK] });
  const serve = (path: string, delayMs = 0) =>
    routes.set(path, (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc(path))), delayMs);
    });
  // Two more hosts with a valid document at every path: 20 fetches of new clients are more than one host's 10.
  let spares: DocumentHost[];
  const fetchable = (i: number) => `${spares[i % 2]!.base}/c/${i}`;

  beforeAll(async () => {
    standIn = await startDocumentHost();
    ({ base, hits, routes } = standIn);
    const anyPath = (req: IncomingMessage, res: ServerResponse) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: `http://${req.headers.host}${req.url}`, redirect_uris: [CALLBACK] }));
    spares = [await startDocumentHost(anyPath), await startDocumentHost(anyPath)];
    server = await startServer({
      env: { TRUST_PROXY: '127.0.0.1' },
      oauth: { metadataDocuments: { testOnlyAllowLoopbackHttp: true, timeoutMs: 1000 } },
    });
  });
  afterAll(async () => {
    await server.stop();
    await Promise.all([standIn, ...spares].map((host) => host.close()));
  });

  /** GET /authorize naming `clientId`, from the client address `from` (through the trusted proxy). */
  const open = (clientId: string, from: string, cookie?: string) =>
    fetch(authorizeUrl(server, { response_type: 'code', client_id: clientId, redirect_uri: CALLBACK, code_challenge: pkce().challenge, code_challenge_method: 'S256' }), {
      headers: { 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) },
      redirect: 'manual',
    });

  it('concurrent requests for one client_id share one fetch; no row is stored until a person approves', async () => {
    serve('/shared.json', 150);
    const clientId = `${base}/shared.json`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => open(clientId, '198.51.100.1')));
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(303)); // to sign in
    expect(hits.get('/shared.json')).toBe(1);
    expect(await server.app.ctx.store.oauth.client(clientId)).toBeNull();

    const cookie = await browserOf(server, (await server.person()).personId);
    const tokens = await signIn(server, cookie, clientId);
    expect(tokens.status).toBe(200);
    expect(await server.app.ctx.store.oauth.client(clientId)).toMatchObject({ id: clientId, kind: 'metadata_document', name: 'Stand-in' });
    expect(hits.get('/shared.json')).toBe(1);
  });

  it('a refused document is answered from memory for a minute', async () => {
    const clientId = `${base}/missing.json`;
    for (let i = 0; i < 3; i++) expect((await open(clientId, '198.51.100.2')).status).toBe(400);
    const token = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: 'slr_x', client_id: clientId }, { 'x-forwarded-for': '198.51.100.2' });
    expect(token.status).toBe(401);
    expect(hits.get('/missing.json')).toBe(1);
    server.clock.advance(61_000);
    expect((await open(clientId, '198.51.100.2')).status).toBe(400);
    expect(hits.get('/missing.json')).toBe(2);
  });

  // The per-network, per-host and separate allowances are pinned in oauth-metadata-allowances.test.ts.
  it('20 fetches a minute per client address, then 429 with Retry-After (pages and JSON); other addresses go on', async () => {
    server.clock.advance(61_000);
    for (let i = 0; i < 20; i++) expect((await open(fetchable(i), '198.51.100.3')).status).toBe(303);
    const refused = await open(fetchable(20), '198.51.100.3');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.text()).toContain('Too many client metadata documents were fetched; retry in 60 seconds.');
    const token = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: 'slr_x', client_id: fetchable(21) }, { 'x-forwarded-for': '198.51.100.3' });
    expect(token.status).toBe(429);
    expect(token.headers.get('retry-after')).toBe('60');
    expect(token.body).toEqual({ error: 'too_many_requests', error_description: 'Too many client metadata documents were fetched; retry in 60 seconds.' });
    expect(spares[0]!.hits.get('/c/20')).toBeUndefined();
    serve('/other-address.json'); // each spare host had its 10 this minute
    expect((await open(`${base}/other-address.json`, '198.51.100.4')).status).toBe(303);
    server.clock.advance(61_000);
    expect((await open(fetchable(23), '198.51.100.3')).status).toBe(303);
  });

  it('an id no fetch could accept costs no allowance: junk ids cannot use up anyone\'s', async () => {
    server.clock.advance(61_000);
    const junk = ['http://example.com/c', 'https://10.0.0.1/c', 'https://localhost/c', 'https://intranet.internal/c'];
    for (let i = 0; i < 30; i++) expect((await open(`${junk[i % junk.length]}?${i}`, '198.51.100.7')).status).toBe(400);
    expect((await open(`${base}/after-junk`, '198.51.100.7')).status).toBe(400);
    expect(hits.get('/after-junk')).toBe(1);
  });

  it('a client a person approved goes on with its stored copy past its max-age while fetches are refused', async () => {
    server.clock.advance(61_000);
    serve('/approved.json');
    const clientId = `${base}/approved.json`;
    const cookie = await browserOf(server, (await server.person()).personId);
    expect((await signIn(server, cookie, clientId)).status).toBe(200);
    expect(hits.get('/approved.json')).toBe(1);
    server.clock.advance(61 * 60_000); // past the hour a document without Cache-Control is kept
    for (let i = 0; i < 20; i++) expect((await open(fetchable(100 + i), '198.51.100.8')).status).toBe(303);
    expect((await open(fetchable(120), '198.51.100.8')).status).toBe(429);
    expect((await open(clientId, '198.51.100.8', cookie)).status).toBe(200); // its consent page
    expect(hits.get('/approved.json')).toBe(1);
    // Once fetches are allowed again, the stale copy is fetched anew.
    server.clock.advance(61_000);
    expect((await open(clientId, '198.51.100.8', cookie)).status).toBe(200);
    expect(hits.get('/approved.json')).toBe(2);
  });
});

describe('4. approving an assistant again with narrower scopes narrows what it holds at once', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('earlier tokens with a scope the new approval lacks stop working; tokens within it keep working', async () => {
    const cookie = await browserOf(server, (await server.person()).personId);
    const clientId = (await register(server, { client_name: 'Assistant', redirect_uris: [CALLBACK] })).body.client_id;
    const wide = (await signIn(server, cookie, clientId, { scope: 'links' })).body;
    const narrow = (await signIn(server, cookie, clientId, { scope: 'links:read' })).body;
    expect(narrow.scope).toBe('links:read');

    const refreshWide = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: wide.refresh_token, client_id: clientId });
    expect(refreshWide.status).toBe(400);
    expect(refreshWide.body.error).toBe('invalid_grant');
    expect(await mcpStatus(server, wide.access_token)).toBe(401);

    // The same scopes again: the earlier read-only sign-in (another device, say) keeps working.
    const again = (await signIn(server, cookie, clientId, { scope: 'links:read' })).body;
    expect(await mcpStatus(server, narrow.access_token)).toBe(200);
    const refreshNarrow = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: narrow.refresh_token, client_id: clientId });
    expect(refreshNarrow.status).toBe(200);
    expect(refreshNarrow.body.scope).toBe('links:read');
    expect(await mcpStatus(server, again.access_token)).toBe(200);
  });

  it('an unused code of the wider approval stops working too', async () => {
    const cookie = await browserOf(server, (await server.person()).personId);
    const clientId = (await register(server, { redirect_uris: [CALLBACK] })).body.client_id;
    const { verifier, challenge } = pkce();
    const wideCode = await consent(server, cookie, authorizeUrl(server, {
      response_type: 'code', client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge, code_challenge_method: 'S256', scope: 'links',
    }));
    expect((await signIn(server, cookie, clientId, { scope: 'links:read' })).status).toBe(200);
    const late = await tokenRequest(server, { grant_type: 'authorization_code', client_id: clientId, code: wideCode.code!, code_verifier: verifier, redirect_uri: CALLBACK });
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('invalid_grant');
  });
});

describe('5. /token and /revoke answer JSON, never an HTML 500', () => {
  let server: TestServer;
  let clientId: string;
  beforeAll(async () => {
    server = await startServer();
    clientId = (await register(server, { redirect_uris: [CALLBACK] })).body.client_id;
  });
  afterAll(() => server.stop());

  async function post(path: string, body: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });
    return { status: res.status, type: res.headers.get('content-type'), challenge: res.headers.get('www-authenticate'), body: (await res.text()) };
  }

  it('an unknown client named by client_id alone: 401 invalid_client with a challenge, as every 401 has (RFC 9110)', async () => {
    for (const path of ['/token', '/revoke']) {
      const res = await post(path, 'grant_type=refresh_token&refresh_token=slr_x&token=x&client_id=oc_doesnotexist');
      expect(res.status, path).toBe(401);
      expect(res.challenge, path).toBe('Basic realm="shortlinks"');
      expect(JSON.parse(res.body)).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    }
  });

  it('an unknown client named in a Basic header (base64url, beside a known client_id): 401 invalid_client', async () => {
    for (const path of ['/token', '/revoke']) {
      const res = await post(path, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'slr_x', token: 'x', client_id: clientId }).toString(), {
        authorization: forgedBasic('oc_doesnotexist'),
      });
      expect(res.status, path).toBe(401);
      expect(res.type).toMatch(/^application\/json/);
      expect(JSON.parse(res.body).error).toBe('invalid_client');
    }
  });

  it('an unknown client in a standard Basic header: 401 invalid_client', async () => {
    const res = await post('/token', 'grant_type=refresh_token&refresh_token=slr_x', { authorization: basicHeader('oc_doesnotexist', 'x') });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).error).toBe('invalid_client');
  });

  it('a parameter sent twice: 400 invalid_request', async () => {
    for (const body of [
      `grant_type=refresh_token&refresh_token=slr_a&refresh_token=slr_b&client_id=${clientId}`,
      `grant_type=authorization_code&code=a&code=b&code_verifier=${'v'.repeat(43)}&redirect_uri=x&client_id=${clientId}`,
      `grant_type=refresh_token&grant_type=refresh_token&refresh_token=slr_a&client_id=${clientId}`,
    ]) {
      const res = await post('/token', body);
      expect(res.status, body).toBe(400);
      expect(res.type).toMatch(/^application\/json/);
      expect(JSON.parse(res.body).error).toBe('invalid_request');
    }
  });

  it('a body too large: 413 JSON', async () => {
    for (const path of ['/token', '/revoke']) {
      const res = await post(path, 'a=' + 'x'.repeat(20_000));
      expect(res.status, path).toBe(413);
      expect(JSON.parse(res.body)).toEqual({ error: 'invalid_request', error_description: 'The body is too large.' });
    }
  });

  it('even a failure on our side answers a JSON error object, and logs the fault with its stack', async () => {
    const oauthStore = server.app.ctx.store.oauth;
    const token = oauthStore.token;
    oauthStore.token = async () => {
      throw new Error('disk on fire (test)');
    };
    const logged = vi.spyOn(processLog(), 'error').mockImplementation(() => undefined);
    try {
      for (const [path, body] of [['/revoke', `token=slr_x&client_id=${clientId}`], ['/token', `grant_type=refresh_token&refresh_token=slr_x&client_id=${clientId}`]] as const) {
        const res = await post(path, body);
        expect(res.type, path).toMatch(/^application\/json/);
        expect(JSON.parse(res.body).error).toBe('server_error');
      }
      expect(logged).toHaveBeenCalledTimes(2);
      for (const [fields] of logged.mock.calls) expect((fields as { err: Error }).err.stack).toMatch(/disk on fire \(test\)\n\s+at /);
    } finally {
      oauthStore.token = token;
      logged.mockRestore();
    }
  });
});

describe('6. page headers of the OAuth pages', () => {
  let server: TestServer;
  let cookie: string;
  let clientId: string;
  beforeAll(async () => {
    server = await startServer();
    cookie = await browserOf(server, (await server.person()).personId);
    clientId = (await register(server, { client_name: 'Headers', redirect_uris: [CALLBACK, 'cursor://anysphere.cursor-mcp/oauth/callback'] })).body.client_id;
  });
  afterAll(() => server.stop());

  it('/assistants: the web app page headers (no framing, CSP, nosniff, same-origin referrer, no-store)', async () => {
    const res = await fetch(`${server.url}/assistants`, { headers: { cookie }, redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(headersOf(res, Object.keys(PAGE_HEADERS))).toEqual(PAGE_HEADERS);
  });

  it('error pages: the same headers', async () => {
    const res = await fetch(authorizeUrl(server, { client_id: 'oc_unknown', redirect_uri: CALLBACK }), { headers: { cookie }, redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(headersOf(res, Object.keys(PAGE_HEADERS))).toEqual(PAGE_HEADERS);
  });

  it('the consent page: the same headers, its form-action also allowing where the answer goes', async () => {
    for (const [redirect, source] of [[CALLBACK, 'http://127.0.0.1:33418'], ['cursor://anysphere.cursor-mcp/oauth/callback', 'cursor:']]) {
      const res = await fetch(authorizeUrl(server, { response_type: 'code', client_id: clientId, redirect_uri: redirect!, code_challenge: pkce().challenge, code_challenge_method: 'S256' }), {
        headers: { cookie },
        redirect: 'manual',
      });
      expect(res.status).toBe(200);
      expect(headersOf(res, Object.keys(PAGE_HEADERS))).toEqual({
        ...PAGE_HEADERS,
        'content-security-policy': PAGE_HEADERS['content-security-policy'].replace("form-action 'self'", `form-action 'self' ${source}`),
      });
    }
  });
});

describe('7. a metadata document client is headlined by its host, its self-chosen name marked unverified', () => {
  let server: TestServer;
  let standIn: Server;
  let clientId: string;
  beforeAll(async () => {
    standIn = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: clientId, client_name: 'Claude', redirect_uris: [CALLBACK] }));
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    clientId = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/client.json`;
    server = await startServer({ oauth: { metadataDocuments: { testOnlyAllowLoopbackHttp: true } } });
  });
  afterAll(async () => {
    await server.stop();
    standIn.closeAllConnections();
    await new Promise((resolve) => standIn.close(resolve));
  });

  it('on the consent page and the connected assistants page', async () => {
    const host = new URL(clientId).host;
    const cookie = await browserOf(server, (await server.person()).personId);
    const res = await fetch(authorizeUrl(server, { response_type: 'code', client_id: clientId, redirect_uri: CALLBACK, code_challenge: pkce().challenge, code_challenge_method: 'S256' }), {
      headers: { cookie },
      redirect: 'manual',
    });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain(`<h1>Allow ${host} to use shortlinks as you?</h1>`);
    expect(html).not.toContain('Allow Claude');
    expect(html).toContain('calls itself “Claude”; that name is unverified');
    expect(html).toContain('<strong>127.0.0.1:33418 (an app on your own computer)</strong>');

    expect((await signIn(server, cookie, clientId)).status).toBe(200);
    const page = await (await fetch(`${server.url}/assistants`, { headers: { cookie } })).text();
    expect(page).toContain(`<td data-label="Assistant" class="wrap">${host}<br><span class="muted">calls itself “Claude” (unverified)</span></td>`);
    expect(page).toContain(`aria-label="Disconnect ${host}…"`);
  });
});

describe('8. IPv6 forms of private IPv4 addresses are not public', () => {
  it.each([
    ['::10.0.0.1', false], // IPv4-compatible (::/96)
    ['::8.8.8.8', false],
    ['::a00:1', false],
    ['64:ff9b:1::a00:1', false], // local-use NAT64 (64:ff9b:1::/48)
    ['64:ff9b:1:ffff::1', false],
    ['2002:a00:1::1', false], // 6to4 of 10.0.0.1
    ['2002:7f00:1::', false], // 6to4 of 127.0.0.1
    ['2002:a9fe:a9fe::1', false], // 6to4 of 169.254.169.254
    ['2002::1', false], // 6to4 of 0.0.0.0
    ['2002:5db8:d822::1', true], // 6to4 of 93.184.216.34
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['::ffff:8.8.8.8', true],
  ])('isPublicAddress(%s) is %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('the metadata document fetcher refuses a name resolving to a 6to4 form of a private address', async () => {
    const documents = metadataDocuments({ resolve: async () => [{ address: '2002:a00:1::1', family: 6 }] });
    await expect(documents.fetch('https://cimd.example.com/client.json')).rejects.toThrow('resolves to a private address');
  });
});
