import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPasswordLink } from '../../src/auth/password-link.js';
import { hashPassword } from '../../src/support/password.js';
import { launchBrowser, signIn } from '../helpers/browser.js';
import { call, expectProblem, startServer, type TestServer } from '../helpers/server.js';


/**
 * The actions the other browser tests leave out, end to end at a phone's width with JavaScript off: setting a
 * password from a one-time link; inviting members who accept, making one an owner, removing one, leaving; revoking a token;
 * filtering the list by state; and the limit a team hits on the dashboard refusing the API too (one count).
 */
const PASSWORD = 'a good long password';
const PHONE = { width: 390, height: 844 };
let server: TestServer;
let browser: Browser;
let ownerId: string;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ownerId = (await addPerson('owner@example.com')).id;
  await addPerson('member@example.com');
  await addPerson('another@example.com');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function addPerson(email: string) {
  return hashPassword(PASSWORD).then((passwordHash) => server.app.ctx.store.people.add({ email, passwordHash, agreedTerms: true }, server.clock.now()));
}

async function newTeam(name: string): Promise<string> {
  return (await server.app.ctx.store.teams.add({ name, ownerId }, server.clock.now())).id;
}

async function withPage(run: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(5_000);
    await run(page);
  } finally {
    await context.close();
  }
}

const noticeOf = (page: Page) => page.getByRole('status').first().textContent();

