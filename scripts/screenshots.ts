import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startDnsStandIn } from '../bench/dns-stand-in.js';
import { createApp } from '../src/app.js';
import { hashPassword } from '../src/support/password.js';
import { issueToken } from '../src/auth/personal-token.js';
import { loadConfig } from '../src/config.js';
import { lastDays } from '../src/domain/days.js';
import { cryptoRandom } from '../src/domain/random.js';
import { launchBrowser, signIn } from '../test/helpers/browser.js';
import { freePort } from '../test/helpers/free-port.js';

/**
 * `npm run screenshots`: starts the service on loopback with a throwaway database of sample links, signs in with
 * Debian's chromium (as the browser tests do; CHROMIUM_PATH points elsewhere), and writes the main pages, desktop
 * (1280 px) and phone (390 px), light and some dark, to docs/screenshots/ for the README. Each shot is the top of
 * the page, at most TALLEST high, at a pixel ratio of 1: enough to show the page, small enough to keep in git.
 * It serves at http://localhost:8080 when that port is free (SCREENSHOTS_PORT), so the addresses shown look
 * like a first install rather than a test's random port.
 */
const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const PASSWORD = 'a good long password';
const EMAIL = 'ada@example.com';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const TALLEST = { desktop: 1300, phone: 1500 };
type View = { size: typeof DESKTOP; dark?: boolean };

/** One picture: a file name, the views to take it in, and how to reach the page once signed in. */
interface Shot {
  name: string;
  views: View[];
  open: (page: Page) => Promise<void>;
}

const LINKS = [
  { destination: 'https://example.com/shop/spring-sale?utm_source=poster&utm_medium=print', name: 'spring-sale', note: 'Printed on the spring poster' },
  { destination: 'https://example.com/blog/2026/how-we-ship-small-changes-often', name: 'shipping', note: 'Newsletter, issue 12' },
  { destination: 'https://example.org/events/meetup-november', note: 'Meetup slides, last page' },
  { destination: 'https://example.com/careers/backend-engineer', name: 'jobs' },
  { destination: 'https://example.net/docs/getting-started#install', note: 'Quick-start card' },
  { destination: 'https://example.com/podcast/episode-41' },
];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-screenshots-'));
  const dns = await startDnsStandIn();
  const port = (await portIsFree(WANTED_PORT)) ? WANTED_PORT : await freePort();
  const url = `http://localhost:${port}`;
  const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATABASE_PATH: join(dir, 'sample.db'), DNS_SERVERS: dns.servers.join(','), LOG_LEVEL: 'silent' });
  const app = await createApp(config);
  await app.listen();
  let browser: Browser | undefined;
  try {
    const code = await seed(app.ctx.store, url);
    browser = await launchBrowser();
    mkdirSync(OUT, { recursive: true });
    for (const shot of shots(code)) {
      for (const view of shot.views) {
        const context = await browser.newContext({ viewport: view.size, deviceScaleFactor: 1, colorScheme: view.dark ? 'dark' : 'light', javaScriptEnabled: false });
        const page = await context.newPage();
        await signIn(page, url, EMAIL, PASSWORD);
        await shot.open(page);
        const kind = view.size === DESKTOP ? 'desktop' : 'phone';
        const file = `${shot.name}-${kind}${view.dark ? '-dark' : ''}.png`;
        const height = Math.min(TALLEST[kind], await page.evaluate<number>('document.documentElement.scrollHeight'));
        await page.screenshot({ path: join(OUT, file), fullPage: true, clip: { x: 0, y: 0, width: view.size.width, height } });
        console.log(`wrote docs/screenshots/${file}`);
        await context.close();
      }
    }
  } finally {
    await browser?.close();
    await app.close();
    await dns.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const WANTED_PORT = Number(process.env.SCREENSHOTS_PORT ?? 8080);

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

type Store = Awaited<ReturnType<typeof createApp>>['ctx']['store'];

/** A person with two teams, a handful of links (one flagged) and a month of clicks; returns the clicked link's code. */
async function seed(store: Store, url: string): Promise<string> {
  const now = new Date();
  const person = await store.people.add({ email: EMAIL, passwordHash: await hashPassword(PASSWORD), agreedTerms: true }, now);
  await store.teams.add({ name: 'Website', ownerId: person.id }, now);
  const team = await store.teams.add({ name: 'Marketing', ownerId: person.id }, now);
  const { token } = await issueToken(store, cryptoRandom, { personId: person.id, teamId: team.id, label: 'deploy script', scopes: null, limited: false }, now);
  const res = await fetch(`${url}/v1/createLinks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ team: team.id, links: LINKS }),
  });
  const made = (await res.json()) as { results: Array<{ link: { code: string; id: string } }> };
  if (!res.ok) throw new Error(`could not make the sample links: ${JSON.stringify(made)}`);
  const [first, , third] = made.results.map((r) => r.link);
  await store.links.setState(third!.code, 'flagged', now);
  // A month of clicks with a weekly rhythm and a busy week after the posters went up.
  const days = lastDays(now, 30);
  const clicks = new Map(days.map((day, i) => [day, Math.round(8 + 6 * Math.sin(i / 1.1) + (i > 20 ? 25 : 0) + (i % 7) * 2)]));
  await store.clicks.add(new Map([[first!.id, clicks]]));
  return first!.code;
}

function shots(code: string): Shot[] {
  const go = (path: string) => async (page: Page) => {
    await page.goto(new URL(path, page.url()).href);
  };
  return [
    { name: 'dashboard', views: [{ size: DESKTOP }, { size: PHONE }, { size: DESKTOP, dark: true }], open: go('/app') },
    { name: 'link-page', views: [{ size: DESKTOP }, { size: PHONE, dark: true }], open: go(`/app/links/${code}`) },
    {
      name: 'edit-with-faults',
      views: [{ size: DESKTOP }, { size: PHONE }],
      open: async (page) => {
        await go(`/app/links/${code}/edit`)(page);
        await page.getByLabel('Short link name').fill('Spring Sale!');
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.waitForLoadState('load');
      },
    },
    {
      name: 'bulk-results',
      views: [{ size: DESKTOP }],
      open: async (page) => {
        await go('/app/links/bulk')(page);
        await page.getByLabel('Destinations', { exact: true }).fill('https://example.com/menu\nhttp://example.com/not-https\nhttps://example.org/opening-hours');
        await page.getByRole('button', { name: 'Make short links' }).click();
        await page.waitForLoadState('load');
      },
    },
    {
      name: 'team',
      views: [{ size: DESKTOP }, { size: PHONE }],
      open: async (page) => {
        await go('/teams')(page);
        await page.getByRole('main').getByRole('link', { name: 'Marketing', exact: true }).click();
        await page.waitForLoadState('load');
      },
    },
    { name: 'developers', views: [{ size: DESKTOP }, { size: PHONE, dark: true }], open: go('/developers') },
  ];
}

await main();
