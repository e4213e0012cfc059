import { mkdirSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import jsQR from 'jsqr';
import type { Browser, Frame, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickFacet } from '../../src/domain/analytics.js';
import { lastDays } from '../../src/domain/days.js';
import { startAppsHost } from '../helpers/apps-host.js';
import { launchBrowser } from '../helpers/browser.js';
import { startServer, type Actor, type TestServer } from '../helpers/server.js';

/**
 * The MCP Apps views in Debian's chromium, loaded the way a chat host loads them (test/helpers/apps-host.ts: a
 * sandboxed frame, 360 px wide, spoken to by postMessage), each fed a real tool result from the running service
 * through the official client. What the person sees is checked: the short address, the QR code decoding to it,
 * the chart's numbers, the list; that "See clicks" and "Next page" go through the host as tools/call; that a note
 * holding markup shows as text; that nothing scrolls sideways and no policy is broken, in light and dark.
 * `SCREENSHOTS=1` writes docs/screenshots/.
 */
const MIME = 'text/html;profile=mcp-app';
const SCREENSHOTS = process.env.SCREENSHOTS === '1';
const NOTE = "Autumn launch: print & post (Ada's)";
/** The service refuses such a note (notes take no markup), so the test puts it into a real result by hand. */
const HOSTILE_NOTE = 'Launch <script>window.hacked=1</script><img src=x onerror="window.hacked=2"> & more';

let server: TestServer;
let browser: Browser;
let host: Awaited<ReturnType<typeof startAppsHost>>;
let client: Client;
let alice: Actor;
let link: any;

beforeAll(async () => {
  server = await startServer();
  [browser, host] = await Promise.all([launchBrowser(), startAppsHost()]);
  alice = await server.person();
  client = new Client(
    { name: 'apps-host', version: '1' },
    { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${alice.token}` } } }));
  const made = await client.callTool({
    name: 'createLink',
    arguments: { team: alice.teamId, destination: `https://example.com/${'a-long-path-segment/'.repeat(6)}launch`, name: 'autumn-launch', note: NOTE },
  });
  expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
  link = made.structuredContent;
  // Clicks on three of the last 30 days: 5 in the last 7 days, 17 in all.
  const days = lastDays(server.clock.now(), 30);
  await server.app.ctx.store.clicks.add(new Map([[link.id, new Map([[days[29]!, 3], [days[25]!, 2], [days[5]!, 12]])]]));
  // Where today's 3 came from, and 12 long ago: more countries than the view's five rows.
  const facet = (day: string, facet: ClickFacet, value: string, count: number) => ({ linkId: link.id, day, facet, value, count });
  await server.app.ctx.store.analytics.add({
    facets: [
      ...['FR', 'DE', 'JP', 'US', 'BR', 'IN'].map((country, i) => facet(days[5]!, 'country', country, 6 - i)),
      facet(days[5]!, 'referrer', 'news.ycombinator.com', 12),
      facet(days[29]!, 'country', 'FR', 3),
      facet(days[29]!, 'referrer', 'news.ycombinator.com', 1),
      facet(days[29]!, 'referrer', 'direct', 2),
    ],
    uncounted: [],
    visitors: [],
  });
});

afterAll(async () => {
  await client?.close();
  await browser?.close();
  await host?.close();
  await server?.stop();
});

interface Mounted {
  page: Page;
  view: Frame;
  calls: Array<{ name: string; arguments: unknown }>;
  problems: string[];
}

/** The view of `uri` in the test host, given the tool's input and its real result, in a 360 px wide page. */
async function mount(uri: string, input: Record<string, unknown>, result: unknown, theme: 'light' | 'dark' = 'light'): Promise<Mounted> {
  const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const calls: Mounted['calls'] = [];
  await page.exposeFunction('callServerTool', async (name: string, args: Record<string, unknown>) => {
    calls.push({ name, arguments: args });
    return client.callTool({ name, arguments: args });
  });
  await page.goto(host.url);
  const { contents } = await client.readResource({ uri });
  await page.evaluate(([html, args, answer, scheme]) => (window as any).mount(html, args, answer, scheme), [(contents[0] as any).text, input, result, theme] as const);
  const view = page.frames().find((frame) => frame !== page.mainFrame())!;
  return { page, view, calls, problems };
}

async function decodeQr(view: Frame): Promise<string | null> {
  const png = PNG.sync.read(await view.locator('svg.qr').screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

async function scrollsSideways(view: Frame): Promise<boolean> {
  return view.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

async function screenshot(mounted: Mounted, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync('docs/screenshots', { recursive: true });
  await mounted.page.waitForTimeout(200);
  await mounted.page.locator('iframe').screenshot({ path: `docs/screenshots/${name}.png` });
}

describe('the link card', () => {
  it.each(['light', 'dark'] as const)('shows the link from a real createLink result (%s), its QR code decoding to the short address', async (theme) => {
    const result = await client.callTool({ name: 'linkByCode', arguments: { code: link.code } });
    const mounted = await mount('ui://shortlinks/link-card', { code: link.code }, result, theme);
    const { view } = mounted;
    const address = `${server.url}/${link.code}`;
    await expect.poll(() => view.locator('.address').allTextContents()).toEqual([address, `${server.url}/autumn-launch`]);
    // The QR code carries the marker that counts a scan as one (`?qr`).
    expect(await decodeQr(view)).toBe(`${address}?qr`);
    expect(await view.getByRole('img', { name: `QR code for ${address}` }).count()).toBe(1);
    expect(await view.locator('dd').allTextContents()).toEqual([link.destination, NOTE, 'Active']);
    // A link without options shows none.
    expect(await view.locator('.options, .tags').count()).toBe(0);
    expect(await view.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe(theme);
    const background = await view.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe(theme === 'dark' ? 'rgb(27, 27, 31)' : 'rgb(255, 255, 255)');
    expect(await scrollsSideways(view)).toBe(false);
    await screenshot(mounted, `link-card-${theme}`);
    expect(mounted.problems).toEqual([]);
    await mounted.page.close();
  });

  it('shows markup in a result as text: no element is made and no script runs', async () => {
    const result: any = await client.callTool({ name: 'linkByCode', arguments: { code: link.code } });
    result.structuredContent = { ...result.structuredContent, note: HOSTILE_NOTE, destination: 'https://example.com/"><b>bold</b>' };
    const { page, view, problems } = await mount('ui://shortlinks/link-card', { code: link.code }, result);
    await expect.poll(() => view.locator('dd').allTextContents()).toEqual(['https://example.com/"><b>bold</b>', HOSTILE_NOTE, 'Active']);
    expect(await view.locator('img, b, dd script').count()).toBe(0);
    expect(await view.evaluate(() => (window as any).hacked)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each([
    ['flagged', 'Flagged: visitors see a warning page before the destination'],
    ['disabled', 'Disabled: visitors get a page saying the link no longer works'],
  ] as const)('says what a %s link does to visitors', async (state, words) => {
    const made: any = await client.callTool({ name: 'createLink', arguments: { team: alice.teamId, destination: `https://example.com/${state}` } });
    await server.app.ctx.store.links.setState(made.structuredContent.code, state, server.clock.now());
    const result: any = await client.callTool({ name: 'linkByCode', arguments: { code: made.structuredContent.code } });
    expect(result.structuredContent.state).toBe(state);
    const { page, view } = await mount('ui://shortlinks/link-card', {}, result);
    await expect.poll(() => view.locator(`dd.state-${state}`).textContent()).toBe(words);
    expect(await view.locator('dd').nth(1).textContent()).toBe('No note');
    await page.close();
  });

  it('shows the options a real setLinkOptions result has: when it ends, its click cap, its password and its tags', async () => {
    const made: any = await client.callTool({ name: 'createLink', arguments: { team: alice.teamId, destination: 'https://example.com/options' } });
    const password = 'correct horse battery';
    const result: any = await client.callTool({
      name: 'setLinkOptions',
      arguments: { code: made.structuredContent.code, expiresAt: '2027-01-31T19:00:00+01:00', maxClicks: 500, password, tags: ['print', 'fair'] },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const mounted = await mount('ui://shortlinks/link-card', {}, result);
    const { view } = mounted;
    await expect.poll(() => view.locator('.options li').allTextContents()).toEqual([
      'Ends 31 Jan 2027, 18:00 UTC',
      'Ends after 500 clicks',
      'Protected by a password',
    ]);
    expect(await view.getByRole('list', { name: 'Tags' }).locator('li').allTextContents()).toEqual(['fair', 'print']);
    expect(await view.locator('dd').allTextContents()).toEqual(['https://example.com/options', 'No note', 'Active']);
    expect(await view.locator('body').textContent()).not.toContain(password);
    expect(await scrollsSideways(view)).toBe(false);
    expect(mounted.problems).toEqual([]);
    await mounted.page.close();
  });

  it('says a link ended once its end is past, and shows tags holding markup as text', async () => {
    const result: any = await client.callTool({ name: 'linkByCode', arguments: { code: link.code } });
    result.structuredContent = { ...result.structuredContent, expiresAt: '2020-02-29T07:05:00.000Z', maxClicks: 10_000_000, tags: ['<b>bold</b>', 'plain'] };
    const { page, view, problems } = await mount('ui://shortlinks/link-card', { code: link.code }, result);
    await expect.poll(() => view.locator('.options li').allTextContents()).toEqual(['Ended 29 Feb 2020, 07:05 UTC', 'Ends after 10,000,000 clicks']);
    expect(await view.locator('.tag').allTextContents()).toEqual(['<b>bold</b>', 'plain']);
    expect(await view.locator('b').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('copies the short address', async () => {
    const result = await client.callTool({ name: 'linkByCode', arguments: { code: link.code } });
    const { page, view } = await mount('ui://shortlinks/link-card', { code: link.code }, result);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin });
    const address = `${server.url}/${link.code}`;
    await view.getByRole('button', { name: `Copy short link ${address}` }).click();
    await expect.poll(() => view.locator('.status').first().textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    await page.close();
  });

  it('"See clicks" asks the host for linkClicks and shows the totals; the page opens through the host', async () => {
    const result = await client.callTool({ name: 'linkByCode', arguments: { code: link.code } });
    const { page, view, calls, problems } = await mount('ui://shortlinks/link-card', { code: link.code }, result);
    await view.getByRole('button', { name: `See clicks of ${server.url}/${link.code}` }).click();
    await expect.poll(() => view.locator('.clicks').textContent()).toBe('Clicks: 5 in 7 days, 17 in 30 days');
    expect(calls).toEqual([{ name: 'linkClicks', arguments: { code: link.code } }]);
    await view.getByRole('button', { name: `Open the page of ${server.url}/${link.code} in shortlinks` }).click();
    await expect
      .poll(() => page.evaluate(() => (window as any).received.filter((m: any) => m.method === 'ui/open-link').map((m: any) => m.params)))
      .toEqual([{ url: `${server.url}/app/links/${link.code}` }]);
    // Everything the view asked of the host: the handshake, its size, the one call and the one link.
    const methods = await page.evaluate(() => [...new Set((window as any).received.map((m: any) => m.method))]);
    expect(methods.sort()).toEqual(['tools/call', 'ui/initialize', 'ui/notifications/initialized', 'ui/notifications/size-changed', 'ui/open-link']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows every link createLinks made, and says which item failed and why', async () => {
    const result: any = await client.callTool({
      name: 'createLinks',
      arguments: { team: alice.teamId, links: [{ destination: 'https://example.com/one' }, { destination: 'not a web address' }, { destination: 'https://example.com/two' }] },
    });
    const [first, failed, second] = result.structuredContent.results;
    const { page, view, problems } = await mount('ui://shortlinks/link-card', {}, result);
    await expect.poll(() => view.locator('.address').allTextContents()).toEqual([`${server.url}/${first.link.code}`, `${server.url}/${second.link.code}`]);
    expect(await view.locator('p.error').textContent()).toBe(`Link 2 was not made: ${failed.message}`);
    expect(await view.locator('svg.qr').count()).toBe(2);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a refused call as its detail', async () => {
    const result: any = await client.callTool({ name: 'linkByCode', arguments: { code: 'zzzzzzz' } });
    const { page, view } = await mount('ui://shortlinks/link-card', { code: 'zzzzzzz' }, result);
    await expect.poll(() => view.locator('p.error').textContent()).toBe(`This did not work: ${JSON.parse(result.content[0].text).detail}`);
    await page.close();
  });
});

describe('the clicks chart', () => {
  it.each(['light', 'dark'] as const)('shows the 7- and 30-day totals, a bar per day and the top countries and referrers for a real linkClicks result (%s)', async (theme) => {
    const result: any = await client.callTool({ name: 'linkClicks', arguments: { code: link.code } });
    const mounted = await mount('ui://shortlinks/clicks-chart', { code: link.code }, result, theme);
    const { view } = mounted;
    await expect.poll(() => view.locator('.total').allInnerTexts()).toEqual(['Last 7 days\n5', 'Last 30 days\n17']);
    expect(await view.locator('h1').textContent()).toBe(`Clicks of ${server.url}/${link.code}`);
    const bars = await view.locator('svg.chart rect').evaluateAll((rects) =>
      rects.map((rect) => ({ date: rect.getAttribute('data-date'), clicks: Number(rect.getAttribute('data-clicks')), height: Number(rect.getAttribute('height')), title: rect.textContent })),
    );
    const days = lastDays(server.clock.now(), 30);
    expect(bars.map((bar) => bar.date)).toEqual(days);
    expect(bars.map((bar) => bar.clicks)).toEqual(result.structuredContent.days.map((day: any) => day.clicks));
    expect(bars[5]).toEqual({ date: days[5], clicks: 12, height: 96, title: `${days[5]}: 12 clicks` });
    expect(bars[29]).toEqual({ date: days[29], clicks: 3, height: 24, title: `${days[29]}: 3 clicks` });
    expect(bars[0]!.height).toBe(0);
    expect(await view.locator('.axis').innerText()).toBe(`${days[0]}\n${days[29]}`);
    // Under the chart, the top countries and referrers of the same 30 days, asked for through the host.
    const rowsOf = (caption: string) =>
      view.locator('table', { has: view.locator('caption', { hasText: caption }) }).locator('tbody tr').evaluateAll((rows) =>
        rows.map((row) => [...row.children].map((cell) => cell.textContent)),
      );
    await expect.poll(() => rowsOf('Top countries')).toEqual([['France', '9'], ['Germany', '5'], ['Japan', '4'], ['United States', '3'], ['Other', '3']]);
    expect(await rowsOf('Top referrers')).toEqual([['news.ycombinator.com', '13'], ['Direct', '2']]);
    expect(await view.locator('tbody th[scope="row"]').count()).toBe(7);
    expect(await view.getByRole('link', { name: 'IP geolocation by DB-IP' }).getAttribute('href')).toBe('https://db-ip.com');
    expect(mounted.calls).toEqual(['country', 'referrer'].map((by) => ({ name: 'clickBreakdown', arguments: { code: link.code, by, days: 30 } })));
    expect(await scrollsSideways(view)).toBe(false);
    await screenshot(mounted, `clicks-chart-${theme}`);
    expect(mounted.problems).toEqual([]);
    await mounted.page.close();
  });

  it('still shows the chart when the breakdown is refused, saying why under it', async () => {
    const result: any = await client.callTool({ name: 'linkClicks', arguments: { code: link.code } });
    // Another code than the result's (a host's mix-up): clickBreakdown answers 404 for it.
    const refused: any = await client.callTool({ name: 'clickBreakdown', arguments: { code: 'zzzzzzz', by: 'country' } });
    const { page, view, problems } = await mount('ui://shortlinks/clicks-chart', { code: 'zzzzzzz' }, result);
    await expect.poll(() => view.locator('.where p').textContent()).toBe(`Where the clicks came from: ${JSON.parse(refused.content[0].text).detail}`);
    expect(await view.locator('svg.chart rect').count()).toBe(30);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the list', () => {
  it.each(['light', 'dark'] as const)('shows a page of teamLinks and fetches the next through the host (%s)', async (theme) => {
    // Three links at least, so that a page of two has a next.
    await client.callTool({ name: 'createLinks', arguments: { team: alice.teamId, links: [{ destination: 'https://example.com/new' }, { destination: 'https://example.com/newer' }] } });
    const input = { team: alice.teamId, limit: 2 };
    const result: any = await client.callTool({ name: 'teamLinks', arguments: input });
    const mounted = await mount('ui://shortlinks/link-list', input, result, theme);
    const { view, calls } = mounted;
    const addresses = (page: any) => page.data.map((row: any) => `${server.url}/${row.code}`);
    await expect.poll(() => view.locator('.address').allTextContents()).toEqual(addresses(result.structuredContent));
    expect(await view.locator('h1').textContent()).toBe('2 links');
    expect(await scrollsSideways(view)).toBe(false);
    await screenshot(mounted, `link-list-${theme}`);
    await view.getByRole('button', { name: 'Next page' }).click();
    const next: any = await client.callTool({ name: 'teamLinks', arguments: { ...input, after: result.structuredContent.next } });
    await expect.poll(() => view.locator('.address').allTextContents()).toEqual(addresses(next.structuredContent));
    expect(calls).toEqual([{ name: 'teamLinks', arguments: { ...input, after: result.structuredContent.next } }]);
    expect(mounted.problems).toEqual([]);
    await mounted.page.close();
  });
});
