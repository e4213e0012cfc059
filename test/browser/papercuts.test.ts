import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/support/password.js';
import { launchBrowser, pageProblems, signIn, withPage } from '../helpers/browser.js';
import { call, startServer, type TestServer } from '../helpers/server.js';

/**
 * Small things of issue 22 seen in a real browser: the Copy button of a new token copies it (our one script, no
 * policy broken) and says so without reading the secret out; on a phone the team's links come before the
 * make-link form, which folds away; the error-codes page breaks a code name only between its words.
 */
const PASSWORD = 'a good long password';
const email = 'papercuts@example.com';
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const { store } = server.app.ctx;
  const person = await store.people.add({ email, passwordHash: await hashPassword(PASSWORD), agreedTerms: true }, server.clock.now());
  const team = await store.teams.add({ name: 'Papercuts', ownerId: person.id }, server.clock.now());
  const made = await call(server, 'createLink', { team: team.id, destination: 'https://example.com/phone' }, await server.token(person.id, team.id));
  expect(made.status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const at = (viewport: { width: number; height: number }, run: (page: Page, context: BrowserContext) => Promise<void>) =>
  withPage(browser, { viewport }, run);

describe('a new token', () => {
  it('has a Copy button that copies it and says "Copied the token."', async () => {
    await at({ width: 1200, height: 900 }, async (page, context) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const problems = pageProblems(page);
      await signIn(page, server.url, email, PASSWORD);
      await page.goto(`${server.url}/developers`);
      await page.getByRole('button', { name: 'Make token' }).click();
      await page.waitForURL(`${server.url}/developers`);
      const token = await page.locator('#new-token').inputValue();
      expect(token).toMatch(/^sl_/);
      const copy = page.getByRole('button', { name: 'Copy the token' });
      await copy.waitFor({ state: 'visible' });
      await copy.click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(token);
      expect(await page.locator('#copied').textContent()).toBe('Copied the token.');
      expect(problems).toEqual([]);
    });
  });
});

describe('the links page on a phone', () => {
  const firstLinkTop = (page: Page) => page.locator('ul.links > li').first().evaluate((li) => li.getBoundingClientRect().top);

  it('shows the team’s links before the make-link form, which folds away and opens with a tap', async () => {
    await at({ width: 390, height: 844 }, async (page) => {
      await signIn(page, server.url, email, PASSWORD);
      const destination = page.getByLabel('Destination', { exact: true });
      await expect.poll(() => destination.isVisible()).toBe(false);
      const summary = page.locator('summary', { hasText: 'Make a short link' });
      expect(await summary.evaluate((s) => s.getBoundingClientRect().bottom)).toBeLessThan(await firstLinkTop(page));
      expect(await firstLinkTop(page)).toBeLessThan(844);
      await summary.click();
      expect(await destination.isVisible()).toBe(true);
    });
  });

  it('keeps the form open on a wide screen', async () => {
    await at({ width: 1200, height: 900 }, async (page) => {
      await signIn(page, server.url, email, PASSWORD);
      expect(await page.getByLabel('Destination', { exact: true }).isVisible()).toBe(true);
    });
  });
});

describe('the error-codes page on a phone', () => {
  it('breaks no code name mid-word: each word between underscores stays on one line, and nothing scrolls sideways', async () => {
    await at({ width: 390, height: 844 }, async (page) => {
      await page.goto(`${server.url}/docs/errors`);
      const split = await page.locator('table code').evaluateAll((codes) =>
        codes.flatMap((code) => {
          // Each word's text, measured as a range: one line of boxes, or it was broken inside.
          const broken: string[] = [];
          const texts = [...code.childNodes].filter((node): node is Text => node.nodeType === Node.TEXT_NODE);
          for (const text of texts) {
            for (const match of text.data.matchAll(/[^_]+/g)) {
              const range = document.createRange();
              range.setStart(text, match.index);
              range.setEnd(text, match.index + match[0].length);
              const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
              if (tops.size > 1) broken.push(`${code.textContent} at ${match[0]}`);
            }
          }
          return broken;
        }),
      );
      expect(split).toEqual([]);
      expect(await page.locator('table code').first().textContent()).toMatch(/^[a-z_]+$/);
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    });
  });
});
