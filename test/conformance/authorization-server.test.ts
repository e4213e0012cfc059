import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformance } from '../helpers/conformance.js';
import { browserOf, consent, register } from '../helpers/oauth.js';
import { freePort, startServer, type TestServer } from '../helpers/server.js';

/**
 * The conformance suite's authorization-server checks (metadata, and a whole authorization code grant with PKCE
 * and the resource parameter) against our OAuth server. The suite prints an authorization URL and waits on its
 * own loopback callback; the test plays the person's browser: signed in, it approves on the consent page and
 * follows the redirect to the suite's callback.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('MCP conformance suite (authorization server)', () => {
  it('passes authorization-server-metadata-endpoint and authorization-code-grant', async () => {
    const alice = await server.person();
    const port = await freePort();
    const client = await register(server, {
      client_name: 'Conformance suite',
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expect(client.status).toBe(201);
    const cookie = await browserOf(server, alice.personId);

    let browsed: Promise<void> | null = null;
    let printed = '';
    const run = await conformance(
      ['authorization', '--url', server.url, '--client-id', client.body.client_id, '--resource', `${server.url}/mcp`, '-p', String(port)],
      (text) => {
        printed += text;
        const url = /^(http:\/\/\S+\/authorize\?\S+)$/m.exec(printed)?.[1];
        if (url && !browsed) {
          browsed = (async () => {
            const back = await consent(server, cookie, url);
            await fetch(back.url);
          })();
        }
      },
    );
    await browsed;
    expect(run.output).toMatch(/authorization-server-metadata-endpoint: 2 passed, 0 failed/);
    expect(run.output).toMatch(/authorization-code-grant: 1 passed, 0 failed/);
    expect(run.output).toMatch(/Total: 3 passed, 0 failed/);
    expect(run.code, run.output).toBe(0);
  }, 120_000);
});
