import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startServer, type TestServer } from '../helpers/server.js';

/**
 * The web app in a real browser (Debian's chromium, driven by playwright-core), with JavaScript off as far as the
 * pages go (they have none): sign up, agree to the terms, make a team, make a token, and use it on the API.
 */
const SCREENSHOT = join(tmpdir(), 'shortlinks-dashboard.png');

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the web app in a browser', () => {
  it('signs up, agrees, makes a team and a token, and the token works on the API', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/`);
      await page.getByRole('link', { name: 'Sign up' }).first().click();
      await page.getByLabel('Email', { exact: true }).fill('browser@example.com');
      await page.getByLabel('Password', { exact: true }).fill('a good long password');
      await page.getByRole('button', { name: 'Sign up' }).click();

      await page.waitForURL(`${server.url}/welcome`);
      await page.getByLabel('I agree to the terms', { exact: true }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${server.url}/app`);

      await page.getByRole('navigation').getByRole('link', { name: 'Teams' }).click();
      await page.getByLabel('Team name', { exact: true }).fill('Browser team');
      await page.getByRole('button', { name: 'Make team' }).click();
      await page.waitForURL(/\/teams\/team_[A-Za-z0-9]+\?done=made$/);
      const teamId = /\/teams\/(team_[A-Za-z0-9]+)/.exec(page.url())![1]!;
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Browser team');

      await page.getByRole('navigation').getByRole('link', { name: 'Developers' }).click();
      await page.getByLabel('Team', { exact: true }).selectOption(teamId);
      await page.getByLabel('createLink', { exact: true }).check();
      await page.getByLabel('listLinks', { exact: true }).check();
      await page.getByRole('button', { name: 'Make token' }).click();
      const token = await page.getByLabel('Token', { exact: true }).inputValue();
      expect(token).toMatch(/^sl_[A-Za-z0-9]{16}_[A-Za-z0-9]{40}$/);

      const made = await call(server, 'createLink', { team: teamId, destination: 'https://example.com/from-a-browser', name: 'browser-made', note: 'made with a token' }, token);
      expect(made.status).toBe(200);
      expect((await call(server, 'listTeams', {}, token)).status).toBe(403);

      await page.getByRole('navigation').getByRole('link', { name: 'App' }).click();
      await page.getByRole('link', { name: `${server.url}/${made.body.code}`, exact: true }).waitFor({ state: 'visible' });
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${server.url}/`);
      await page.getByRole('link', { name: 'Sign in' }).first().waitFor({ state: 'visible' });
    } finally {
      await context.close();
    }
  });
});
