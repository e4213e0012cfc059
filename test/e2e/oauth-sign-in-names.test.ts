/**
 * Issue 22, item 7: the sign-in page an assistant's OAuth sign-in sends a person to names the assistant, as the
 * consent page does (a registered client by the name it gave, escaped; a metadata document client by the host of
 * its client_id), so the person knows what they are signing in for. Any other `next` names nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizeUrl, pkce, register } from '../helpers/oauth.js';

const CALLBACK = 'http://127.0.0.1:33418/callback';
let server: TestServer;
let clientId: string;

beforeAll(async () => {
  server = await startServer();
  const { body } = await register(server, { client_name: 'Claude <Test> & Co', redirect_uris: [CALLBACK] });
  clientId = body.client_id;
});
afterAll(() => server.stop());

const params = (client: string) => ({ response_type: 'code', client_id: client, redirect_uri: CALLBACK, code_challenge: pkce().challenge, code_challenge_method: 'S256' });

async function signInPage(next: string): Promise<string> {
  const res = await fetch(`${server.url}/signin?next=${encodeURIComponent(next)}`);
  expect(res.status).toBe(200);
  return res.text();
}

describe('the sign-in page of an assistant’s sign-in', () => {
  it('names a registered assistant by its name, escaped, on the page /authorize sends the person to', async () => {
    const sent = await fetch(authorizeUrl(server, params(clientId)), { redirect: 'manual' });
    expect(sent.status).toBe(303);
    const page = await (await fetch(new URL(sent.headers.get('location')!, server.url))).text();
    expect(page).toContain('<h1>Sign in</h1><p>To connect the assistant <strong>Claude &lt;Test&gt; &amp; Co</strong> to your account.</p>');
  });

  it('names a metadata document client by the host of its client_id, on sign-up too', async () => {
    const next = `/authorize?${new URLSearchParams(params('https://assistant.example/oauth/client.json'))}`;
    expect(await signInPage(next)).toContain('<p>To connect the assistant <strong>assistant.example</strong> to your account.</p>');
    const signUp = await (await fetch(`${server.url}/signup?next=${encodeURIComponent(next)}`)).text();
    expect(signUp).toContain('<p>To connect the assistant <strong>assistant.example</strong> to your account.</p>');
  });

  it('names nothing for another next, or a client_id not registered here', async () => {
    expect(await signInPage('/assistants')).not.toContain('To connect');
    expect(await signInPage(`/authorize?${new URLSearchParams(params('not-a-client'))}`)).not.toContain('To connect');
  });
});
