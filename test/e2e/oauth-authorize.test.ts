/**
 * `/authorize`: sign-in and the first step first, then a consent page naming the client and where the answer
 * goes; PKCE S256 required, `resource` checked, exact redirect URIs (loopback on any port), `iss` and `state` on
 * every answer. Checklist A4, A5, A8, A11, A12 of shared/research/mcp-oauth.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/support/password.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizeUrl, browserOf, callbackOf, consent, hiddenFields, pkce, register } from '../helpers/oauth.js';

let server: TestServer;
let clientId: string;
let cookie: string;
const CALLBACK = 'http://127.0.0.1:33418/callback';

beforeAll(async () => {
  server = await startServer();
  const { body } = await register(server, {
    client_name: 'Claude <Test> & Co',
    redirect_uris: [CALLBACK, 'https://claude.ai/api/mcp/auth_callback', 'cursor://anysphere.cursor-mcp/oauth/callback'],
  });
  clientId = body.client_id;
  cookie = await browserOf(server, (await server.person()).personId);
  // The person approves the client once, so later errors of its requests go back to it (see below).
  expect((await consent(server, cookie, authorizeUrl(server, params()))).code).toBeTruthy();
});
afterAll(() => server.stop());

function params(overrides: Record<string, string | null> = {}): Record<string, string> {
  const all: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CALLBACK,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: `${server.url}/mcp`,
    scope: 'links',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null));
}

function open(query: Record<string, string>, as: string | null = cookie): Promise<Response> {
  return fetch(authorizeUrl(server, query), { headers: as ? { cookie: as } : {}, redirect: 'manual' });
}

/**
 * The error answered on the redirect URI, with state and iss. Errors go back automatically only to a client the
 * person approved before (this person approved it in beforeAll); for a client not
 * approved yet they are shown on our own page (test/e2e/oauth-hardening.test.ts).
 */
async function expectRedirectedError(res: Response, error: string, redirect = CALLBACK): Promise<void> {
  expect(res.status).toBe(302);
  const back = callbackOf(res.headers.get('location')!);
  expect(back.url.origin + back.url.pathname).toBe(redirect);
  expect(back).toMatchObject({ error, code: null, state: 'st-1', iss: server.url });
  expect(back.url.searchParams.get('error_description')).toEqual(expect.any(String));
}

describe('signing in first', () => {
  it('signed out: to /signin, coming back to the same authorization request', async () => {
    const query = params();
    const res = await open(query, null);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/signin');
    const next = location.searchParams.get('next')!;
    expect(next.startsWith('/authorize?')).toBe(true);
    expect(Object.fromEntries(new URL(next, server.url).searchParams)).toEqual(query);
  });

  it('through the real sign-in page: back to the consent page, signed in', async () => {
    const email = `signin-${Date.now()}@example.com`;
    await server.app.ctx.store.people.add({ email, passwordHash: await hashPassword('correct horse battery'), agreedTerms: true }, server.clock.now());
    const first = await open(params(), null);
    const signin = new URL(first.headers.get('location')!, server.url);
    const form = await fetch(signin);
    const formCookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const signedIn = await fetch(`${server.url}/signin`, {
      method: 'POST',
      headers: { cookie: formCookie, 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ _csrf: csrf, email, password: 'correct horse battery', next: signin.searchParams.get('next')! }),
      redirect: 'manual',
    });
    expect(signedIn.status).toBe(303);
    const back = signedIn.headers.get('location')!;
    expect(back).toBe(signin.searchParams.get('next'));
    const session = signedIn.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('sl_session='))!;
    const consentPage = await fetch(new URL(back, server.url), { headers: { cookie: session }, redirect: 'manual' });
    expect(consentPage.status).toBe(200);
    expect(await consentPage.text()).toContain(email);
  });

  it('before the first step: to /welcome, coming back the same way', async () => {
    const newcomer = await server.person({ agreed: false });
    const res = await open(params(), await browserOf(server, newcomer.personId));
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/welcome');
    expect(location.searchParams.get('next')).toMatch(/^\/authorize\?/);
  });
});

