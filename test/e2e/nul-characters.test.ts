import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebVisitor } from '../helpers/web-forms.js';

/**
 * U+0000 wherever a caller can put text outside the HTTP API's checked params (random-bodies.test.ts covers
 * those): sign-up and sign-in forms, paths of the web app, and the OAuth endpoints. PostgreSQL text cannot hold it,
 * so these run in the postgres project too, where an unguarded query would answer 500.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('a NUL character outside the API', () => {
  it('in a sign-up or sign-in email is a form error, not a 500', async () => {
    const visitor = new WebVisitor(server.url);
    const signUp = await visitor.submit('/signup', '/signup', { email: 'a\u0000@example.com', password: 'long enough password' });
    expect(signUp.status).toBe(400);
    expect(signUp.body).toContain('Enter an email address');
    const signIn = await visitor.submit('/signin', '/signin', { email: 'a\u0000@example.com', password: 'long enough password' });
    expect(signIn.status).toBeLessThan(500);
    expect(signIn.status).toBeGreaterThanOrEqual(400);
  });

  it('in a path of the web app finds nothing', async () => {
    const visitor = new WebVisitor(server.url);
    await visitor.newAccountWithToken('nul-paths@example.com');
    for (const path of ['/teams/team_%00abc', '/app/links/ab%00cd', '/set-password/%00']) {
      expect((await visitor.request('GET', path)).status, path).toBeLessThan(500);
    }
  });

  it("in OAuth requests is refused as the client's mistake", async () => {
    const authorize = await fetch(`${server.url}/authorize?response_type=code&client_id=oc_%00x&redirect_uri=https%3A%2F%2Fexample.com%2Fcb&code_challenge=x&code_challenge_method=S256`, { redirect: 'manual' });
    expect(authorize.status).toBeLessThan(500);
    const token = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'oc_\u0000x', code: 'a\u0000b', code_verifier: 'x', redirect_uri: 'https://example.com/cb' }).toString(),
    });
    expect(token.status).toBe(401); // invalid_client: no client has that id (RFC 6749 §5.2)
    const register = await fetch(`${server.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'a\u0000b', redirect_uris: ['https://example.com/cb\u0000'] }),
    });
    expect(register.status).toBe(400);
    const revoke = await fetch(`${server.url}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'a\u0000b', client_id: 'oc_\u0000x' }).toString(),
    });
    expect(revoke.status).toBeLessThan(500);
  });
});
