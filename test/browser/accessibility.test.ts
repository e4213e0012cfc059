import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorSketch } from '../helpers/visitors.js';
import { newPasswordLink } from '../../src/auth/password-link.js';
import type { ClickFacet } from '../../src/domain/analytics.js';
import { hashPassword } from '../../src/support/password.js';
import { seriousViolations, sidewaysOverflow } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { walkWithTab } from '../helpers/focus.js';
import { authorizeUrl, browserOf, consent, pkce, register } from '../helpers/oauth.js';
import { call, startServer, type TestServer } from '../helpers/server.js';

/**
 * Every page of the web app in a real browser, at a phone's width (390 px) and a desktop's (1280 px), in the light
 * and the dark colour scheme: axe-core finds no serious or critical violation (labels, names, contrast, landmarks)
 * and nothing scrolls sideways; and Tab walks down the page reaching every control. The pages are a list: a page
 * added later (the operator's, say) is one line here.
 */
const PASSWORD = 'a good long password';
const LONG_PATH = 'a-rather-long-path-segment/'.repeat(6);

/**
 * Who looks at the page: signed out, the owner of a team with links, someone yet to agree, someone in no team, an
 * operator.
 */
type Who = 'nobody' | 'owner' | 'newcomer' | 'loner' | 'operator';

/** What the pages are made of, known once the server has its sample data. */
interface Sample {
  team: string;
  code: string;
  flagged: string;
  setPassword: string;
  consent: string;
}

interface PageCase {
  name: string;
  as: Who;
  /** Where to go; `setup` then brings the page to the state to check (a form sent with faults, say). */
  path: (s: Sample) => string;
  setup?: (page: Page) => Promise<void>;
}

const submit = (button: string) => async (page: Page) => {
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.waitForLoadState('load');
};

/** The dashboard's make form; on a phone it is folded away (dashboard.ts), so opened first, as a person would. */
async function openMakeForm(page: Page) {
  const folded = page.locator('details.make:not([open]) > summary');
  if ((await folded.count()) > 0) await folded.click();
  return page.locator('form[action="/app/links"]');
}