describe('the consent page', () => {
  it('names the client (escaped), the person, what it may do and the redirect host; no framing, no caching', async () => {
    const res = await open(params({ redirect_uri: 'https://claude.ai/api/mcp/auth_callback' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('Allow Claude &lt;Test&gt; &amp; Co to use shortlinks as you?');
    expect(html).not.toContain('<Test>');
    expect(html).toContain('<strong>claude.ai</strong>');
    expect(html).toMatch(/@example\.com/);
    expect(html).toContain('See, make, change and delete the links of your teams');
    expect(html).toContain('name="decision" value="approve"');
    expect(html).toContain('name="decision" value="deny"');
    expect(hiddenFields(html)._csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('shows a loopback redirect as an app on the person\'s own computer, and a private-use scheme as an app', async () => {
    expect(await (await open(params())).text()).toContain('127.0.0.1:33418 (an app on your own computer)');
    const cursor = await open(params({ redirect_uri: 'cursor://anysphere.cursor-mcp/oauth/callback' }));
    expect(await cursor.text()).toContain('cursor://anysphere.cursor-mcp (an app on your device)');
  });

  it('asks only for reading when the client asks for links:read', async () => {
    const html = await (await open(params({ scope: 'links:read' }))).text();
    expect(html).toContain('See your teams and their links and click counts.');
    expect(html).not.toContain('See, make, change');
  });

  it('ignores scopes it does not know, granting links when none is left', async () => {
    const html = await (await open(params({ scope: 'openid offline_access' }))).text();
    expect(html).toContain('See, make, change and delete');
    expect(hiddenFields(html).scope).toBe('openid offline_access');
  });

  it('refuses an answer without the form\'s CSRF field, or from another site: 403', async () => {
    const html = await (await open(params())).text();
    const fields = hiddenFields(html);
    const post = (body: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/authorize`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(body),
        redirect: 'manual',
      });
    const { _csrf: _, ...withoutCsrf } = fields;
    expect((await post({ ...withoutCsrf, decision: 'approve' })).status).toBe(403);
    expect((await post({ ...fields, _csrf: 'x'.repeat(43), decision: 'approve' })).status).toBe(403);
    expect((await post({ ...fields, decision: 'approve' }, { origin: 'https://evil.example' })).status).toBe(403);
    const ok = await post({ ...fields, decision: 'approve' }, { origin: server.url });
    expect(ok.status).toBe(303);
    expect(callbackOf(ok.headers.get('location')!)).toMatchObject({ state: 'st-1', iss: server.url });
  });
});

describe('PKCE (A4)', () => {
  it('a missing code_challenge: invalid_request on the redirect URI', async () => {
    await expectRedirectedError(await open(params({ code_challenge: null })), 'invalid_request');
  });

  it('no code_challenge_method, which RFC 7636 reads as plain: invalid_request', async () => {
    await expectRedirectedError(await open(params({ code_challenge_method: null })), 'invalid_request');
  });

  it('code_challenge_method plain: invalid_request', async () => {
    await expectRedirectedError(await open(params({ code_challenge_method: 'plain' })), 'invalid_request');
  });

  it('a malformed code_challenge: invalid_request', async () => {
    await expectRedirectedError(await open(params({ code_challenge: 'short' })), 'invalid_request');
  });
});

describe('other parameters', () => {
  it('a response_type other than code: unsupported_response_type', async () => {
    await expectRedirectedError(await open(params({ response_type: 'token' })), 'unsupported_response_type');
  });

  it.each([
    ['another server', 'https://elsewhere.example/mcp'],
    ['our origin without /mcp', 'PUBLIC'],
    ['another path', 'PUBLIC/v1'],
  ])('a resource of %s: invalid_target', async (_what, value) => {
    await expectRedirectedError(await open(params({ resource: value.replace('PUBLIC', server.url) })), 'invalid_target');
  });

  it('a resource with one trailing slash, or none at all, is ours', async () => {
    expect((await open(params({ resource: `${server.url}/mcp/` }))).status).toBe(200);
    expect((await open(params({ resource: null }))).status).toBe(200);
  });

  it('a parameter sent twice: invalid_request', async () => {
    const url = authorizeUrl(server, params());
    url.searchParams.append('scope', 'links:read');
    const res = await fetch(url, { headers: { cookie }, redirect: 'manual' });
    await expectRedirectedError(res, 'invalid_request');
  });
});

describe('clients and redirect URIs (A5)', () => {
  it('an unknown client: a page, never a redirect', async () => {
    const res = await open(params({ client_id: 'oc_AAAAAAAAAAAAAAAA' }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('The application is not known here.');
  });

  it('a redirect URI that was not registered: a page, never a redirect', async () => {
    for (const uri of ['https://evil.example/callback', 'https://claude.ai/api/mcp/auth_callback/', 'http://127.0.0.1:33418/other', 'http://localhost:33418/callback']) {
      const res = await open(params({ redirect_uri: uri }));
      expect(res.status, uri).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('no redirect URI: a page', async () => {
    expect((await open(params({ redirect_uri: null }))).status).toBe(400);
  });

  it('a loopback redirect URI matches on any port', async () => {
    for (const port of [1024, 33419, 65535]) {
      expect((await open(params({ redirect_uri: `http://127.0.0.1:${port}/callback` }))).status).toBe(200);
    }
  });

  it('a port-less loopback registration matches any port (Claude Code)', async () => {
    const { body } = await register(server, { redirect_uris: ['http://localhost/callback'] });
    const res = await open(params({ client_id: body.client_id, redirect_uri: 'http://localhost:41234/callback' }));
    expect(res.status).toBe(200);
  });
});

describe('the answer', () => {
  it('carries code, state and iss to the exact redirect URI, keeping its own query', async () => {
    const { body } = await register(server, { redirect_uris: ['https://chatgpt.com/connector/oauth/abc?x=1'] });
    const res = await open(params({ client_id: body.client_id, redirect_uri: 'https://chatgpt.com/connector/oauth/abc?x=1' }));
    const fields = hiddenFields(await res.text());
    const answer = await fetch(`${server.url}/authorize`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, decision: 'approve' }),
      redirect: 'manual',
    });
    const back = callbackOf(answer.headers.get('location')!);
    expect(back.url.origin + back.url.pathname).toBe('https://chatgpt.com/connector/oauth/abc');
    expect(back.url.searchParams.get('x')).toBe('1');
    expect(back).toMatchObject({ state: 'st-1', iss: server.url, error: null });
    expect(back.code).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('without state when the request had none', async () => {
    const fields = hiddenFields(await (await open(params({ state: null }))).text());
    const answer = await fetch(`${server.url}/authorize`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, decision: 'approve' }),
      redirect: 'manual',
    });
    const back = callbackOf(answer.headers.get('location')!);
    expect(back.state).toBeNull();
    expect(back.code).toBeTruthy();
    expect(back.iss).toBe(server.url);
  });
});
