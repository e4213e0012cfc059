import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseEnv } from '../helpers/database-env.js';
import { startServerProcess } from '../helpers/server-process.js';
import { call, startServer, TestClock, type Actor, type TestServer } from '../helpers/server.js';
import { ASSISTANTS, BOTS, BROWSERS, CHECKERS, PREVIEWS } from '../analytics/user-agents.js';

/**
 * What a redirect records of each visit (issue 23, items 1, 2 and 6), end to end: the real server behind a trusted
 * proxy (TRUST_PROXY=127.0.0.1, so X-Forwarded-For is the client), visits of every class, then the store read through
 * its port once the counts are flushed.
 */
const DAY = '2026-11-21';
let server: TestServer;
let alice: Actor;

beforeAll(async () => {
  server = await startServer({ clock: new TestClock(new Date(`${DAY}T12:00:00Z`)), env: { TRUST_PROXY: '127.0.0.1' } });
  alice = await server.person();
});
afterAll(() => server.stop());

async function makeLink(): Promise<{ id: string; code: string }> {
  // Not passing the visit's query on, so every visit's Location is the destination itself (forwardQuery drops the
  // QR marker too: test/e2e/link-options-visits.test.ts).
  const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/landing', forwardQuery: false }, alice.token);
  expect(made.status).toBe(200);
  const record = await server.app.ctx.store.links.findByCode(made.body.code);
  return { id: record!.id, code: made.body.code };
}

function visit(url: string, headers: Record<string, string>, method = 'GET') {
  return fetch(url, { method, headers, redirect: 'manual' });
}

/** Waits for the counter's next flush (every second), then a little. */
const flushed = () => new Promise((resolve) => setTimeout(resolve, 1300));

async function facet(linkId: string, name: 'country' | 'referrer' | 'device' | 'browser' | 'os' | 'source', day = DAY) {
  const { rows } = await server.app.ctx.store.analytics.byFacet({ linkId }, name, day, day, 100);
  return Object.fromEntries(rows.map((row) => [row.value, row.clicks]));
}

describe('what a redirect records', () => {
  it('counts each click by country, referrer, device, browser, OS and source, and each other visit by class', async () => {
    const link = await makeLink();
    const to = `${server.url}/${link.code}`;
    const visits: Array<[string, Record<string, string>, string?]> = [
      // Counted: from the Netherlands (IPv4), France (IPv6), the US (IPv4-mapped IPv6), a private address.
      [to, { 'user-agent': BROWSERS.safariIphone, 'x-forwarded-for': '193.0.6.139', referer: 'https://news.ycombinator.com/item?id=1' }],
      [to, { 'user-agent': BROWSERS.chromeWindows, 'x-forwarded-for': '2001:660::1', referer: `${server.url}/app/links/${link.code}` }],
      [`${to}?qr`, { 'user-agent': BROWSERS.chromeAndroid, 'x-forwarded-for': '::ffff:8.8.8.8' }],
      [`${to}?utm_source=poster&qr`, { 'user-agent': BROWSERS.safariIpad, 'x-forwarded-for': '10.0.0.7, 193.0.6.139' }],
      [to, { 'user-agent': BROWSERS.firefoxLinux, 'x-forwarded-for': '192.168.1.20', referer: 'not a url' }],
      // Not counted, each by its class.
      [to, { 'user-agent': BOTS.googlebot, 'x-forwarded-for': '8.8.8.8' }],
      [to, { 'user-agent': BOTS.curl }],
      [to, { 'user-agent': PREVIEWS.slack }],
      [to, { 'user-agent': PREVIEWS.iMessage }],
      [to, { 'user-agent': PREVIEWS.teams }],
      [to, { 'user-agent': ASSISTANTS.claude }],
      [to, { 'user-agent': ASSISTANTS.chatGpt }],
      [to, { 'user-agent': CHECKERS.uptimeRobot }],
      [to, { 'user-agent': BROWSERS.chromeWindows, 'sec-purpose': 'prefetch' }],
      [to, { 'user-agent': BROWSERS.chromeWindows }, 'HEAD'],
      [to, { 'user-agent': '' }],
    ];
    for (const [url, headers, method] of visits) {
      const res = await visit(url, headers, method);
      expect(res.status).toBe(302);
      // The QR marker never reaches the destination.
      expect(res.headers.get('location')).toBe('https://example.com/landing');
    }
    await flushed();
    expect(await facet(link.id, 'country')).toEqual({ NL: 2, FR: 1, US: 1, unknown: 1 });
    expect(await facet(link.id, 'referrer')).toEqual({ direct: 3, 'news.ycombinator.com': 1, 'this service': 1 });
    expect(await facet(link.id, 'device')).toEqual({ phone: 2, desktop: 2, tablet: 1 });
    expect(await facet(link.id, 'browser')).toEqual({ Safari: 2, Chrome: 2, Firefox: 1 });
    expect(await facet(link.id, 'os')).toEqual({ iOS: 2, Windows: 1, Android: 1, Linux: 1 });
    expect(await facet(link.id, 'source')).toEqual({ link: 3, qr: 2 });
    const totals = await server.app.ctx.store.analytics.totals({ linkId: link.id }, DAY, DAY);
    expect(totals).toEqual({ clicks: 5, uncounted: { bot: 2, preview: 3, assistant: 2, checker: 4 } });
    expect(await server.app.ctx.store.analytics.byDay({ linkId: link.id }, DAY, DAY)).toEqual([{ day: DAY, clicks: 5, visitors: 5 }]);
    // linkClicks answers as the spec says: the counted clicks only.
    const clicks = await call(server, 'linkClicks', { code: link.code }, alice.token);
    expect(clicks.body.days.at(-1)).toEqual({ date: DAY, clicks: 5 });
  });

  it("shows the fetchers of a flagged link's warning page by class, and counts no click", async () => {
    const link = await makeLink();
    await server.app.ctx.store.links.setState(link.code, 'flagged', server.clock.now());
    const to = `${server.url}/${link.code}`;
    for (const agent of [BROWSERS.safariMac, PREVIEWS.slack, BOTS.bingbot]) expect((await visit(to, { 'user-agent': agent })).status).toBe(200);
    await flushed();
    expect(await server.app.ctx.store.analytics.totals({ linkId: link.id }, DAY, DAY)).toEqual({ clicks: 0, uncounted: { preview: 1, bot: 1 } });
    expect(await facet(link.id, 'country')).toEqual({});
  });

  it('counts a visitor once a UTC day, and again the next day', async () => {
    const link = await makeLink();
    const to = `${server.url}/${link.code}`;
    const ann = { 'user-agent': BROWSERS.safariMac, 'x-forwarded-for': '2001:630::1' };
    const bob = { 'user-agent': BROWSERS.safariMac, 'x-forwarded-for': '2001:630::2' };
    server.clock.current = new Date(`${DAY}T23:59:58Z`);
    await visit(to, ann);
    await visit(to, { ...ann, 'user-agent': BROWSERS.firefoxLinux }); // another browser: another visitor
    await flushed();
    // Ann again before midnight, written with the first clicks of the next day: her mark of the day is still there.
    await visit(to, ann);
    server.clock.advance(3_000);
    await visit(to, ann);
    await visit(to, bob);
    await visit(to, ann);
    await flushed();
    const next = '2026-11-22';
    expect(await server.app.ctx.store.analytics.byDay({ linkId: link.id }, DAY, next)).toEqual([
      { day: DAY, clicks: 3, visitors: 2 },
      { day: next, clicks: 3, visitors: 2 },
    ]);
    expect(await facet(link.id, 'country', next)).toEqual({ GB: 3 });
  });
});

