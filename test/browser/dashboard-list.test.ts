import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/support/password.js';
import { launchBrowser, pageProblems, signIn, withPage } from '../helpers/browser.js';
import { call, startServer, type TestServer } from '../helpers/server.js';

/**
 * The dashboard's list in a real browser at a phone's width (390 px): nothing scrolls sideways, even with long
 * destinations, notes and names; a Copy button copies (our one script, from our origin, refused nothing by the
 * policy); and with JavaScript off every action still works: making a link, searching, paging, making several.
 */
const PASSWORD = 'a good long password';
const PHONE = { width: 390, height: 844 };
let server: TestServer;
let browser: Browser;
let team: string;
let oldest: string;
const email = 'dashboard-list@example.com';

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // A new team makes 10 links a day in its first week; these tests make a few more.
  await server.setLimits({ firstWeekPerDay: 100 });
  const { store } = server.app.ctx;
  const person = await store.people.add({ email, passwordHash: await hashPassword(PASSWORD), agreedTerms: true }, server.clock.now());
  team = (await store.teams.add({ name: 'A team with a rather long name for a small phone screen', ownerId: person.id }, server.clock.now())).id;
  const token = await server.token(person.id, team);
  const links = Array.from({ length: 9 }, (_, i) => ({
    destination: `https://example.com/${'a-rather-long-path-segment/'.repeat(6)}${i}`,
    note: 'A note of some length, to see that it wraps rather than scrolls',
  }));
  const made = await call(server, 'createLinks', { team, links: [...links, { destination: 'https://example.com/named', name: 'a-long-short-link-name-that-goes-on-and-on' }] }, token);
  expect(made.status).toBe(200);
  oldest = made.body.results[0].link.code as string;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function widthsOf(page: Page) {
  return page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
}

const onPhone = (javaScriptEnabled: boolean, run: (page: Page, context: BrowserContext) => Promise<void>) =>
  withPage(browser, { javaScriptEnabled, viewport: PHONE }, run);

describe('the dashboard in a browser', () => {
  it('fits 390 px and copies a short address, breaking no policy', async () => {
    await onPhone(true, async (page, context) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const problems = pageProblems(page);
      await signIn(page, server.url, email, PASSWORD);
      await page.waitForLoadState('load');
      const widths = await widthsOf(page);
      expect(widths.client).toBe(390);
      expect(widths.scroll).toBeLessThanOrEqual(390);

      const address = `${server.url}/a-long-short-link-name-that-goes-on-and-on`;
      const copy = page.getByRole('button', { name: `Copy ${address}` });
      await copy.waitFor({ state: 'visible', timeout: 5_000 });
      await copy.click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(address);
      expect(await page.getByRole('status').filter({ hasText: 'Copied' }).textContent()).toBe(`Copied ${address}.`);

      await page.goto(`${server.url}/app/links/bulk`);
      expect((await widthsOf(page)).scroll).toBeLessThanOrEqual(390);
      expect(problems).toEqual([]);
    });
  });

  it('without JavaScript makes a link, searches, pages and makes several, with no Copy button', async () => {
    await onPhone(false, async (page) => {
      await signIn(page, server.url, email, PASSWORD);
      expect(await page.getByRole('button', { name: /^Copy / }).count()).toBe(0);

      const form = page.locator('form[action="/app/links"]');
      await form.getByLabel('Destination', { exact: true }).fill('https://example.com/made-in-a-phone');
      await form.getByLabel('Note (optional)', { exact: true }).fill('from the phone');
      await page.getByRole('button', { name: 'Make short link' }).click();
      await page.waitForURL(/\/app\?made=[A-Za-z0-9]{7}$/);
      const code = /made=([A-Za-z0-9]{7})/.exec(page.url())![1]!;
      expect(await page.getByRole('status').first().innerText()).toBe(`Made ${server.url}/${code}.`);
      expect(await page.getByText('11 of 25 links').count()).toBe(1);
      expect((await widthsOf(page)).scroll).toBeLessThanOrEqual(390);

      await page.getByLabel('Search', { exact: true }).fill('phone');
      await page.getByRole('button', { name: 'Show links' }).click();
      await page.waitForURL(/\/app\?.*q=phone/);
      expect(await page.getByRole('link', { name: `Details and clicks of ${server.url}/${code}` }).count()).toBe(1);
      expect(await page.getByRole('link', { name: /^Details and clicks of / }).count()).toBe(1);

      // Eleven links: ten on the first page, the oldest one page on.
      await page.goto(`${server.url}/app`);
      await page.getByRole('link', { name: 'Older links →' }).click();
      expect(await page.getByRole('link', { name: /^Details and clicks of / }).count()).toBe(1);
      expect(await page.getByRole('link', { name: `Details and clicks of ${server.url}/${oldest}` }).count()).toBe(1);
      await page.getByRole('link', { name: '← Newer links' }).click();
      expect(await page.getByRole('link', { name: /^Details and clicks of / }).count()).toBe(10);

      await page.getByRole('link', { name: 'Make up to 50 links at once' }).click();
      await page.getByLabel('Destinations', { exact: true }).fill('https://example.com/bulk-1\nhttp://example.com/refused\nhttps://example.com/bulk-2');
      await page.getByRole('button', { name: 'Make short links' }).click();
      expect(await page.getByRole('alert').textContent()).toBe('Made 2 links; refused 1 link. The refused lines are left below to fix and send again.');
      expect(await page.getByLabel('Destinations', { exact: true }).inputValue()).toBe('http://example.com/refused');
      expect((await widthsOf(page)).scroll).toBeLessThanOrEqual(390);
    });
  });
});