const PAGES: PageCase[] = [
  { name: 'home', as: 'nobody', path: () => '/' },
  { name: 'sign up', as: 'nobody', path: () => '/signup' },
  { name: 'sign in', as: 'nobody', path: () => '/signin' },
  { name: 'forgot your password', as: 'nobody', path: () => '/forgot' },
  {
    name: 'sign in with a wrong password',
    as: 'nobody',
    path: () => '/signin',
    setup: async (page) => {
      await page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
      await page.getByLabel('Password', { exact: true }).fill('not the password at all');
      await submit('Sign in')(page);
    },
  },
  { name: 'set password', as: 'nobody', path: (s) => s.setPassword },
  { name: 'welcome', as: 'newcomer', path: () => '/welcome' },
  { name: 'dashboard', as: 'owner', path: () => '/app' },
  { name: 'dashboard, a search', as: 'owner', path: () => '/app?q=poster' },
  { name: 'dashboard, a filter', as: 'owner', path: (s) => `/app?team=${s.team}&state=flagged` },
  { name: 'dashboard, nothing found', as: 'owner', path: () => '/app?q=nothing-has-this' },
  { name: 'dashboard, in no team', as: 'loner', path: () => '/app' },
  {
    name: 'dashboard, a form with faults',
    as: 'owner',
    path: () => '/app',
    setup: async (page) => {
      const form = await openMakeForm(page);
      await form.getByLabel('Destination', { exact: true }).fill('not an address');
      await form.getByLabel('Short link name (optional)', { exact: true }).fill('Not A Name');
      await submit('Make short link')(page);
    },
  },
  {
    name: 'dashboard, a form with faults in its options and the UTM builder open',
    as: 'owner',
    path: () => '/app',
    setup: async (page) => {
      const form = await openMakeForm(page);
      await form.locator('details.options > summary').click();
      await form.locator('details.utm > summary').click();
      await form.getByLabel('Destination', { exact: true }).fill('https://example.com/campaign');
      await form.getByLabel('Source (utm_source)', { exact: true }).fill('newsletter');
      await form.getByLabel('Campaign (utm_campaign)', { exact: true }).fill('spring');
      await form.getByLabel('Ends (UTC, optional)', { exact: true }).fill('2020-01-01T00:00');
      await form.getByLabel('Click cap (optional)', { exact: true }).fill('0');
      await form.getByLabel('Password (optional)', { exact: true }).fill('short');
      await form.getByLabel('Tags (optional)', { exact: true }).fill('Spring, a-rather-long-tag-name-for-a-phone');
      await submit('Make short link')(page);
    },
  },
  {
    name: 'making links at once, with results',
    as: 'owner',
    path: () => '/app/links/bulk',
    setup: async (page) => {
      await page.getByLabel('Destinations', { exact: true }).fill(`https://example.com/${LONG_PATH}bulk\nhttp://example.com/refused`);
      await submit('Make short links')(page);
    },
  },
  { name: 'a link’s page', as: 'owner', path: (s) => `/app/links/${s.code}` },
  { name: 'a link’s page, where its clicks came from in 90 days', as: 'owner', path: (s) => `/app/links/${s.code}?days=90` },
  {
    name: 'editing a link, with faults',
    as: 'owner',
    path: (s) => `/app/links/${s.code}/edit`,
    setup: async (page) => {
      await page.getByLabel('Short link name').fill('Not A Name');
      await page.getByLabel('Note').fill('no <tags>');
      await submit('Save changes')(page);
    },
  },
  {
    name: 'editing a link’s options, with faults',
    as: 'owner',
    path: (s) => `/app/links/${s.code}/edit`,
    setup: async (page) => {
      await page.getByLabel('Click cap (optional)', { exact: true }).fill('0');
      await page.getByLabel('Tags (optional)', { exact: true }).fill('Not OK');
      await page.getByLabel('New password (optional)', { exact: true }).fill('short');
      await submit('Save options')(page);
    },
  },
  { name: 'deleting a link', as: 'owner', path: (s) => `/app/links/${s.code}/delete` },
  { name: 'asking for a review', as: 'owner', path: (s) => `/app/links/${s.flagged}/review` },
  { name: 'reporting a link', as: 'owner', path: (s) => `/app/report?link=${s.flagged}` },
  { name: 'teams', as: 'owner', path: () => '/teams' },
  { name: 'teams, in none, invited to one', as: 'loner', path: () => '/teams' },
  { name: 'a team, with an invitation not yet accepted', as: 'owner', path: (s) => `/teams/${s.team}` },
  { name: 'a team, where its clicks came from in 7 days', as: 'owner', path: (s) => `/teams/${s.team}?days=7` },
  { name: 'deleting a team', as: 'owner', path: (s) => `/teams/${s.team}/delete` },
  { name: 'removing a team’s domain, which asks first', as: 'owner', path: (s) => `/teams/${s.team}/domains/go.example.net/remove` },
  { name: 'leaving a team, which asks first', as: 'owner', path: (s) => `/teams/${s.team}/leave` },
  { name: 'importing links into a team', as: 'owner', path: (s) => `/teams/${s.team}/import` },
  { name: 'importing links, with no file chosen', as: 'owner', path: (s) => `/teams/${s.team}/import`, setup: submit('Preview the import') },
  { name: 'a team’s webhooks, one paused with its deliveries', as: 'owner', path: (s) => `/teams/${s.team}/webhooks` },
  {
    name: 'adding a webhook, with faults',
    as: 'owner',
    path: (s) => `/teams/${s.team}/webhooks`,
    setup: async (page) => {
      await page.getByLabel('Address', { exact: true }).fill('http://example.com/hook');
      await submit('Add endpoint')(page);
    },
  },
  {
    name: 'adding a webhook, its secret shown once',
    as: 'owner',
    path: (s) => `/teams/${s.team}/webhooks`,
    setup: async (page) => {
      await page.getByLabel('Address', { exact: true }).fill(`https://hooks.example.com/${LONG_PATH}new`);
      await page.getByLabel('link.deleted').check();
      await submit('Add endpoint')(page);
      await page.getByLabel(/^Signing secret for /).waitFor();
    },
  },
  { name: 'removing a webhook, which asks first', as: 'owner', path: (s) => `/teams/${s.team}/webhooks/whk_fixture/remove` },
  { name: 'teams, in none, as the first step on the way elsewhere', as: 'loner', path: () => '/teams?next=/app' },
  {
    name: 'developers, a new token shown',
    as: 'owner',
    path: () => '/developers',
    setup: async (page) => {
      await page.getByLabel('Label (optional)', { exact: true }).fill('Checked by axe');
      await submit('Make token')(page);
    },
  },
  { name: 'connected assistants', as: 'owner', path: () => '/assistants' },
  { name: 'your account', as: 'owner', path: () => '/account' },
  { name: 'changing your email', as: 'owner', path: () => '/account/email' },
  { name: 'deleting your account, which asks first', as: 'owner', path: () => '/account/delete' },
  { name: 'an assistant’s consent', as: 'owner', path: (s) => s.consent },
  { name: 'error codes', as: 'nobody', path: () => '/docs/errors' },
  { name: 'not found (app)', as: 'owner', path: () => '/app/links/zzzzzzz' },
  { name: 'not found (short link)', as: 'nobody', path: () => '/zzzzzzz' },
  { name: 'a flagged link’s warning', as: 'nobody', path: (s) => `/${s.flagged}` },
  { name: 'operator: reports and reviews', as: 'operator', path: () => '/admin' },
  { name: 'operator: a link', as: 'operator', path: (s) => `/admin/links?code=${s.flagged}` },
  { name: 'operator: disabling a link', as: 'operator', path: (s) => `/admin/links/${s.code}/disable` },
  { name: 'operator: the blocklist', as: 'operator', path: () => '/admin/blocklist' },
  { name: 'operator: the limits', as: 'operator', path: () => '/admin/limits' },
  { name: 'operator: the settings', as: 'operator', path: () => '/admin/settings' },
  {
    name: 'operator: the limits, with faults',
    as: 'operator',
    path: () => '/admin/limits',
    setup: async (page) => {
      await page.getByLabel('Links a team may hold').fill('none');
      await page.getByLabel('New links per team per hour').fill('0');
      await submit('Save the limits')(page);
    },
  },
];

