import { tmpdir } from 'node:os';
import { join } from 'node:path';
/**
 * The sign-in of an assistant in a real browser (Debian's chromium, driven by playwright-core, JavaScript off):
 * the authorization request sends the person to sign in, back to the consent page, and Approve lands on the
 * client's loopback callback with a code that gives working tokens. Then the person disconnects the assistant
 * on the connected assistants page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/support/password.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizeUrl, pkce, register, tokenRequest } from '../helpers/oauth.js';

const SCREENSHOT = join(tmpdir(), 'shortlinks-consent.png');

let server: TestServer;
let browser: Browser;
let callback: Server;
let callbackUrl: string;
const arrived: URL[] = [];

beforeAll(async () => {
  server = await startServer();
  // The assistant's own loopback callback, as a native client runs one.
  callback = createServer((req, res) => {
    arrived.push(new URL(req.url!, callbackUrl));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Signed in; you can close this window.</p>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  callback?.closeAllConnections();
  await new Promise((resolve) => callback?.close(resolve));
  await server?.stop();
});

function mcpStatus(token: string): Promise<number> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } } }),
  }).then((res) => res.status);
}

describe('an assistant signs in through the browser', () => {
  it('sign in, approve on the consent page, get tokens; then disconnect on the assistants page', async () => {
    const email = 'consent@example.com';
    await server.app.ctx.store.people.add({ email, passwordHash: await hashPassword('a good long password'), agreedTerms: true }, server.clock.now());
    const { body: client } = await register(server, { client_name: 'Browser Assistant', redirect_uris: ['http://127.0.0.1/callback'] });
    const { verifier, challenge } = pkce();
    const start = authorizeUrl(server, {
      response_type: 'code', client_id: client.client_id, redirect_uri: callbackUrl, code_challenge: challenge,
      code_challenge_method: 'S256', state: 'browser-state', resource: `${server.url}/mcp`, scope: 'links',
    });

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(start.href);
      await page.waitForURL(/\/signin\?next=/);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('a good long password');
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page.waitForURL(/\/authorize\?/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Allow Browser Assistant to use shortlinks as you?');
      await expect(page.getByText(/an app on your own computer/).first().isVisible()).resolves.toBe(true);
      await page.setViewportSize({ width: 1000, height: 800 });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      await page.getByRole('button', { name: 'Approve' }).click();

      await page.waitForURL(/\/callback\?/);
      const back = arrived.filter((url) => url.pathname === '/callback').at(-1)!; // not the browser's /favicon.ico
      expect(back.searchParams.get('state')).toBe('browser-state');
      expect(back.searchParams.get('iss')).toBe(server.url);
      const tokens = await tokenRequest(server, {
        grant_type: 'authorization_code', client_id: client.client_id, code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: callbackUrl,
      });
      expect(tokens.status).toBe(200);
      expect(await mcpStatus(tokens.body.access_token)).toBe(200);

      await page.goto(`${server.url}/assistants`);
      await page.getByRole('cell', { name: 'Browser Assistant', exact: true }).waitFor({ state: 'visible' });
      await page.getByRole('link', { name: 'Disconnect Browser Assistant…' }).click();
      await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
      await page.waitForURL(/\/assistants\?disconnected=1$/);
      await page.getByText('No assistant is connected.').waitFor({ state: 'visible' });
      expect(await mcpStatus(tokens.body.access_token)).toBe(401);
    } finally {
      await context.close();
    }
  });
});
