import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUESSES_PER_ADDRESS } from '../../src/redirect/link-password.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';
import { startSharedPair } from '../helpers/shared-servers.js';

/**
 * What visitors get from a link's options (docs/behaviour.md, "Link options"): the end of an expired or capped
 * link, the password page, and the query string passed on; on one process with the server's clock, and on two
 * sharing a database.
 */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const HOUR = 3_600_000;
/** Limits these tests never reach: they make many links, and change them often. */
const ROOMY = { perHour: 1000, perDay: 1000, firstWeekPerDay: 1000, changesPerHour: 1000 };

function visitOf(server: TestServer) {
  return (path: string, init: { headers?: Record<string, string>; method?: string; body?: string } = {}) =>
    fetch(`${server.url}${path}`, { redirect: 'manual', ...init, headers: { 'user-agent': BROWSER, ...init.headers } });
}

async function linkOn(server: TestServer, actor: Actor, body: Record<string, unknown>): Promise<{ code: string; name: string | null }> {
  const made = await call(server, 'createLink', { team: actor.teamId, destination: 'https://example.com/landing', ...body }, actor.token);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body;
}

async function setOptions(server: TestServer, actor: Actor, code: string, options: Record<string, unknown>): Promise<void> {
  const reply = await call(server, 'setLinkOptions', { code, ...options }, actor.token);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/** The ended page: 410, saying so and not why. */
async function expectEnded(res: Response): Promise<void> {
  expect(res.status).toBe(410);
  expect(res.headers.get('location')).toBeNull();
  const html = await res.text();
  expect(html).toContain('<h1>This link has ended</h1>');
  expect(html).not.toMatch(/expire|click|example\.com/i);
}

describe('one process', () => {
  let server: TestServer;
  let alice: Actor;
  let visit: ReturnType<typeof visitOf>;
  beforeAll(async () => {
    server = await startServer();
    await server.setLimits(ROOMY);
    alice = await server.person();
    visit = visitOf(server);
  });
  afterAll(() => server.stop());
  const later = (ms: number) => new Date(server.clock.now().getTime() + ms).toISOString();

  describe('expiresAt', () => {
    it('redirects until the moment it ends, then answers 410; a later expiresAt, or none, brings it back', async () => {
      const made = await linkOn(server, alice, { name: 'ends-soon', expiresAt: later(HOUR) });
      expect((await visit('/ends-soon')).status).toBe(302);
      server.clock.advance(HOUR - 1);
      expect((await visit(`/${made.code}`)).status).toBe(302);
      server.clock.advance(1);
      await expectEnded(await visit(`/${made.code}`));
      await expectEnded(await visit('/ends-soon'));
      // Its owners still see it, and change it.
      const got = await call(server, 'getLink', { code: made.code }, alice.token);
      expect(got.body).toMatchObject({ state: 'active', expiresAt: new Date(server.clock.now().getTime()).toISOString() });
      await setOptions(server, alice, made.code, { expiresAt: later(HOUR) });
      expect((await visit('/ends-soon')).headers.get('location')).toBe('https://example.com/landing');
      server.clock.advance(HOUR);
      await expectEnded(await visit('/ends-soon'));
      await setOptions(server, alice, made.code, { expiresAt: null });
      expect((await visit('/ends-soon')).status).toBe(302);
    });

    it('an earlier expiresAt ends a link on the very next request', async () => {
      const made = await linkOn(server, alice, { expiresAt: later(10 * HOUR) });
      expect((await visit(`/${made.code}`)).status).toBe(302);
      await setOptions(server, alice, made.code, { expiresAt: later(1000) });
      server.clock.advance(1000);
      await expectEnded(await visit(`/${made.code}`));
    });
  });

  describe('maxClicks', () => {
    it('counts clicks by people only, and ends the link at its cap; a higher cap or none brings it back', async () => {
      const made = await linkOn(server, alice, { maxClicks: 2 });
      // A bot, a link preview and a HEAD get the redirect and use none of the cap.
      expect((await visit(`/${made.code}`, { headers: { 'user-agent': BOT } })).status).toBe(302);
      expect((await visit(`/${made.code}`, { method: 'HEAD' })).status).toBe(302);
      expect((await visit(`/${made.code}`)).status).toBe(302);
      expect((await visit(`/${made.code}`)).status).toBe(302);
      await expectEnded(await visit(`/${made.code}`));
      await expectEnded(await visit(`/${made.code}`, { headers: { 'user-agent': BOT } }));
      await setOptions(server, alice, made.code, { maxClicks: 3 });
      expect((await visit(`/${made.code}`)).status).toBe(302);
      await expectEnded(await visit(`/${made.code}`));
      await setOptions(server, alice, made.code, { maxClicks: null });
      expect((await visit(`/${made.code}`)).status).toBe(302);
    });

    it('a code and a name share one count', async () => {
      const made = await linkOn(server, alice, { name: 'shared-count', maxClicks: 2 });
      expect((await visit(`/${made.code}`)).status).toBe(302);
      expect((await visit('/shared-count')).status).toBe(302);
      await expectEnded(await visit('/Shared-Count'));
      await expectEnded(await visit(`/${made.code}`));
    });

    it('a cap lowered to the clicks counted ends the link on the very next request', async () => {
      const made = await linkOn(server, alice, { maxClicks: 100 });
      for (let i = 0; i < 3; i++) expect((await visit(`/${made.code}`)).status).toBe(302);
      await setOptions(server, alice, made.code, { maxClicks: 3 });
      await expectEnded(await visit(`/${made.code}`));
    });
  });

  describe('password', () => {
    const form = (password: string) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password }).toString(),
    });

    it('asks for it, says a wrong one is wrong, and sends the right one on with a permission for that link', async () => {
      const made = await linkOn(server, alice, { name: 'secret-plan', password: 'open sesame 42' });
      const asked = await visit('/secret-plan');
      expect(asked.status).toBe(200);
      expect(asked.headers.get('cache-control')).toBe('no-store');
      const page = await asked.text();
      expect(page).toContain('<h1>This link needs a password</h1>');
      expect(page).toContain('<form method="post">');
      expect(page).not.toContain('example.com');
      const wrong = await visit('/secret-plan', form('open sesame 43'));
      expect(wrong.status).toBe(403);
      expect(await wrong.text()).toContain('That password is not right.');
      expect(wrong.headers.get('set-cookie')).toBeNull();
      const right = await visit('/secret-plan?ref=mail', form('open sesame 42'));
      expect(right.status).toBe(303);
      expect(right.headers.get('location')).toBe('https://example.com/landing?ref=mail');
      const cookie = right.headers.get('set-cookie')!;
      expect(cookie).toMatch(new RegExp(`^slp_${made.code}=\\d+\\.[A-Za-z0-9_-]{43}; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax$`));
      const permission = cookie.split(';')[0]!;
      // The next visit, by code or by name, goes straight on.
      for (const path of [`/${made.code}`, '/secret-plan']) {
        const again = await visit(path, { headers: { cookie: permission } });
        expect(again.status).toBe(302);
        expect(again.headers.get('location')).toBe('https://example.com/landing');
      }
      // It opens no other link with a password, and ends when the password changes.
      const other = await linkOn(server, alice, { password: 'open sesame 42' });
      expect((await visit(`/${other.code}`, { headers: { cookie: permission.replace(made.code, other.code) } })).status).toBe(200);
      await setOptions(server, alice, made.code, { password: 'a new password' });
      expect((await visit('/secret-plan', { headers: { cookie: permission } })).status).toBe(200);
      // Twelve hours on, it ran out.
      const renewed = (await visit('/secret-plan', form('a new password'))).headers.get('set-cookie')!.split(';')[0]!;
      server.clock.advance(12 * HOUR);
      expect((await visit('/secret-plan', { headers: { cookie: renewed } })).status).toBe(200);
    });

    it('counts a click only for the visitor who reaches the destination', async () => {
      const made = await linkOn(server, alice, { password: 'counted only once', maxClicks: 1 });
      expect((await visit(`/${made.code}`)).status).toBe(200);
      expect((await visit(`/${made.code}`, form('not the one'))).status).toBe(403);
      expect((await visit(`/${made.code}`, form('counted only once'))).status).toBe(303);
      await expectEnded(await visit(`/${made.code}`));
    });

    it(`limits guesses to ${GUESSES_PER_ADDRESS} per client address in 15 minutes, right ones included: then 429 with Retry-After`, async () => {
      // A server of its own, trusting loopback as its proxy, so each guess names its client address.
      const guessing = await startServer({ env: { TRUST_PROXY: '127.0.0.1' } });
      try {
        const bob = await guessing.person();
        const guarded = await linkOn(guessing, bob, { password: 'guess me if you can' });
        const guess = (password: string, from = '203.0.113.77') =>
          visitOf(guessing)(`/${guarded.code}`, { ...form(password), headers: { ...form(password).headers, 'x-forwarded-for': from } });
        for (let i = 0; i < GUESSES_PER_ADDRESS; i++) expect((await guess(`wrong guess ${i}`)).status).toBe(403);
        const limited = await guess('guess me if you can');
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await limited.text()).toContain('Too many tries');
        // Another address still may.
        expect((await guess('guess me if you can', '203.0.113.78')).status).toBe(303);
      } finally {
        await guessing.stop();
      }
    });

    it('a bot, a HEAD and a post without the form get the page, never the destination', async () => {
      const made = await linkOn(server, alice, { password: 'robots stay out' });
      expect((await visit(`/${made.code}`, { headers: { 'user-agent': BOT } })).status).toBe(200);
      const head = await visit(`/${made.code}`, { method: 'HEAD' });
      expect([head.status, head.headers.get('location')]).toEqual([200, null]);
      const json = await visit(`/${made.code}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"password":"robots stay out"}' });
      expect(json.status).toBe(403);
      const huge = await visit(`/${made.code}`, form('x'.repeat(10_000)));
      expect(huge.status).toBe(403);
    });

    it('a POST to a link without a password is not a visit (the web app answers it)', async () => {
      const made = await linkOn(server, alice, {});
      const res = await visit(`/${made.code}`, form('anything at all'));
      expect(res.status).not.toBe(302);
      expect(res.status).not.toBe(303);
      expect(res.headers.get('location')).toBeNull();
    });
  });

  describe('forwardQuery', () => {
    it('passes the visit’s query on, the destination’s own parameters winning, never the QR marker', async () => {
      const made = await linkOn(server, alice, { destination: 'https://example.com/shop?id=7#top' });
      expect((await visit(`/${made.code}?utm_source=mail&id=8&qr`)).headers.get('location')).toBe('https://example.com/shop?id=7&utm_source=mail#top');
      expect((await visit(`/${made.code}?qr`)).headers.get('location')).toBe('https://example.com/shop?id=7#top');
    });

    it('false, the destination as it is; links made before options existed pass nothing on', async () => {
      const made = await linkOn(server, alice, { forwardQuery: false });
      expect((await visit(`/${made.code}?utm_source=mail`)).headers.get('location')).toBe('https://example.com/landing');
      const old = await server.app.ctx.store.links.create(
        { teamId: alice.teamId, teamCreatedAt: new Date(0), destination: 'https://example.com/old', name: null, note: null },
        { ...(await server.app.ctx.store.settings.limits()) },
        server.clock.now(),
      );
      expect((await visit(`/${old.code}?utm_source=mail`)).headers.get('location')).toBe('https://example.com/old');
      await setOptions(server, alice, old.code, { forwardQuery: true });
      expect((await visit(`/${old.code}?utm_source=mail`)).headers.get('location')).toBe('https://example.com/old?utm_source=mail');
    });
  });
});

describe('two processes on one database', () => {
  let pair: Awaited<ReturnType<typeof startSharedPair>>;
  let alice: Actor;
  beforeAll(async () => {
    pair = await startSharedPair();
    await pair.a.setLimits(ROOMY);
    alice = await pair.a.person();
  });
  afterAll(() => pair.stop());

  it('an option changed on one is seen on the very next request on the other', async () => {
    const made = await linkOn(pair.a, alice, { maxClicks: 50, forwardQuery: false });
    expect((await visitOf(pair.b)(`/${made.code}?x=1`)).headers.get('location')).toBe('https://example.com/landing');
    await setOptions(pair.a, alice, made.code, { forwardQuery: true });
    expect((await visitOf(pair.b)(`/${made.code}?x=1`)).headers.get('location')).toBe('https://example.com/landing?x=1');
    await setOptions(pair.a, alice, made.code, { expiresAt: new Date(pair.a.clock.now().getTime() + 1000).toISOString() });
    pair.a.clock.advance(1000);
    await expectEnded(await visitOf(pair.b)(`/${made.code}`));
    await setOptions(pair.a, alice, made.code, { expiresAt: null, password: 'only with this' });
    expect((await visitOf(pair.b)(`/${made.code}`)).status).toBe(200);
  });

  it('each takes in the clicks the other counted: a cap reached across both ends the link on both', async () => {
    const made = await linkOn(pair.a, alice, { maxClicks: 4 });
    expect((await visitOf(pair.a)(`/${made.code}`)).status).toBe(302);
    expect((await visitOf(pair.a)(`/${made.code}`)).status).toBe(302);
    // Written within a second (each process writes its counts every second); b reads the total at its first visit.
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect((await visitOf(pair.b)(`/${made.code}`)).status).toBe(302);
    expect((await visitOf(pair.b)(`/${made.code}`)).status).toBe(302);
    await expectEnded(await visitOf(pair.b)(`/${made.code}`));
    // a read its total over a second ago: its next visit has it read again in the background, so within a second
    // or two of b's clicks being written, a ends the link too.
    await new Promise((resolve) => setTimeout(resolve, 1300));
    pair.a.clock.advance(1000);
    await expect.poll(async () => (await visitOf(pair.a)(`/${made.code}`)).status, { timeout: 5000, interval: 100 }).toBe(410);
  });
});
