/**
 * clickBreakdown's `run` on a real store (issue 23; docs/behaviour.md "Click analytics"): counted clicks of a link or
 * a team over the last `days` UTC dates, by facet, by day (visitors) or by link, at most 100 rows, with the
 * not-counted classes beside them. Seeded through the store's ports as the redirect's counter writes them. The
 * clock reads 2026-11-21T12:00Z.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { visitorSketch } from '../helpers/visitors.js';
import type { ClickFacet, UncountedClass } from '../../src/domain/analytics.js';
import { clickBreakdown } from '../../src/tools/click-breakdown.js';
import { deleteLink } from '../../src/tools/delete-link.js';
import type { Link } from '../../src/tools/schemas.js';
import { problem, PUBLIC_URL, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
let spring: Link;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
  spring = await h.link(alice, { name: 'spring' });
});
afterEach(() => h.close());

const breakdown = (params: Record<string, unknown>, caller: Caller = alice) => h.call(clickBreakdown, caller, params);

/**
 * `clicks` counted clicks of a link on a day, as the counter writes them: the daily count, and one count of every
 * facet per click (`facets` gives some, value → clicks; the source is `link` unless given).
 */
async function counted(linkId: string, day: string, clicks: number, facets: Partial<Record<ClickFacet, Record<string, number>>> = {}) {
  await h.clicks(linkId, { [day]: clicks });
  for (const [name, counts] of Object.entries({ source: { link: clicks }, ...facets })) await facet(linkId, day, name as ClickFacet, counts);
}

/** Counted clicks of one facet for a link on a day: value → clicks. */
function facet(linkId: string, day: string, name: ClickFacet, counts: Record<string, number>): Promise<void> {
  const facets = Object.entries(counts).map(([value, count]) => ({ linkId, day, facet: name, value, count }));
  return h.store.analytics.add({ facets, uncounted: [], visitors: [] });
}

function notCounted(linkId: string, day: string, counts: Partial<Record<UncountedClass, number>>): Promise<void> {
  const uncounted = Object.entries(counts).map(([name, count]) => ({ linkId, day, class: name as UncountedClass, count }));
  return h.store.analytics.add({ facets: [], uncounted, visitors: [] });
}

let seen = 0;
/** `n` distinct visitors of a link on a day. */
function visitors(linkId: string, day: string, n: number): Promise<void> {
  const sketch = visitorSketch(...Array.from({ length: n }, () => ++seen));
  return h.store.analytics.add({ facets: [], uncounted: [], visitors: [{ linkId, day, sketch }] });
}

/** The spring link's two days: 10 clicks by 3 visitors, 5 requests not counted. */
async function seedSpring(): Promise<void> {
  await counted(spring.id, '2026-11-21', 6, { country: { FR: 3, US: 2, unknown: 1 } });
  await counted(spring.id, '2026-11-20', 4, { country: { FR: 2, DE: 2 } });
  await notCounted(spring.id, '2026-11-21', { bot: 3 });
  await notCounted(spring.id, '2026-11-20', { checker: 2 });
  await visitors(spring.id, '2026-11-21', 2);
  await visitors(spring.id, '2026-11-20', 1);
}

const NONE = { bot: 0, preview: 0, assistant: 0, checker: 0 };

