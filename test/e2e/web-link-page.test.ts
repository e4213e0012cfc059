import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { memberWithTeam, startWebServer, WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * A link's page, `/app/links/<code>`, over real HTTP as a browser without JavaScript sees it: the addresses, the
 * facts, the QR downloads and the clicks chart drawn on the server, made from real redirects. Who may see it is the
 * linkByCode tool's rule: the link's team only; everyone else gets the not-found page.
 */
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' };
let server: TestServer;
let people = 0;
beforeAll(async () => (server = await startWebServer()));
afterAll(() => server.stop());

const someone = () => memberWithTeam(server.url, `link-page${++people}@example.com`, 'Crew');

async function makeLink(visitor: WebVisitor, team: string, fields: Record<string, string> = {}): Promise<string> {
  const made = await visitor.submit('/app', '/app/links', { team, destination: 'https://example.com/page', ...fields });
  expect(made.status).toBe(303);
  return /made=([A-Za-z0-9]{7})/.exec(made.location!)![1]!;
}

const get = (visitor: WebVisitor, path: string) => visitor.request('GET', path);

/** Visits the short link as a browser does, on the given UTC day of the test clock. */
async function clickOn(day: string, path: string, times: number): Promise<void> {
  server.clock.current = new Date(`${day}T12:00:00.000Z`);
  for (let i = 0; i < times; i++) {
    const res = await fetch(`${server.url}${path}`, { redirect: 'manual', headers: BROWSER });
    expect(res.status).toBe(302);
  }
}

const totalOf = (page: WebPage, id: string) => new RegExp(`id="${id}">(\\d+)<`).exec(page.body)?.[1];

describe('a link page', () => {
  it('shows the short addresses, destination, note, state and dates, and is linked from the dashboard', async () => {
    const { visitor, team } = await someone();
    const code = await makeLink(visitor, team, { name: 'page-named', note: 'for the poster' });
    const dashboard = await get(visitor, '/app');
    expect(dashboard.body).toContain(`href="/app/links/${code}"`);

    const page = await get(visitor, `/app/links/${code}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<a href="${server.url}/${code}">${server.url}/${code}</a>`);
    expect(page.body).toContain(`<a href="${server.url}/page-named">${server.url}/page-named</a>`);
    expect(page.body).toContain(`data-copy="${server.url}/${code}"`);
    expect(page.body).toContain('https://example.com/page');
    expect(page.body).toContain('for the poster');
    expect(page.body).toMatch(/<dt>State<\/dt><dd>active<\/dd>/);
    expect(page.body).toContain('<time datetime="2026-11-21T12:00:00.000Z">2026-11-21 12:00 UTC</time>');
    // Only our own script, from our own origin: the policy allows exactly that and nothing inline.
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'$/);
    expect(page.body).not.toMatch(/<script>/);
    const script = await fetch(`${server.url}/app/scripts/page.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('charts the clicks of real redirects per day, with exact counts in the bars, the table and the totals', async () => {
    const { visitor, team } = await someone();
    const code = await makeLink(visitor, team);
    try {
      await clickOn('2026-11-10', `/${code}`, 2);
      await clickOn('2026-11-20', `/${code}`, 3);
      await clickOn('2026-11-21', `/${code}`, 1);
    } finally {
      server.clock.current = new Date('2026-11-21T12:00:00.000Z');
    }
    // Clicks are written once a second; wait until the page shows them all.
    let page = await get(visitor, `/app/links/${code}`);
    for (let waited = 0; totalOf(page, 'last30') !== '6' && waited < 5_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      page = await get(visitor, `/app/links/${code}`);
    }
    expect(totalOf(page, 'last30')).toBe('6');
    expect(totalOf(page, 'last7')).toBe('4');
    const bars = [...page.body.matchAll(/<g class="bar" tabindex="0" role="img" aria-label="([^"]+)"/g)].map((m) => m[1]);
    expect(bars).toHaveLength(30);
    expect(bars[0]).toBe('0 clicks on 23 October');
    expect(bars).toContain('2 clicks on 10 November');
    expect(bars).toContain('3 clicks on 20 November');
    expect(bars.at(-1)).toBe('1 click on 21 November');
    expect(page.body).toContain('<title>3 clicks on 20 November</title>');
    expect(page.body).toContain('<tr><th scope="row">10 November</th><td>2</td></tr>');
    expect(page.body).toContain('<tr><th scope="row">21 November</th><td>1</td></tr>');
    // A y axis of round numbers up to at least the highest day.
    expect(page.body).toMatch(/text-anchor="end">3<\/text>/);
  });

  it('offers the QR code as PNG (which reads back as the short address) and as SVG', async () => {
    const { visitor, team } = await someone();
    const code = await makeLink(visitor, team);
    const page = await get(visitor, `/app/links/${code}`);
    const png = /href="(\/[A-Za-z0-9]{7}\/qr\?format=png)" download="[^"]+\.png"/.exec(page.body)![1]!;
    const svg = /href="(\/[A-Za-z0-9]{7}\/qr)" download="[^"]+\.svg"/.exec(page.body)![1]!;
    const pngRes = await fetch(`${server.url}${png}`);
    expect(pngRes.headers.get('content-type')).toBe('image/png');
    const image = PNG.sync.read(Buffer.from(await pngRes.arrayBuffer()));
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(`${server.url}/${code}?qr`);
    const svgRes = await fetch(`${server.url}${svg}`);
    expect(svgRes.headers.get('content-type')).toBe('image/svg+xml');
    expect(await svgRes.text()).toMatch(/^<svg/);
  });

  it('is not found for anyone outside the team, and for an unknown code', async () => {
    const { visitor, team } = await someone();
    const code = await makeLink(visitor, team);
    const stranger = await someone();
    const refused = await get(stranger.visitor, `/app/links/${code}`);
    expect(refused.status).toBe(404);
    expect(refused.body).toContain('<h1>Not found</h1>');
    expect(refused.body).not.toContain('example.com/page');
    expect((await get(visitor, '/app/links/AAAAAAA')).status).toBe(404);
  });

  it('sends a signed-out visitor to sign in, coming back afterwards', async () => {
    const page = await get(new WebVisitor(server.url), '/app/links/AAAAAAA');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/signin?next=%2Fapp%2Flinks%2FAAAAAAA');
  });

  // Nothing that cannot be a code names a link (the not-found page); an address that cannot be decoded is a 400.
  it.each([
    { what: 'a NUL', path: '/app/links/%00', status: 404 },
    { what: '5,000 characters', path: `/app/links/${'A'.repeat(5000)}`, status: 404 },
    { what: 'an encoded slash', path: '/app/links/..%2F..%2Fapp', status: 404 },
    { what: 'a broken percent-encoding', path: '/app/links/%E0%A4%A', status: 400 },
    { what: 'a cut UTF-8 sequence', path: '/app/links/%F0%9F%98%80%F0%9F', status: 400 },
  ])('answers a code of $what with $status, never a 500', async ({ path, status }) => {
    const { visitor } = await someone();
    expect((await get(visitor, path)).status).toBe(status);
  });
});
