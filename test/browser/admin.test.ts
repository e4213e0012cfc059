import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/support/password.js';
import { launchBrowser, signIn } from '../helpers/browser.js';
import { call, startServer, type TestServer } from '../helpers/server.js';

/**
 * The operator pages in a real browser at a phone's width (390 px): each page fits without scrolling sideways
 * (long destinations, reasons and emails wrap), and an operator finds a link, disables it after confirming, blocks
 * a domain and sees every refused limit beside its field, by keyboard and pointer, with no script at all.
 */
const PASSWORD = 'a good long password';
const email = 'operator-in-a-browser-with-a-rather-long-address@example.com';
let server: TestServer;
let browser: Browser;
let code: string;
const destination = `https://example.com/${'a-rather-long-path-segment/'.repeat(8)}`;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const { store } = server.app.ctx;
  const now = server.clock.now();
  const operator = await store.people.add({ email, passwordHash: await hashPassword(PASSWORD), agreedTerms: true }, now);
  await store.people.setOperator(operator.id, true);
  const owner = await server.person();
  const made = await call(server, 'createLink', { team: owner.teamId, destination }, owner.token);
  expect(made.status).toBe(200);
  code = made.body.code as string;
  const link = (await store.links.findByCode(code))!;
  const rule = { reportsToFlag: 3, establishedAfterHours: 72 };
  await store.moderation.report(link.id, owner.personId, `Looks like phishing: ${'a-very-long-word'.repeat(12)}`, rule, now);
  await store.settings.block(`${'sub.'.repeat(12)}blocked-in-a-browser.com`, now);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function fits(page: Page, what: string): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, what).toBeLessThanOrEqual(widths.client);
}

describe('the operator pages in a browser', () => {
  it('fit 390 px, and a link is disabled after confirming, a domain blocked, bad limits shown beside their fields', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      // The refused forms' own 4xx answers are logged as failed loads; anything else is a fault of the pages.
      if (message.type() === 'error' && !/status of 40[04]/.test(message.text())) problems.push(message.text());
    });
    try {
      await signIn(page, server.url, email, PASSWORD);
      await page.getByRole('link', { name: 'Operator' }).click();
      await page.waitForURL(`${server.url}/admin`);
      await fits(page, '/admin');
      expect(await page.getByRole('heading', { name: 'Open reports (1)' }).isVisible()).toBe(true);

      // From the report to the link, then Disable… and its confirmation.
      await page.getByRole('link', { name: code }).click();
      await page.waitForURL(`${server.url}/admin/links?code=${code}`);
      await fits(page, '/admin/links');
      await page.getByRole('link', { name: 'Disable…' }).click();
      await page.waitForURL(`${server.url}/admin/links/${code}/disable`);
      await fits(page, 'the confirmation');
      expect(await page.getByText(destination).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Disable the link' }).click();
      await page.waitForURL(`${server.url}/admin/links?code=${code}&done=disable`);
      expect(await page.getByRole('status').textContent()).toBe('Link disabled: it answers 410 and can no longer be changed.');
      expect((await fetch(`${server.url}/${code}`, { redirect: 'manual' })).status).toBe(410);

      // The code field, by keyboard: typed, then Enter.
      await page.getByLabel('Short address, code or name of the link').fill('Zz9Zz9Z');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${server.url}/admin/links?code=Zz9Zz9Z`);
      expect(await page.getByText('No link has the code "Zz9Zz9Z".').isVisible()).toBe(true);

      await page.getByRole('navigation', { name: 'Operator pages' }).getByRole('link', { name: 'Blocklist' }).click();
      await page.waitForURL(`${server.url}/admin/blocklist`);
      await fits(page, '/admin/blocklist');
      await page.getByLabel('Domain to block').fill('Phone-Blocked.com');
      await page.getByRole('button', { name: 'Block the domain' }).click();
      expect(await page.getByRole('status').textContent()).toBe('phone-blocked.com blocked.');
      expect(await page.getByRole('button', { name: 'Remove phone-blocked.com' }).isVisible()).toBe(true);

      await page.getByRole('navigation', { name: 'Operator pages' }).getByRole('link', { name: 'Limits' }).click();
      await page.waitForURL(`${server.url}/admin/limits`);
      await fits(page, '/admin/limits');
      await page.getByLabel('Links a team may hold').fill('0');
      await page.getByLabel('Calls per person per minute').fill('many');
      await page.getByRole('button', { name: 'Save the limits' }).click();
      expect(await page.getByRole('alert').textContent()).toBe('Nothing was saved: fix the limits marked below.');
      const linksField = page.getByLabel('Links a team may hold');
      expect(await linksField.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#f-team-links-error').textContent()).toBe('Must be a whole number from 1 to 1000000000.');
      expect(await page.locator('#f-calls-per-minute-error').textContent()).toBe('Must be a whole number from 1 to 1000000000.');
      await fits(page, 'the refused limits');
      expect((await server.app.ctx.store.settings.limits()).maxLinksPerTeam).toBe(25);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