describe('two server processes on one database', () => {
  it("add up each one's counts, facets and visitors", async () => {
    const link = await makeLink();
    const other = await startServerProcess({ dbPath: server.dbPath, env: { ...databaseEnv(server.dbPath), TRUST_PROXY: '127.0.0.1' } });
    // The other process keeps the real time: this one's clock is set to the same day.
    server.clock.current = new Date();
    const today = server.clock.current.toISOString().slice(0, 10);
    try {
      const headers = (address: string) => ({ 'user-agent': BROWSERS.chromeWindows, 'x-forwarded-for': address });
      for (const base of [server.url, `http://127.0.0.1:${other.port}`]) {
        expect((await visit(`${base}/${link.code}`, headers('193.0.6.139'))).status).toBe(302);
        expect((await visit(`${base}/${link.code}?qr`, headers('2001:660::1'))).status).toBe(302);
        expect((await visit(`${base}/${link.code}`, { 'user-agent': PREVIEWS.whatsApp })).status).toBe(302);
      }
    } finally {
      await other.stop(); // writes its counts as it closes
    }
    await flushed();
    expect(await facet(link.id, 'country', today)).toEqual({ NL: 2, FR: 2 });
    expect(await facet(link.id, 'source', today)).toEqual({ link: 2, qr: 2 });
    // The same two visitors on both processes: one mark each, under the day's one key.
    expect(await server.app.ctx.store.analytics.byDay({ linkId: link.id }, today, today)).toEqual([{ day: today, clicks: 4, visitors: 2 }]);
    expect(await server.app.ctx.store.analytics.totals({ linkId: link.id }, today, today)).toEqual({ clicks: 4, uncounted: { preview: 2 } });
  });
});

describe('settings', () => {
  it('records the daily clicks only with ANALYTICS=off', async () => {
    const off = await startServer({ clock: new TestClock(new Date(`${DAY}T12:00:00Z`)), env: { ANALYTICS: 'off', TRUST_PROXY: '127.0.0.1' } });
    try {
      const bob = await off.person();
      const made = await call(off, 'createLink', { team: bob.teamId, destination: 'https://example.com/' }, bob.token);
      const to = `${off.url}/${made.body.code}`;
      expect((await visit(`${to}?qr`, { 'user-agent': BROWSERS.safariIphone, 'x-forwarded-for': '193.0.6.139' })).headers.get('location')).toBe('https://example.com/');
      await visit(to, { 'user-agent': PREVIEWS.slack });
      await flushed();
      const analytics = off.app.ctx.store.analytics;
      const linkId = (await off.app.ctx.store.links.findByCode(made.body.code))!.id;
      expect(await analytics.byFacet({ linkId }, 'country', DAY, DAY, 100)).toEqual({ rows: [], rest: 0 });
      expect(await analytics.totals({ linkId }, DAY, DAY)).toEqual({ clicks: 1, uncounted: {} });
      expect(await analytics.byDay({ linkId }, DAY, DAY)).toEqual([{ day: DAY, clicks: 1, visitors: 0 }]);
    } finally {
      await off.stop();
    }
  });

  it('stops the start on a GEOIP_DATABASE that is no mmdb file, saying why', async () => {
    const starting = startServerProcess({ dbPath: server.dbPath, env: { ...databaseEnv(server.dbPath), GEOIP_DATABASE: server.dbPath.replace(/[^/]+$/, '') } });
    await expect(starting).rejects.toThrow(/server exited with 1: .*Bad configuration: GEOIP_DATABASE: \S+ is not a readable mmdb database \(EISDIR/s);
  });
});