const VIEWS = [
  { width: 390, height: 844, colorScheme: 'light' },
  { width: 390, height: 844, colorScheme: 'dark' },
  { width: 1280, height: 800, colorScheme: 'light' },
  { width: 1280, height: 800, colorScheme: 'dark' },
] as const;

let server: TestServer;
let browser: Browser;
let sample: Sample;
const cookies = new Map<Who, string>();

async function addPerson(email: string, agreedTerms: boolean): Promise<string> {
  const person = await server.app.ctx.store.people.add({ email, passwordHash: await hashPassword(PASSWORD), agreedTerms }, server.clock.now());
  cookies.set(email.split('@')[0] as Who, await browserOf(server, person.id));
  return person.id;
}

beforeAll(async () => {
  // Mail on, so its pages are drawn (/forgot, the change-email form); nothing here sends any.
  server = await startServer({ env: { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'links@example.test' } });
  browser = await launchBrowser();
  await server.setLimits({ firstWeekPerDay: 1_000 });
  const { store } = server.app.ctx;
  const owner = await addPerson('owner@example.com', true);
  await addPerson('newcomer@example.com', false);
  await addPerson('loner@example.com', true);
  const team = (await store.teams.add({ name: 'A team with a rather long name for a small phone', ownerId: owner }, server.clock.now())).id;
  const token = await server.token(owner, team);
  await store.invitations.invite(team, 'loner@example.com', owner, server.clock.now());
  const links = [
    { destination: `https://example.com/${LONG_PATH}poster`, name: 'spring-poster', note: 'For the spring poster, printed in March' },
    { destination: 'https://example.org/flagged' },
    ...Array.from({ length: 10 }, (_, i) => ({ destination: `https://example.com/${LONG_PATH}${i}` })),
  ];
  const made = await call(server, 'createLinks', { team, links }, token);
  expect(made.status).toBe(200);
  const [code, flagged] = [made.body.results[0].link.code as string, made.body.results[1].link.code as string];
  await store.links.setState(flagged, 'flagged', server.clock.now());
  // Every option on the sample link, so its page, its edit page and the dashboard show them.
  const options = { code, expiresAt: '2027-06-30T12:00:00Z', maxClicks: 1_000, password: 'a visitor password', tags: ['poster', 'spring', 'a-rather-long-tag-name-for-a'] };
  expect((await call(server, 'setLinkOptions', options, token)).status).toBe(200);
  // What the operator's pages list: a report, a review request, a blocked domain.
  const operator = await addPerson('operator@example.com', true);
  await store.people.setOperator(operator, true);
  const reported = (await store.links.findByCode(made.body.results[2].link.code as string))!;
  await store.moderation.report(reported.id, operator, 'Looks like a phishing page <b>here</b>', await store.settings.limits(), server.clock.now());
  await store.moderation.askForReview((await store.links.findByCode(flagged))!.id, owner, 'It is our own page', server.clock.now());
  await store.settings.block('blocked.example', server.clock.now());
  // The team's domains, as its page shows them: one pending with a long name and what its last check found, one the
  // operator vouched for, primary, with a long root address.
  const pending = 'links.a-rather-long-domain-name-for-a-small-phone.example';
  await store.domains.add({ teamId: team, domain: pending, token: 'T'.repeat(24), proof: 'dns' }, 'operator', 5, server.clock.now());
  await store.domains.recordCheck(pending, 'T'.repeat(24), 'missing', server.clock.now());
  await store.domains.add({ teamId: team, domain: 'go.example.net', token: 'U'.repeat(24), proof: 'operator' }, 'operator', 5, server.clock.now());
  await store.domains.setPrimary(team, 'go.example.net', 'operator');
  await store.domains.setRoot('go.example.net', `https://example.com/${LONG_PATH}home`, 'operator');
  // A webhook endpoint with a long address, paused after failed deliveries, as its owners see it.
  const hookUrl = `https://hooks.example.com/${LONG_PATH}hook`;
  await store.webhooks.add({ id: 'whk_fixture', teamId: team, url: hookUrl, events: ['link.created', 'clicks.daily'], secret: 'whsec_c2VjcmV0', createdAt: server.clock.now().toISOString() }, 10);
  await store.webhooks.enqueue({ eventId: 'msg_fixture', teamId: team, type: 'webhook.test', payload: '{}', at: server.clock.now() }, 'whk_fixture');
  const [claimed] = await store.webhooks.claim('fixture', 1, new Date(server.clock.now().getTime() + 60_000), server.clock.now());
  await store.webhooks.failed(claimed!, 'fixture', { status: 500, error: 'answered 500: Internal Server Error', retryAt: null }, server.clock.now());
  await store.webhooks.pause('whk_fixture', 'No delivery has succeeded since 2026-11-20T12:00:00.000Z; the last attempt answered 500.');
  const link = (await store.links.findByCode(code))!;
  const today = server.clock.now().toISOString().slice(0, 10);
  await store.clicks.add(new Map([[link.id, new Map([[today, 12]])]]));
  // Where they came from: more countries than a table shows (its last row "Other"), a long referring host.
  const facets = (facet: ClickFacet, counts: Record<string, number>) =>
    Object.entries(counts).map(([value, count]) => ({ linkId: link.id, day: today, facet, value, count }));
  await store.analytics.add({
    facets: [
      ...facets('country', Object.fromEntries(['FR', 'US', 'DE', 'JP', 'BR', 'IN', 'GB', 'CA', 'AU', 'ES', 'IT', 'NL'].map((c) => [c, 1]))),
      ...facets('referrer', { 'a-rather-long-subdomain-of.a-news-site-with-a-long-name.example.co.uk': 7, direct: 5 }),
      ...facets('device', { phone: 8, desktop: 4 }),
      ...facets('source', { qr: 3, link: 9 }),
    ],
    uncounted: [{ linkId: link.id, day: today, class: 'preview', count: 4 }],
    visitors: [{ linkId: link.id, day: today, sketch: visitorSketch(1) }],
  });

  const setPassword = newPasswordLink(server.url, server.clock.now());
  const reset = await addPerson('reset@example.com', true);
  await store.passwordLinks.issue({ personId: reset, tokenHash: setPassword.tokenHash, expiresAt: setPassword.expiresAt, reset: false }, server.clock.now());

  // One assistant connected (its table on the assistants page), another asking (the consent page).
  const assistant = async (name: string) => {
    const { body: client } = await register(server, { client_name: name, redirect_uris: ['http://127.0.0.1/callback'] });
    return authorizeUrl(server, {
      response_type: 'code', client_id: client.client_id, redirect_uri: 'http://127.0.0.1:9/callback', code_challenge: pkce().challenge,
      code_challenge_method: 'S256', state: 'axe', resource: `${server.url}/mcp`, scope: 'links',
    });
  };
  expect((await consent(server, cookies.get('owner')!, await assistant('Connected Assistant'))).code).not.toBeNull();
  const asking = await assistant('Asking Assistant');
  sample = { team, code, flagged, setPassword: setPassword.url.slice(server.url.length), consent: asking.href.slice(server.url.length) };
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('every page, at 390 and 1280 px, light and dark', () => {
  it.each(PAGES)('$name: no serious accessibility fault, no sideways scroll, Tab in reading order', async (c) => {
    const context = await browser.newContext({ viewport: { width: VIEWS[0].width, height: VIEWS[0].height } });
    const cookie = cookies.get(c.as);
    if (cookie) {
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: server.url }]);
    }
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(5_000);
      const path = c.path(sample);
      const res = await page.goto(`${server.url}${path}`);
      // The page asked for, not a sign-in or welcome page it redirected to.
      expect(new URL(page.url()).pathname).toBe(path.split('?')[0]);
      expect(res?.status()).toBeLessThan(c.name.startsWith('not found') ? 500 : 400);
      await c.setup?.(page);
      const faults: string[] = [];
      const backgrounds = new Set<string>();
      for (const view of VIEWS) {
        await page.setViewportSize({ width: view.width, height: view.height });
        await page.emulateMedia({ colorScheme: view.colorScheme });
        const at = `${view.width} px, ${view.colorScheme}`;
        backgrounds.add(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
        for (const v of await seriousViolations(page)) faults.push(`${at}: ${v.rule} (${v.impact}: ${v.help}) at ${v.targets.join(', ')}`);
        const overflow = await sidewaysOverflow(page);
        if (overflow > 0) faults.push(`${at}: scrolls sideways by ${overflow} px`);
      }
      // The keyboard's path, once (it is the same in every view): down the page, reaching every control.
      await page.setViewportSize({ width: VIEWS[0].width, height: VIEWS[0].height });
      const walk = await walkWithTab(page);
      faults.push(...walk.backwards.map((step) => `Tab goes back up the page: ${step}`), ...walk.unreached.map((c) => `Tab never reaches ${c}`));
      expect(faults).toEqual([]);
      // The dark scheme is really another set of colours, which axe checked too.
      expect([...backgrounds].sort()).toEqual(['rgb(18, 19, 23)', 'rgb(255, 255, 255)']);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('skipping the menu', () => {
  it('the first Tab shows "Skip to the content"; Enter takes the keyboard past the menu to the page', async () => {
    const context = await browser.newContext({ viewport: { width: VIEWS[0].width, height: VIEWS[0].height } });
    const [name, value] = cookies.get('owner')!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/app`);
      const skip = page.getByRole('link', { name: 'Skip to the content' });
      // Off the screen until it has the focus, then on it.
      const onScreen = async () => {
        const box = (await skip.boundingBox())!;
        return box.x >= 0 && box.x + box.width <= VIEWS[0].width;
      };
      expect(await onScreen()).toBe(false);
      await page.keyboard.press('Tab');
      expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await onScreen()).toBe(true);
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      // The next stop is in the page itself, not the menu's first link.
      expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('the check itself', () => {
  it('finds a serious fault, poor contrast in the dark and a sideways scroll when a page has them', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/signin`);
      // An unlabelled field and a wide block, put in through the DevTools protocol (the policy allows no script).
      await page.evaluate(() => {
        document.querySelector('main')!.insertAdjacentHTML('beforeend', '<input type="text" id="nameless"><div style="width:600px">wide</div>');
      });
      const found = await seriousViolations(page);
      expect(found.map((v) => v.rule)).toContain('label');
      expect(found.find((v) => v.rule === 'label')?.targets).toEqual(['#nameless']);
      expect(await sidewaysOverflow(page)).toBeGreaterThan(0);
      // Contrast is checked against the scheme shown: dark grey text passes on white and fails on the dark page.
      await page.evaluate(() => {
        document.querySelector('main')!.insertAdjacentHTML('beforeend', '<p id="grey" style="color:#333">Grey text</p>');
      });
      const contrast = async () => (await seriousViolations(page)).find((v) => v.rule === 'color-contrast')?.targets ?? [];
      expect(await contrast()).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await contrast()).toEqual(['#grey']);
    } finally {
      await context.close();
    }
  });

  it('finds controls Tab takes out of reading order, and one Tab never reaches', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/signin`);
      // Drawn right to left, so Tab's second stop is left of its first; and a button taken out of the Tab order.
      await page.evaluate(() => {
        document.querySelector('main')!.insertAdjacentHTML(
          'beforeend',
          '<div style="display:flex;flex-direction:row-reverse;justify-content:flex-end"><button id="one">One</button><button id="two">Two</button></div><button id="unreachable" tabindex="-1">Hidden from Tab</button>',
        );
      });
      const walk = await walkWithTab(page);
      expect(walk.backwards).toEqual(['button#one “One” → button#two “Two”']);
      expect(walk.unreached).toEqual(['button#unreachable “Hidden from Tab”']);
    } finally {
      await context.close();
    }
  });
});