describe('clickBreakdown', () => {
  it('by country, 30 days by default: names for codes, most clicks first, ties by value, shares of the total', async () => {
    await seedSpring();
    expect(await breakdown({ code: spring.code, by: 'country' })).toEqual({
      by: 'country',
      days: 30,
      from: '2026-10-23',
      to: '2026-11-21',
      rows: [
        { value: 'FR', label: 'France', clicks: 5, share: 0.5 },
        { value: 'DE', label: 'Germany', clicks: 2, share: 0.2 },
        { value: 'US', label: 'United States', clicks: 2, share: 0.2 },
        { value: 'unknown', label: 'Unknown', clicks: 1, share: 0.1 },
      ],
      total: { clicks: 10, visitors: 3 },
      notCounted: { bot: 3, preview: 0, assistant: 0, checker: 2 },
    });
  });

  it('by referrer, device, browser, os and source: the words for direct, this service, unknown, QR code and link', async () => {
    await counted(spring.id, '2026-11-21', 4, {
      referrer: { direct: 2, 'this service': 1, 'news.ycombinator.com': 1 },
      device: { phone: 3, desktop: 1 },
      browser: { Safari: 2, unknown: 1, constructor: 1 },
      os: { iOS: 3, Windows: 1 },
      source: { qr: 3, link: 1 },
    });
    const rows = async (by: string) => ((await h.ok(clickBreakdown, alice, { code: spring.code, by })).rows);
    expect(await rows('referrer')).toEqual([
      { value: 'direct', label: 'Direct', clicks: 2, share: 0.5 },
      { value: 'news.ycombinator.com', label: 'news.ycombinator.com', clicks: 1, share: 0.25 },
      { value: 'this service', label: 'This service', clicks: 1, share: 0.25 },
    ]);
    expect(await rows('device')).toEqual([
      { value: 'phone', label: 'phone', clicks: 3, share: 0.75 },
      { value: 'desktop', label: 'desktop', clicks: 1, share: 0.25 },
    ]);
    expect(await rows('browser')).toEqual([
      { value: 'Safari', label: 'Safari', clicks: 2, share: 0.5 },
      { value: 'constructor', label: 'constructor', clicks: 1, share: 0.25 },
      { value: 'unknown', label: 'Unknown', clicks: 1, share: 0.25 },
    ]);
    expect(await rows('os')).toEqual([
      { value: 'iOS', label: 'iOS', clicks: 3, share: 0.75 },
      { value: 'Windows', label: 'Windows', clicks: 1, share: 0.25 },
    ]);
    expect(await rows('source')).toEqual([
      { value: 'qr', label: 'QR code', clicks: 3, share: 0.75 },
      { value: 'link', label: 'Link', clicks: 1, share: 0.25 },
    ]);
  });

  it('by visitor: every day of the range oldest first, days without clicks as 0, with their visitors', async () => {
    await seedSpring();
    expect(await breakdown({ code: spring.code, by: 'visitor', days: 3 })).toEqual({
      by: 'visitor',
      days: 3,
      from: '2026-11-19',
      to: '2026-11-21',
      rows: [
        { value: '2026-11-19', label: '2026-11-19', clicks: 0, share: 0, visitors: 0 },
        { value: '2026-11-20', label: '2026-11-20', clicks: 4, share: 0.4, visitors: 1 },
        { value: '2026-11-21', label: '2026-11-21', clicks: 6, share: 0.6, visitors: 2 },
      ],
      total: { clicks: 10, visitors: 3 },
      notCounted: { bot: 3, preview: 0, assistant: 0, checker: 2 },
    });
  });

  it("by link for a team: its links by clicks, each by code and short address, with visitors; other teams' links left out", async () => {
    await seedSpring();
    const plain = await h.link(alice);
    await counted(plain.id, '2026-11-19', 5);
    await visitors(plain.id, '2026-11-19', 1);
    const bob = await h.person();
    const bobs = await h.link(bob);
    await counted(bobs.id, '2026-11-21', 50);
    expect(await breakdown({ team: alice.teamId, by: 'link' })).toEqual({
      by: 'link',
      days: 30,
      from: '2026-10-23',
      to: '2026-11-21',
      rows: [
        { value: spring.code, label: `${PUBLIC_URL}/spring`, clicks: 10, share: 0.6667, visitors: 3 },
        { value: plain.code, label: `${PUBLIC_URL}/${plain.code}`, clicks: 5, share: 0.3333, visitors: 1 },
      ],
      total: { clicks: 15, visitors: 4 },
      notCounted: { bot: 3, preview: 0, assistant: 0, checker: 2 },
    });
  });

  it("a team's breakdown by a facet sums its links'", async () => {
    await seedSpring();
    const plain = await h.link(alice);
    await counted(plain.id, '2026-11-21', 2, { country: { DE: 2 } });
    await notCounted(plain.id, '2026-11-21', { preview: 1, assistant: 4 });
    expect(await breakdown({ team: alice.teamId, by: 'country' })).toMatchObject({
      rows: [
        { value: 'FR', label: 'France', clicks: 5, share: 0.4167 },
        { value: 'DE', label: 'Germany', clicks: 4, share: 0.3333 },
        { value: 'US', label: 'United States', clicks: 2, share: 0.1667 },
        { value: 'unknown', label: 'Unknown', clicks: 1, share: 0.0833 },
      ],
      total: { clicks: 12, visitors: 3 },
      notCounted: { bot: 3, preview: 1, assistant: 4, checker: 2 },
    });
  });

  it('no clicks at all: no rows, totals 0, all four classes 0', async () => {
    expect(await breakdown({ code: spring.code, by: 'referrer', days: 7 })).toEqual({
      by: 'referrer', days: 7, from: '2026-11-15', to: '2026-11-21', rows: [], total: { clicks: 0, visitors: 0 }, notCounted: NONE,
    });
  });

  it('days: 1 is today alone; 90 reaches back to the 90th date and not the 91st', async () => {
    await counted(spring.id, '2026-11-21', 1, { device: { phone: 1 } });
    await counted(spring.id, '2026-11-20', 10, { device: { phone: 10 } });
    await counted(spring.id, '2026-08-24', 100, { device: { desktop: 100 } });
    await counted(spring.id, '2026-08-23', 1000, { device: { tablet: 1000 } });
    expect(await breakdown({ code: spring.code, by: 'device', days: 1 })).toMatchObject({
      from: '2026-11-21', to: '2026-11-21', rows: [{ value: 'phone', clicks: 1, share: 1 }], total: { clicks: 1 },
    });
    expect(await breakdown({ code: spring.code, by: 'device', days: 90 })).toMatchObject({
      from: '2026-08-24',
      to: '2026-11-21',
      rows: [{ value: 'desktop', clicks: 100 }, { value: 'phone', clicks: 11 }],
      total: { clicks: 111 },
    });
    const series = await h.ok(clickBreakdown, alice, { code: spring.code, by: 'visitor', days: 90 });
    expect(series.rows).toHaveLength(90);
    expect(series.rows.filter((row) => row.clicks > 0).map((row) => row.value)).toEqual(['2026-08-24', '2026-11-20', '2026-11-21']);
  });

  it('days out of 1..90 or not a whole number: 400 bad_request at days', async () => {
    for (const days of [0, 91, 2.5, -1, '30', null]) {
      expect(await breakdown({ code: spring.code, by: 'country', days })).toEqual(problem(400, 'bad_request', 'days'));
    }
  });

  it('by missing or unknown: 400 bad_request at by', async () => {
    const options = 'expected one of "country"|"referrer"|"device"|"browser"|"os"|"source"|"visitor"|"link".';
    expect(await breakdown({ code: spring.code })).toEqual(problem(400, 'bad_request', 'by', `by: Invalid option: ${options}`));
    expect(await breakdown({ code: spring.code, by: 'city' })).toEqual(problem(400, 'bad_request', 'by'));
    expect(await breakdown({ code: spring.code, by: 'country', extra: 1 })).toEqual(problem(400, 'bad_request', 'extra'));
  });

  it('both code and team, or neither: 400 bad_request saying to send one', async () => {
    const detail = 'Send either code (one link) or team (all its links), not both or neither.';
    expect(await breakdown({ code: spring.code, team: alice.teamId, by: 'country' })).toEqual(problem(400, 'bad_request', null, detail));
    expect(await breakdown({ by: 'country' })).toEqual(problem(400, 'bad_request', null, detail));
  });

  it('by link with a code: 400 bad_request at by, saying to send team', async () => {
    expect(await breakdown({ code: spring.code, by: 'link' })).toEqual(
      problem(400, 'bad_request', 'by', "by link breaks a team's clicks down by its links: send team instead of code."),
    );
  });

  it("a link or team outside the caller's teams, an unknown code or a deleted link: 404 not_found", async () => {
    const bob = await h.person();
    const bobs = await h.link(bob);
    const gone = await h.link(alice);
    await h.ok(deleteLink, alice, { code: gone.code });
    for (const code of [bobs.code, 'Qq7Zz7Q', gone.code]) {
      expect(await breakdown({ code, by: 'country' })).toEqual(problem(404, 'not_found', 'code', 'No link has that code.'));
    }
    expect(await breakdown({ team: bob.teamId, by: 'link' })).toEqual(problem(404, 'not_found', 'team'));
  });

  it("a token limited to the person's team A: team B and B's links, which the person is in, are 404; A answers", async () => {
    const teamB = await h.team(alice, 'B');
    const inB = await h.link(alice, {}, teamB);
    const limited = h.caller(alice, { limitedTo: alice.teamId });
    expect(await breakdown({ code: inB.code, by: 'country' }, limited)).toEqual(problem(404, 'not_found', 'code'));
    expect(await breakdown({ team: teamB, by: 'country' }, limited)).toEqual(problem(404, 'not_found', 'team'));
    expect(await breakdown({ team: alice.teamId, by: 'link' }, limited)).toMatchObject({ rows: [], total: { clicks: 0 } });
    expect(await breakdown({ code: spring.code, by: 'os' }, limited)).toMatchObject({ rows: [] });
  });

  it('a token without the clickBreakdown scope: 403 insufficient_scope; with it, an answer', async () => {
    expect(await breakdown({ code: spring.code, by: 'country' }, h.caller(alice, { scopes: ['linkClicks'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call clickBreakdown.'),
    );
    expect(await breakdown({ code: spring.code, by: 'country' }, h.caller(alice, { scopes: ['clickBreakdown'] }))).toMatchObject({ rows: [] });
  });

  it('more than 100 values: the first 99, then `other` summing the rest; exactly 100: all of them', async () => {
    // Host i has i clicks: the top 99 are 150 down to 52, the rest 51 + 50 + ... + 1.
    const hosts = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`host-${String(i + 1).padStart(3, '0')}.example`, i + 1]));
    await counted(spring.id, '2026-11-21', 11_325, { referrer: hosts });
    const answer = await h.ok(clickBreakdown, alice, { code: spring.code, by: 'referrer' });
    expect(answer.rows).toHaveLength(100);
    expect(answer.rows[0]).toEqual({ value: 'host-150.example', label: 'host-150.example', clicks: 150, share: 0.0132 });
    expect(answer.rows[98]).toMatchObject({ value: 'host-052.example', clicks: 52 });
    expect(answer.rows[99]).toEqual({ value: 'other', label: 'Other', clicks: 1326, share: 0.1171 });
    expect(answer.rows.reduce((sum, row) => sum + row.clicks, 0)).toBe(11_325);

    const exactly = await h.link(alice);
    await facet(exactly.id, '2026-11-21', 'referrer', Object.fromEntries(Object.entries(hosts).slice(0, 100)));
    const all = await h.ok(clickBreakdown, alice, { code: exactly.code, by: 'referrer' });
    expect(all.rows).toHaveLength(100);
    expect(all.rows.at(-1)).toEqual({ value: 'host-001.example', label: 'host-001.example', clicks: 1, share: 0 });
  });

  it('a team of more than 100 clicked links: 99 links, then `other` without visitors', async () => {
    await h.setLimits({ maxLinksPerTeam: 200, perHour: 200, perDay: 200, firstWeekPerDay: 200 });
    for (let i = 1; i <= 101; i++) await counted((await h.link(alice)).id, '2026-11-21', i);
    const answer = await h.ok(clickBreakdown, alice, { team: alice.teamId, by: 'link' });
    expect(answer.rows).toHaveLength(100);
    expect(answer.rows[0]).toMatchObject({ clicks: 101, visitors: 0 });
    expect(answer.rows[99]).toEqual({ value: 'other', label: 'Other', clicks: 3, share: 0.0006 });
    expect(answer.total.clicks).toBe(5151);
  });

  it('shares are rounded to 4 decimals', async () => {
    await counted(spring.id, '2026-11-21', 3, { os: { Android: 2, iOS: 1 } });
    expect((await h.ok(clickBreakdown, alice, { code: spring.code, by: 'os' })).rows.map((row) => row.share)).toEqual([0.6667, 0.3333]);
  });

  it("a deleted link's clicks leave its team's breakdowns", async () => {
    await seedSpring();
    const gone = await h.link(alice);
    await counted(gone.id, '2026-11-21', 20, { country: { FR: 20 } });
    await notCounted(gone.id, '2026-11-21', { bot: 7 });
    await h.ok(deleteLink, alice, { code: gone.code });
    expect(await breakdown({ team: alice.teamId, by: 'link' })).toMatchObject({
      rows: [{ value: spring.code, clicks: 10 }],
      total: { clicks: 10, visitors: 3 },
      notCounted: { bot: 3, preview: 0, assistant: 0, checker: 2 },
    });
    expect(await breakdown({ team: alice.teamId, by: 'country' })).toMatchObject({ rows: [{ value: 'FR', clicks: 5 }, {}, {}, {}] });
  });

  it('a link deleted between the ranking and the read of its code is left out', async () => {
    await seedSpring();
    const plain = await h.link(alice);
    await counted(plain.id, '2026-11-21', 2);
    const springRecord = (await h.store.links.findByCode(spring.code))!;
    vi.spyOn(h.store.links, 'findByIds').mockResolvedValueOnce([springRecord]);
    expect((await h.ok(clickBreakdown, alice, { team: alice.teamId, by: 'link' })).rows).toEqual([
      { value: spring.code, label: `${PUBLIC_URL}/spring`, clicks: 10, share: 0.8333, visitors: 3 },
    ]);
  });
});
