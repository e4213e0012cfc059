import { PNG } from 'pngjs';
import jsQR from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

function visit(path: string, headers: Record<string, string> = { 'user-agent': BROWSER }, method = 'GET') {
  return fetch(`${server.url}${path}`, { method, headers, redirect: 'manual' });
}

async function link(actor: Actor, body: Record<string, unknown> = {}) {
  const made = await call(server, 'createLink', { team: actor.teamId, destination: 'https://example.com/first', ...body }, actor.token);
  expect(made.status).toBe(200);
  return made.body as { code: string; name: string | null };
}

async function clicksToday(actor: Actor, code: string): Promise<number> {
  const reply = await call(server, 'linkClicks', { code }, actor.token);
  return reply.body.days.at(-1).clicks;
}

describe('redirects', () => {
  it('answers an active link by code and by name with 302, Location and Cache-Control: private, max-age=0', async () => {
    const alice = await server.person();
    const made = await link(alice, { name: 'redirect-me' });
    for (const path of [`/${made.code}`, '/redirect-me']) {
      const res = await visit(path);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('https://example.com/first');
      expect(res.headers.get('cache-control')).toBe('private, max-age=0');
      // The policy of the page the click came from decides what the destination sees (the dashboard's keeps its
      // address, team and search, to itself); a policy here would replace it.
      expect(res.headers.get('referrer-policy')).toBeNull();
    }
    const head = await visit(`/${made.code}`, { 'user-agent': BROWSER }, 'HEAD');
    expect(head.status).toBe(302);
    expect(head.headers.get('location')).toBe('https://example.com/first');
  });

  it('follows a destination change and a rename on the very next request', async () => {
    const alice = await server.person();
    const made = await link(alice, { name: 'before-rename' });
    expect((await visit('/before-rename')).status).toBe(302);
    await call(server, 'setDestination', { code: made.code, destination: 'https://example.org/second' }, alice.token);
    expect((await visit(`/${made.code}`)).headers.get('location')).toBe('https://example.org/second');
    await call(server, 'renameLink', { code: made.code, name: 'after-rename' }, alice.token);
    expect((await visit('/before-rename')).status).toBe(404);
    expect((await visit('/after-rename')).headers.get('location')).toBe('https://example.org/second');
  });

  it('shows a flagged link as a warning page with a way onward, escaping the destination', async () => {
    const alice = await server.person();
    const made = await link(alice, { destination: 'https://example.com/?q=<script>&x="y"' });
    await server.app.ctx.store.links.setState(made.code, 'flagged', new Date());
    const res = await visit(`/${made.code}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('under review');
    expect(html).not.toContain('<script>');
    // Shown as stored: serialized, as the redirect writes it (< and " percent-encoded), and escaped.
    expect(html).toContain('href="https://example.com/?q=%3Cscript%3E&amp;x=%22y%22"');
  });

  it('answers a disabled link with a 410 page, and unknown, deleted or renamed-away addresses with a 404 page', async () => {
    const alice = await server.person();
    const disabled = await link(alice);
    await server.app.ctx.store.links.setState(disabled.code, 'disabled', new Date());
    expect((await visit(`/${disabled.code}`)).status).toBe(410);
    const deleted = await link(alice, { name: 'soon-gone' });
    expect((await visit('/soon-gone')).status).toBe(302);
    await call(server, 'deleteLink', { code: deleted.code }, alice.token);
    for (const path of [`/${deleted.code}`, '/soon-gone', '/Zzzzzzz', '/no-such-name']) {
      const res = await visit(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('sees a state change made by the operator CLI in another process at once', async () => {
    const alice = await server.person();
    const made = await link(alice);
    expect((await visit(`/${made.code}`)).status).toBe(302);
    expect((await runCli(server.dbPath, 'link', 'disable', made.code)).code).toBe(0);
    expect((await visit(`/${made.code}`)).status).toBe(410);
  });

  it('sees a link flagged by reports at once', async () => {
    const owner = await server.person();
    const made = await link(owner);
    expect((await visit(`/${made.code}`)).status).toBe(302);
    const store = server.app.ctx.store;
    const id = (await store.links.findByCode(made.code))!.id;
    for (let i = 0; i < 3; i++) {
      const reporter = await server.person({ addedByOperator: true });
      await store.moderation.report(id, reporter.personId, 'spam', DEFAULT_LIMITS, new Date());
    }
    expect((await visit(`/${made.code}`)).status).toBe(200);
  });

  it('leaves the service own pages alone', async () => {
    expect((await visit('/health')).status).toBe(200);
    expect((await visit('/docs')).status).toBe(404);
  });

  it('sends a destination with non-ASCII characters as a valid ASCII Location', async () => {
    const alice = await server.person();
    const made = await link(alice, { destination: 'https://bücher.de/straße?q=ü' });
    expect((await visit(`/${made.code}`)).headers.get('location')).toBe('https://xn--bcher-kva.de/stra%C3%9Fe?q=%C3%BC');
  });
});

describe('clicks', () => {
  it('counts browser GETs per UTC day, and not HEAD, prefetch, bots, previews or requests without a User-Agent', async () => {
    const alice = await server.person();
    const made = await link(alice);
    const path = `/${made.code}`;
    for (let i = 0; i < 3; i++) await visit(path);
    await visit(path, { 'user-agent': BROWSER }, 'HEAD');
    await visit(path, { 'user-agent': BROWSER, 'sec-purpose': 'prefetch;prerender' });
    await visit(path, { 'user-agent': BROWSER, purpose: 'prefetch' });
    await visit(path, { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    await visit(path, { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' });
    await visit(path, { 'user-agent': 'facebookexternalhit/1.1' });
    await visit(path, { 'user-agent': 'curl/8.5.0' });
    await visit(path, {});
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(await clicksToday(alice, made.code)).toBe(3);
  });

  it('does not count the warning page of a flagged link, nor a disabled link', async () => {
    const alice = await server.person();
    const made = await link(alice);
    await server.app.ctx.store.links.setState(made.code, 'flagged', new Date());
    await visit(`/${made.code}`);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(await clicksToday(alice, made.code)).toBe(0);
  });
});

describe('QR codes', () => {
  it('answers an SVG of the short address', async () => {
    const alice = await server.person();
    const made = await link(alice);
    const res = await visit(`/${made.code}/qr`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  });

  it('answers a PNG that decodes to PUBLIC_URL/<code>?qr (the marker of a scan)', async () => {
    const alice = await server.person();
    const made = await link(alice, { name: 'qr-name' });
    const res = await visit(`/${made.code}/qr?format=png`);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(`${server.url}/${made.code}?qr`);
  });

  it('takes QR codes from the client address budget', async () => {
    const own = await startServer();
    try {
      const alice = await own.person();
      const made = await call(own, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, alice.token);
      await own.setLimits({ callsPerMinute: 2 });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${own.url}/${made.body.code}/qr?format=png`)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await own.stop();
    }
  });

  it('answers 404 for an unknown code or name (a known name serves its code’s: short-addresses.test.ts)', async () => {
    expect((await visit('/Zzzzzzz/qr')).status).toBe(404);
    expect((await visit('/no-such-name/qr')).status).toBe(404);
  });
});
