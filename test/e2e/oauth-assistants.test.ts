/**
 * The connected assistants page: the OAuth clients a person allowed (name, where they return to, when allowed,
 * last used) and disconnecting one, which revokes every token it holds at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizeUrl, browserOf, consent, pkce, register, tokenRequest } from '../helpers/oauth.js';

let server: TestServer;
const CALLBACK = 'http://127.0.0.1:33418/callback';

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** A person who connected an assistant named `name`; its tokens. */
async function connected(name: string, cookie?: string, personId?: string) {
  const person = personId ? { personId } : await server.person();
  const browser = cookie ?? (await browserOf(server, person.personId));
  const { body: client } = await register(server, { client_name: name, redirect_uris: [CALLBACK, 'https://claude.ai/api/mcp/auth_callback'] });
  const { verifier, challenge } = pkce();
  const back = await consent(server, browser, authorizeUrl(server, {
    response_type: 'code', client_id: client.client_id, redirect_uri: CALLBACK, code_challenge: challenge, code_challenge_method: 'S256',
  }));
  const tokens = (await tokenRequest(server, {
    grant_type: 'authorization_code', client_id: client.client_id, code: back.code!, code_verifier: verifier, redirect_uri: CALLBACK,
  })).body;
  return { cookie: browser, personId: person.personId, clientId: client.client_id as string, tokens };
}

function mcpStatus(token: string): Promise<number> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
  }).then((res) => res.status);
}

async function page(cookie: string): Promise<string> {
  const res = await fetch(`${server.url}/assistants`, { headers: { cookie }, redirect: 'manual' });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.text();
}

function disconnect(cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/assistants/revoke`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
}

/**
 * The form that disconnects the person's (first) assistant: on the page its Disconnect… link opens, which asks
 * first (the list itself has no form).
 */
async function disconnectForm(cookie: string): Promise<{ _csrf: string; grant: string }> {
  const asks = /href="(\/assistants\/revoke\?grant=[^"]+)"/.exec(await page(cookie))![1]!;
  const res = await fetch(`${server.url}${asks}`, { headers: { cookie }, redirect: 'manual' });
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).toContain('<button type="submit" class="danger">Disconnect</button>');
  return { _csrf: /name="_csrf" value="([^"]+)"/.exec(html)![1]!, grant: /name="grant" value="([^"]+)"/.exec(html)![1]! };
}

describe('the connected assistants page', () => {
  it('signed out: to /signin, coming back here', async () => {
    const res = await fetch(`${server.url}/assistants`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/signin?next=%2Fassistants');
  });

  it('lists the assistants the person allowed, with where they return, when allowed and last used', async () => {
    const first = await connected('Claude');
    await connected('VS <Code>', first.cookie, first.personId);
    server.clock.advance(5 * 60_000);
    expect(await mcpStatus(first.tokens.access_token)).toBe(200);
    const html = await page(first.cookie);
    expect(html).toContain('<h1>Connected assistants</h1>');
    expect(html).toContain('Claude');
    expect(html).toContain('VS &lt;Code&gt;');
    expect(html).toContain('127.0.0.1:33418 (an app on your own computer), claude.ai');
    expect(html).toContain('2026-11-21 12:00 UTC');
    expect(html).toContain('12:05 UTC'); // last used, by the /mcp call
    expect(html).toContain('aria-label="Disconnect Claude…">Disconnect…</a>');
    // Nobody else's assistants.
    const other = await server.person();
    expect(await page(await browserOf(server, other.personId))).toContain('No assistant is connected.');
  });

  it('tells two connections of one assistant apart: first connected and last used, and Disconnect says which', async () => {
    const first = await connected('Twice');
    server.clock.advance(60 * 60_000);
    const second = await connected('Twice', first.cookie, first.personId);
    server.clock.advance(5 * 60_000);
    expect(await mcpStatus(second.tokens.access_token)).toBe(200);
    const html = await page(first.cookie);
    const connectedAt = (at: string) => `aria-label="Disconnect Twice, first connected ${at}`;
    const [one, two] = [/<td data-label="First connected">([^<]+)<\/td>/g].flatMap((re) => [...html.matchAll(re)].map((m) => m[1]!));
    expect([one, two]).toHaveLength(2);
    expect(one).not.toBe(two);
    expect(html).toContain('<th scope="col">First connected</th><th scope="col">Last used</th>');
    expect(html).toContain(connectedAt(one!));
    expect(html).toContain(connectedAt(two!));
    const used = [...html.matchAll(/<td data-label="Last used">([^<]+)<\/td>/g)].map((m) => m[1]);
    expect(new Set(used).size).toBe(2);
  });

  it('disconnecting revokes its access and refresh tokens at once', async () => {
    const alice = await connected('Solo');
    const res = await disconnect(alice.cookie, await disconnectForm(alice.cookie), { origin: server.url });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/assistants?disconnected=1');
    expect(await mcpStatus(alice.tokens.access_token)).toBe(401);
    const refresh = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: alice.tokens.refresh_token, client_id: alice.clientId });
    expect(refresh.body.error).toBe('invalid_grant');
    expect(await page(alice.cookie)).toContain('No assistant is connected.');
  });

  it('refuses a disconnect without the CSRF field: 403, nothing revoked', async () => {
    const bob = await connected('Kept');
    const { grant } = await disconnectForm(bob.cookie);
    const res = await disconnect(bob.cookie, { grant });
    expect(res.status).toBe(403);
    expect(await mcpStatus(bob.tokens.access_token)).toBe(200);
  });

  it("cannot disconnect another person's assistant", async () => {
    const carol = await connected('Carols');
    const mallory = await server.person();
    const malloryCookie = await browserOf(server, mallory.personId);
    const { grant } = await disconnectForm(carol.cookie);
    const { _csrf } = await disconnectForm((await connected('Mallorys', malloryCookie, mallory.personId)).cookie);
    const res = await disconnect(malloryCookie, { _csrf, grant });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/assistants');
    expect(await mcpStatus(carol.tokens.access_token)).toBe(200);
  });

  it('allowing the same client again replaces its scopes: one row', async () => {
    const person = await server.person();
    const cookie = await browserOf(server, person.personId);
    const { body: client } = await register(server, { client_name: 'Twice', redirect_uris: [CALLBACK] });
    for (const scope of ['links:read', 'links']) {
      await consent(server, cookie, authorizeUrl(server, {
        response_type: 'code', client_id: client.client_id, redirect_uri: CALLBACK, code_challenge: pkce().challenge, code_challenge_method: 'S256', scope,
      }));
    }
    const html = await page(cookie);
    expect(html.match(/href="\/assistants\/revoke\?grant=/g)).toHaveLength(1);
    expect(html).toContain('<td data-label="Scopes">links</td>');
  });
});
