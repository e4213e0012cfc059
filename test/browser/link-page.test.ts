import type { Browser, ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/support/password.js';
import { launchBrowser, signIn } from '../helpers/browser.js';
import { call, startServer, type TestServer } from '../helpers/server.js';

/**
 * A link's page in a real browser at a phone's width (390 px): nothing scrolls sideways, a focused bar of the
 * clicks chart shows its value, the Copy button copies (the page's one script, from our origin), and the content
 * security policy refuses nothing the page asks for. Without JavaScript the page still shows everything.
 */
const PASSWORD = 'a good long password';
let server: TestServer;
let browser: Browser;
let code: string;
const email = 'link-page@example.com';

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const { store } = server.app.ctx;
  const person = await store.people.add({ email, passwordHash: await hashPassword(PASSWORD), agreedTerms: true }, server.clock.now());
  const team = await store.teams.add({ name: 'Phones', ownerId: person.id }, server.clock.now());
  const token = await server.token(person.id, team.id);
  // A long destination and note: the page must wrap them rather than scroll.
  const made = await call(
    server,
    'createLink',
    { team: team.id, destination: `https://example.com/${'a-rather-long-path-segment/'.repeat(8)}`, name: 'phone-link', note: 'x'.repeat(100) },
    token,
  );
  expect(made.status).toBe(200);
  code = made.body.code as string;
  const link = (await store.links.findByCode(code))!;
  await store.clicks.add(new Map([[link.id, new Map([['2026-11-20', 12], ['2026-11-03', 40]])]]));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a link page in a browser', () => {
  it('fits 390 px, shows a focused bar’s value, copies an address, and breaks no policy', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await signIn(page, server.url, email, PASSWORD);
      await page.getByRole('link', { name: `Details and clicks of ${server.url}/${code}` }).click();
      await page.waitForURL(`${server.url}/app/links/${code}`);
      await page.waitForLoadState('load');
      // The script ran (it shows the Copy buttons) and the policy refused nothing.
      await page.getByRole('button', { name: `Copy ${server.url}/${code}` }).waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
      expect(problems).toEqual([]);

      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      // The table for screen readers takes no room: the chart's section ends where its drawing does (where its clicks
      // came from follows, in a section of its own).
      const ends = await page.evaluate(() => ({
        section: document.querySelector('section.chart')!.getBoundingClientRect().bottom,
        chart: document.querySelector('.chart svg')!.getBoundingClientRect().bottom,
      }));
      expect(ends.section - ends.chart).toBeLessThan(150);

      const bar = page.getByRole('img', { name: '12 clicks on 20 November' });
      await bar.focus();
      const value = bar.locator('text.value');
      expect(await value.textContent()).toBe('12');
      expect(await value.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
      // Another bar, unfocused, keeps its value out of sight.
      const other = page.getByRole('img', { name: '40 clicks on 3 November' }).locator('text.value');
      expect(await other.evaluate((el) => getComputedStyle(el).opacity)).toBe('0');
      // With the script the chart is one stop for Tab, the most recent day; arrow keys, Home and End move along.
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
      expect(await page.locator('.chart .bar[tabindex="0"]').count()).toBe(1);
      await page.keyboard.press('ArrowRight');
      expect(await focused()).toBe('0 clicks on 21 November');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      expect(await focused()).toBe('0 clicks on 19 November');
      await page.keyboard.press('Home');
      const first = await focused();
      await page.keyboard.press('ArrowLeft');
      expect(await focused()).toBe(first);
      await page.keyboard.press('End');
      const last = await focused();
      // Tab leaves the chart from any day, and Shift+Tab comes back to the day last chosen.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('.chart'))).toBeNull();
      await page.keyboard.press('Shift+Tab');
      expect(await focused()).toBe(last);

      const copy = page.getByRole('button', { name: `Copy ${server.url}/phone-link` });
      await copy.click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/phone-link`);
      expect(await page.getByRole('status').filter({ hasText: 'Copied' }).textContent()).toBe(`Copied ${server.url}/phone-link.`);

      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('without JavaScript shows the chart and the table, and no Copy button that could do nothing', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    try {
      await signIn(page, server.url, email, PASSWORD);
      await page.goto(`${server.url}/app/links/${code}`);
      expect(await page.getByRole('img', { name: '40 clicks on 3 November' }).isVisible()).toBe(true);
      expect(await page.getByRole('row', { name: '20 November 12' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: /^Copy / }).count()).toBe(0);
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    } finally {
      await context.close();
    }
  });
});
