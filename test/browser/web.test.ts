import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { hashPassword } from '../../src/support/password.js';
import { launchBrowser, signIn } from '../helpers/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startServer, type TestServer } from '../helpers/server.js';

/**
 * The web app in a real browser (Debian's chromium, driven by playwright-core), with JavaScript off as far as the
 * pages go (they have none): sign up, agree to the terms, make a team, make a token, and use it on the API.
 */
const SCREENSHOT = join(tmpdir(), 'shortlinks-dashboard.png');
const PASSWORD = 'a good long password';

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
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();

      await page.waitForURL(`${server.url}/welcome`);
      await page.getByLabel('I agree to the terms', { exact: true }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      // In no team yet: the first step is the teams page, to make one or accept an invitation.
      await page.waitForURL(`${server.url}/teams`);
      await page.getByLabel('Team name', { exact: true }).fill('Browser team');
      await page.getByRole('button', { name: 'Make team' }).click();
      await page.waitForURL(/\/teams\/team_[A-Za-z0-9]+\?done=made$/);
      const teamId = /\/teams\/(team_[A-Za-z0-9]+)/.exec(page.url())![1]!;
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Browser team');

      await page.getByRole('navigation').getByRole('link', { name: 'Developers' }).click();
      await page.getByLabel('Team', { exact: true }).selectOption(teamId);
      await page.getByLabel('Label (optional)', { exact: true }).fill('From the browser');
      await page.getByLabel('createLink', { exact: true }).check();
      await page.getByLabel('listLinks', { exact: true }).check();
      await page.getByRole('button', { name: 'Make token' }).click();
      // Post/redirect/get: the answer to the form is the Developers page itself, showing the token once.
      await page.waitForURL(`${server.url}/developers`);
      const token = await page.getByLabel('Token', { exact: true }).inputValue();
      expect(token).toMatch(/^sl_[A-Za-z0-9]{16}_[A-Za-z0-9]{40}$/);
      await page.reload();
      expect(await page.getByLabel('Token', { exact: true }).count()).toBe(0);
      expect(await page.getByRole('row').filter({ hasText: 'From the browser' }).count()).toBe(1);

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

  it('renames a team, and deletes it with its link after confirming; the link stops redirecting', async () => {
    const { store } = server.app.ctx;
    const email = 'doomed@example.com';
    const person = await store.people.add({ email, passwordHash: await hashPassword(PASSWORD), agreedTerms: true }, server.clock.now());
    const team = await store.teams.add({ name: 'Doomed', ownerId: person.id }, server.clock.now());
    const owner = { email, teamId: team.id, token: await server.token(person.id, team.id) };
    const made = await call(server, 'createLink', { team: owner.teamId, destination: 'https://example.com/doomed' }, owner.token);
    expect((await fetch(`${server.url}/${made.body.code}`, { redirect: 'manual' })).status).toBe(302);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await signIn(page, server.url, owner.email, PASSWORD);
      await page.goto(`${server.url}/teams/${owner.teamId}`);
      await page.getByLabel('Team name', { exact: true }).fill('Doomed, renamed');
      await page.getByRole('button', { name: 'Rename team' }).click();
      await page.waitForURL(`${server.url}/teams/${owner.teamId}?done=renamed`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Doomed, renamed');

      await page.getByRole('link', { name: 'Delete this team…' }).click();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete the team “Doomed, renamed”?');
      await page.getByRole('button', { name: 'Delete the team and its 1 link' }).click();
      await page.waitForURL(`${server.url}/teams?done=deleted`);
      expect(await page.getByRole('status').textContent()).toBe('Team deleted, with its links.');
      expect((await fetch(`${server.url}/${made.body.code}`, { redirect: 'manual' })).status).toBe(404);
    } finally {
      await context.close();
    }
  });
});
