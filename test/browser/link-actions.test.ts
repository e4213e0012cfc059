import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/support/password.js';
import { launchBrowser, signIn } from '../helpers/browser.js';
import { call, startServer, type TestServer } from '../helpers/server.js';


/**
 * A link's actions in a real browser at a phone's width (390 px), with JavaScript off and on: edit the link (a form
 * with faults first, then a good one), then delete it after its confirmation page; report a flagged link from its
 * warning page and ask for its review. Nothing scrolls sideways, focus follows the form's order, and the content
 * security policy refuses nothing.
 */
const PASSWORD = 'a good long password';
const email = 'link-actions@example.com';
const reporterEmail = 'reporter@example.com';
let server: TestServer;
let browser: Browser;
let team: string;
let token: string;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const { store } = server.app.ctx;
  const person = await store.people.add({ email, passwordHash: await hashPassword(PASSWORD), agreedTerms: true }, server.clock.now());
  team = (await store.teams.add({ name: 'Phones', ownerId: person.id }, server.clock.now())).id;
  token = await server.token(person.id, team);
  await store.people.add({ email: reporterEmail, passwordHash: await hashPassword(PASSWORD), agreedTerms: true }, server.clock.now());
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function makeLink(name: string): Promise<string> {
  // A long destination: the pages must wrap it rather than scroll.
  const destination = `https://example.com/${'a-rather-long-path-segment/'.repeat(8)}`;
  const made = await call(server, 'createLink', { team, destination, name }, token);
  expect(made.status).toBe(200);
  return made.body.code as string;
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

/** Edits, with a faulty form first, then deletes after confirming; the same steps with JavaScript off and on. */
async function editThenDelete(page: Page, code: string, name: string): Promise<void> {
  await signIn(page, server.url, email, PASSWORD);
  await page.goto(`${server.url}/app/links/${code}`);
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await page.waitForURL(`${server.url}/app/links/${code}/edit`);
  await expectNoSidewaysScroll(page);

  await page.getByLabel('Short link name').fill('Not A Name');
  await page.getByLabel('Note').fill('no <tags>');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.waitForLoadState('load');
  // Both faults at once, each tied to its field, and nothing saved.
  expect(await page.getByLabel('Short link name').getAttribute('aria-invalid')).toBe('true');
  expect(await page.getByLabel('Note').getAttribute('aria-invalid')).toBe('true');
  expect(await page.locator('#f-name-error').textContent()).toBe('A short link name is 3 to 50 characters of lowercase letters, digits, "-" and "_".');
  expect(await page.locator('#f-note-error').textContent()).toBe("A note is at most 100 characters of letters, numbers, spaces and - _ , . ' ( ) & ! ? :");
  await expectNoSidewaysScroll(page);
  expect((await call(server, 'getLink', { code }, token)).body.name).toBe(name);

  // Focus follows the form: destination, name, note, then the button.
  await page.getByLabel('Destination').focus();
  const order: Array<string | null> = [];
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent ?? null));
  }
  expect(order).toEqual(['name', 'note', 'Save changes']);

  await page.getByLabel('Destination').fill('https://example.org/moved');
  await page.getByLabel('Short link name').fill(`${name}-new`);
  await page.getByLabel('Note').fill('Moved for the poster');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.waitForURL(`${server.url}/app/links/${code}?done=edited`);
  expect(await page.getByRole('status').filter({ hasText: 'Saved' }).textContent()).toBe('Saved your changes.');
  expect(await page.getByRole('link', { name: `${server.url}/${name}-new` }).count()).toBe(1);
  expect(await page.getByText('Moved for the poster').count()).toBe(1);

  await page.getByRole('link', { name: 'Delete', exact: true }).click();
  await page.waitForURL(`${server.url}/app/links/${code}/delete`);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Delete the link ${code}?`);
  expect(await page.getByText('It leads to https://example.org/moved.').count()).toBe(1);
  await expectNoSidewaysScroll(page);
  // Keeping it changes nothing; deleting needs the confirmation's own button.
  await page.getByRole('link', { name: 'Keep the link' }).click();
  await page.waitForURL(`${server.url}/app/links/${code}`);
  await page.getByRole('link', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: 'Delete the link' }).click();
  await page.waitForURL(`${server.url}/app?deleted=${code}`);
  expect(await page.getByText(`Deleted ${server.url}/${code}.`).count()).toBe(1);
  expect((await call(server, 'getLink', { code }, token)).status).toBe(404);
}

describe('a link’s actions in a browser at 390 px', () => {
  it('edit then delete work with JavaScript off', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    try {
      await editThenDelete(await context.newPage(), await makeLink('actions-off'), 'actions-off');
    } finally {
      await context.close();
    }
  });

  it('edit then delete work with JavaScript on, and the policy refuses nothing', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      // The faulty form's own 400 answer is logged as a failed load; anything else is a problem.
      if (/status of 400/.test(message.text())) return;
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await editThenDelete(page, await makeLink('actions-on'), 'actions-on');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('reporting a flagged link and asking for its review, in a browser at 390 px without JavaScript', () => {
  it('goes from the warning page to a filled-in report, then the owner asks for a review', async () => {
    const code = await makeLink('actions-flagged');
    await server.app.ctx.store.links.setState(code, 'flagged', server.clock.now());
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/${code}`);
      await page.getByRole('link', { name: 'Report it' }).click();
      // Signed out: sign in first, then on to the form, the address filled in.
      await page.getByLabel('Email', { exact: true }).fill(reporterEmail);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${server.url}/app/report?link=${code}`);
      expect(await page.getByLabel('Short address or code').inputValue()).toBe(code);
      await page.getByLabel('What is wrong with it').fill('Asks for my bank password');
      await expectNoSidewaysScroll(page);
      await page.getByRole('button', { name: 'Report the link' }).click();
      await page.waitForURL(`${server.url}/app/report?reported=${code}`);
      expect(await page.getByRole('status').textContent()).toBe(`Thank you: your report of ${server.url}/${code} was sent.`);
      await context.clearCookies();

      await signIn(page, server.url, email, PASSWORD);
      await page.goto(`${server.url}/app/links/${code}`);
      await page.getByRole('navigation', { name: 'Link actions' }).getByRole('link', { name: 'Ask for a review' }).click();
      await page.waitForURL(`${server.url}/app/links/${code}/review`);
      await page.getByLabel('Why the link is fine (optional)').fill('It is our own bank page.');
      await expectNoSidewaysScroll(page);
      await page.getByRole('button', { name: 'Ask for a review' }).click();
      await page.waitForURL(`${server.url}/app/links/${code}?done=review`);
      expect(await page.getByRole('status').filter({ hasText: 'Asked' }).textContent()).toBe(
        'Asked for a review. The service reviews the link and restores it if it is fine.',
      );
      const reviews = await server.app.ctx.store.moderation.openReviews();
      expect(reviews.find((r) => r.linkCode === code)?.reason).toBe('It is our own bank page.');
    } finally {
      await context.close();
    }
  });
});