describe('the remaining actions in a browser at 390 px without JavaScript', () => {
  it('sets a password from a one-time link, and is signed in with it', async () => {
    const person = await server.app.ctx.store.people.add({ email: 'new@example.com', passwordHash: null, agreedTerms: true }, server.clock.now());
    const link = newPasswordLink(server.url, server.clock.now());
    await server.app.ctx.store.passwordLinks.issue({ personId: person.id, tokenHash: link.tokenHash, expiresAt: link.expiresAt, reset: false }, server.clock.now());
    await withPage(async (page) => {
      await page.goto(link.url);
      await page.getByLabel('New password', { exact: true }).fill('the password I chose');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.waitForURL(`${server.url}/app`);
      expect(await page.getByRole('navigation', { name: 'Main' }).getByText('new@example.com').count()).toBe(1);
      // Spent: the same link now says so.
      await page.goto(link.url);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link cannot be used');
    });
  });

  it('invites two people who accept, makes one an owner, removes the other; the new owner leaves', async () => {
    const team = await newTeam('Crew');
    await withPage(async (page) => {
      await signIn(page, server.url, 'owner@example.com', PASSWORD);
      await page.goto(`${server.url}/teams/${team}`);
      for (const email of ['member@example.com', 'another@example.com', 'not-yet@example.com']) {
        await page.getByLabel('Their email', { exact: true }).fill(email);
        await page.getByRole('button', { name: 'Invite' }).click();
        await page.waitForURL(`${server.url}/teams/${team}?done=invited`);
        expect(await noticeOf(page)).toBe('Invitation made. They join once they accept it on their Teams page, within a week.');
      }
      await page.getByRole('button', { name: 'Take back the invitation of not-yet@example.com' }).click();
      await page.waitForURL(`${server.url}/teams/${team}?done=taken_back`);
      expect(await page.getByRole('row', { name: /not-yet@example\.com/ }).count()).toBe(0);
      expect((await page.evaluate(() => document.documentElement.scrollWidth))).toBeLessThanOrEqual(PHONE.width);
    });
    for (const email of ['member@example.com', 'another@example.com']) {
      await withPage(async (page) => {
        await signIn(page, server.url, email, PASSWORD);
        await page.goto(`${server.url}/teams`);
        await page.getByRole('button', { name: 'Accept: Crew' }).click();
        await page.waitForURL(`${server.url}/teams/${team}?done=joined`);
        expect(await noticeOf(page)).toBe('You joined the team.');
      });
    }
    await withPage(async (page) => {
      await signIn(page, server.url, 'owner@example.com', PASSWORD);
      await page.goto(`${server.url}/teams/${team}`);
      await page.getByRole('button', { name: 'Make owner: member@example.com' }).click();
      await page.waitForURL(`${server.url}/teams/${team}?done=promoted`);
      expect(await page.getByRole('row', { name: /^member@example\.com owner / }).count()).toBe(1);
      // Removing asks first, on a page of its own.
      await page.getByRole('link', { name: 'Remove: another@example.com…' }).click();
      await page.getByRole('heading', { name: 'Remove another@example.com from “Crew”?' }).waitFor({ state: 'visible' });
      await page.getByRole('button', { name: 'Remove them' }).click();
      await page.waitForURL(`${server.url}/teams/${team}?done=removed`);
      expect(await page.getByRole('row', { name: /another@example\.com/ }).count()).toBe(0);
      expect((await page.evaluate(() => document.documentElement.scrollWidth))).toBeLessThanOrEqual(PHONE.width);
    });
    await withPage(async (page) => {
      await signIn(page, server.url, 'member@example.com', PASSWORD);
      await page.goto(`${server.url}/teams/${team}`);
      await page.getByRole('link', { name: 'Leave team…' }).click();
      await page.getByRole('button', { name: 'Leave the team' }).click();
      await page.waitForURL(`${server.url}/teams?done=left`);
      expect(await noticeOf(page)).toBe('You left the team. Your tokens for it stop working until you rejoin.');
      expect(await server.app.ctx.store.teams.isMember(team, (await server.app.ctx.store.people.findByEmail('member@example.com'))!.id)).toBe(false);
    });
  });

  it('revokes a token, which stops working on the API at once', async () => {
    const team = await newTeam('Tokens');
    const token = await server.token(ownerId, team);
    expect((await call(server, 'listTeams', {}, token)).status).toBe(200);
    await withPage(async (page) => {
      await signIn(page, server.url, 'owner@example.com', PASSWORD);
      await page.goto(`${server.url}/developers`);
      const revoke = page.getByRole('link', { name: /^Revoke token .*…$/ });
      expect(await revoke.count()).toBe(1);
      await revoke.click();
      // The token works until the page that asks is answered.
      await page.getByRole('button', { name: 'Revoke the token' }).waitFor({ state: 'visible' });
      expect((await call(server, 'listTeams', {}, token)).status).toBe(200);
      await page.getByRole('button', { name: 'Revoke the token' }).click();
      await page.waitForURL(`${server.url}/developers?done=revoked`);
      expect(await noticeOf(page)).toBe('Token revoked: it stops working at once.');
      expect(await page.getByText('No tokens yet.').count()).toBe(1);
    });
    expect((await call(server, 'listTeams', {}, token)).status).toBe(401);
  });

  it('filters the list by state, and a limit hit on the dashboard refuses the API too', async () => {
    const team = await newTeam('Limits');
    const token = await server.token(ownerId, team);
    const flagged = (await call(server, 'createLink', { team, destination: 'https://example.com/flagged' }, token)).body.code as string;
    await server.app.ctx.store.links.setState(flagged, 'flagged', server.clock.now());
    await server.setLimits({ perHour: 3 });
    await withPage(async (page) => {
      await signIn(page, server.url, 'owner@example.com', PASSWORD);
      const form = page.locator('form[action="/app/links"]');
      for (const n of [1, 2, 3]) {
        await form.getByLabel('Team', { exact: true }).selectOption(team);
        await form.getByLabel('Destination', { exact: true }).fill(`https://example.com/made-${n}`);
        await page.getByRole('button', { name: 'Make short link' }).click();
        await page.waitForLoadState('load');
      }
      // The API's link and two made here fill the hour; the third is refused on the page, in the API's words.
      const refused = await page.getByRole('alert').textContent();
      expect(refused).toMatch(/^The team made 3 links in the last hour\./);
      const api = await call(server, 'createLink', { team, destination: 'https://example.com/by-api' }, token);
      expectProblem(server, api, 429, 'limit_reached');
      expect(api.body.detail).toBe(refused);

      await page.getByRole('search').getByLabel('Team', { exact: true }).selectOption(team);
      await page.getByRole('search').getByLabel('State', { exact: true }).selectOption('flagged');
      await page.getByRole('button', { name: 'Show links' }).click();
      await page.waitForURL(/\/app\?.*state=flagged/);
      const shown = page.getByRole('link', { name: /^Details and clicks of / });
      expect(await shown.count()).toBe(1);
      expect(await shown.getAttribute('aria-label')).toBe(`Details and clicks of ${server.url}/${flagged}`);
    });
  });
});
