/** The daily removal of old click analytics: its window, its lease, its schedule and its line (SQLite in memory). */
import { describe, expect, it } from 'vitest';
import { firstOfLastDays as firstKeptDay } from '../../src/domain/days.js';
import { startAnalyticsRetention } from '../../src/analytics/retention.js';
import { CLICK_FACETS, type ClickTraits } from '../../src/domain/analytics.js';
import { DAY_MS } from '../../src/domain/limits.js';
import type { LinkRecord, Store } from '../../src/store/ports.js';
import { TestClock } from '../helpers/clock.js';
import { visitorSketch } from '../helpers/visitors.js';
import { operatorStore } from '../operator/store.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
// With --analytics-days 30: today and the 29 days before it.
const FIRST_KEPT = '2026-10-23';
const DAY_BEFORE = '2026-10-22';
const quiet = { log: () => {} };

/** Two clicks (each with a value of every facet), a not-counted request and a visitor on each day. */
async function fill(store: Store, link: LinkRecord, days: string[]): Promise<void> {
  await store.clicks.add(new Map([[link.id, new Map(days.map((day) => [day, 2]))]]));
  const traits: ClickTraits = { country: 'FR', referrer: 'direct', device: 'phone', browser: 'Safari', os: 'iOS', source: 'link' };
  await store.analytics.add({
    facets: days.flatMap((day) => CLICK_FACETS.map((facet) => ({ linkId: link.id, day, facet, value: traits[facet], count: 2 }))),
    uncounted: days.map((day) => ({ linkId: link.id, day, class: 'bot', count: 1 })),
    visitors: days.map((day, i) => ({ linkId: link.id, day, sketch: visitorSketch(i + 1) })),
  });
}

/** What the store still holds of `day`, by every read that counts it. */
async function heldOn(store: Store, link: LinkRecord, day: string) {
  const scope = { linkId: link.id };
  return {
    daily: await store.clicks.daily(link.id, day, day),
    byDay: await store.analytics.byDay(scope, day, day),
    countries: (await store.analytics.byFacet(scope, 'country', day, day, 10)).rows,
    totals: await store.analytics.totals(scope, day, day),
    team: await store.analytics.totals({ teamId: link.teamId }, day, day),
  };
}

const held = (day: string) => ({
  daily: [{ day, clicks: 2 }],
  byDay: [{ day, clicks: 2, visitors: 1 }],
  countries: [{ value: 'FR', clicks: 2 }],
  totals: { clicks: 2, uncounted: { bot: 1 } },
  team: { clicks: 2, uncounted: { bot: 1 } },
});
const gone = { daily: [], byDay: [], countries: [], totals: { clicks: 0, uncounted: {} }, team: { clicks: 0, uncounted: {} } };

describe('firstKeptDay', () => {
  it('keeps today and the days before it, in UTC, the window wide', () => {
    expect(firstKeptDay(NOW, 30)).toBe(FIRST_KEPT);
    expect(firstKeptDay(new Date('2026-11-21T23:59:59.999Z'), 30)).toBe(FIRST_KEPT);
    expect(firstKeptDay(new Date('2026-11-22T00:00:00.000Z'), 30)).toBe('2026-10-24');
    expect(firstKeptDay(new Date('2024-03-30T08:00:00.000Z'), 400)).toBe('2023-02-25');
  });

  it('never reaches before 1970, however wide the window (a lifted limit is a billion days)', () => {
    expect(firstKeptDay(NOW, 1_000_000_000)).toBe('1970-01-01');
  });
});

describe('startAnalyticsRetention', () => {
  const db = operatorStore();

  async function linkWithDays() {
    const link = await db.link(await db.team());
    await db.store.settings.setLimits({ analyticsDays: 30 });
    await fill(db.store, link, [DAY_BEFORE, FIRST_KEPT, '2026-11-21']);
    return link;
  }

  it('removes the days before the window and keeps its first day, then holds the lease for a day', async () => {
    const link = await linkWithDays();
    const clock = new TestClock(NOW);
    const retention = startAnalyticsRetention({ store: db.store, clock, ...quiet });
    const result = await retention.runNow();
    expect(result).toEqual({ keptFrom: FIRST_KEPT, removed: expect.any(Number) });
    expect(result!.removed).toBeGreaterThan(0);
    expect(await heldOn(db.store, link, DAY_BEFORE)).toEqual(gone);
    expect(await heldOn(db.store, link, FIRST_KEPT)).toEqual(held(FIRST_KEPT));
    expect(await heldOn(db.store, link, '2026-11-21')).toEqual(held('2026-11-21'));
    // Again the same day: nothing left to remove.
    expect(await retention.runNow()).toEqual({ keptFrom: FIRST_KEPT, removed: 0 });
    await retention.stop();
  });

  it('runs nothing while another process holds the lease, and runs once its lease has run out', async () => {
    const link = await linkWithDays();
    const clock = new TestClock(NOW);
    expect(await db.store.leases.acquire('analytics-retention', 'another process', new Date(NOW.getTime() + DAY_MS), NOW)).toBe(true);
    const retention = startAnalyticsRetention({ store: db.store, clock, ...quiet });
    expect(await retention.runNow()).toBeNull();
    expect(await heldOn(db.store, link, DAY_BEFORE)).toEqual(held(DAY_BEFORE));
    clock.advance(DAY_MS);
    expect(await retention.runNow()).toMatchObject({ keptFrom: '2026-10-24' });
    expect(await heldOn(db.store, link, DAY_BEFORE)).toEqual(gone);
    expect(await heldOn(db.store, link, FIRST_KEPT)).toEqual(gone);
    await retention.stop();
  });

  it("follows the operator's window as it is when it runs", async () => {
    const link = await linkWithDays();
    await db.store.settings.setLimits({ analyticsDays: 31 });
    const retention = startAnalyticsRetention({ store: db.store, clock: new TestClock(NOW), ...quiet });
    expect(await retention.runNow()).toEqual({ keptFrom: DAY_BEFORE, removed: 0 });
    expect(await heldOn(db.store, link, DAY_BEFORE)).toEqual(held(DAY_BEFORE));
    await retention.stop();
  });

  it('forgets the visitor key of the day before yesterday even on a day nobody visits, and keeps yesterday\'s', async () => {
    await linkWithDays();
    const earlier = await db.store.analytics.visitorKey('2026-11-19');
    const yesterday = await db.store.analytics.visitorKey('2026-11-20');
    expect(await db.store.analytics.visitorKey('2026-11-19')).toEqual(earlier);
    const retention = startAnalyticsRetention({ store: db.store, clock: new TestClock(NOW), ...quiet });
    await retention.runNow();
    // Asked again, that day's key is made afresh: the one its marks were made with is gone.
    expect(await db.store.analytics.visitorKey('2026-11-19')).not.toEqual(earlier);
    expect(await db.store.analytics.visitorKey('2026-11-20')).toEqual(yesterday);
    await retention.stop();
  });

  it('runs first firstRunMs after the start, logging one line with the rows removed, and never after stop()', async () => {
    await linkWithDays();
    const lines: string[] = [];
    const retention = startAnalyticsRetention({ store: db.store, clock: new TestClock(NOW), firstRunMs: 50, log: (line) => lines.push(line) });
    expect(lines).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Click analytics retention: [1-9]\d* rows of days before 2026-10-23 removed\.$/);
    await retention.stop();

    const stopped = startAnalyticsRetention({ store: db.store, clock: new TestClock(NOW), firstRunMs: 50, intervalMs: 60, log: (line) => lines.push(line) });
    await stopped.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines).toHaveLength(1);
  });

  it('logs that it left the run to another process, and a failure in one line', async () => {
    const lines: string[] = [];
    await db.store.leases.acquire('analytics-retention', 'another process', new Date(NOW.getTime() + DAY_MS), NOW);
    const left = startAnalyticsRetention({ store: db.store, clock: new TestClock(NOW), firstRunMs: 10, log: (line) => lines.push(line) });
    const failing = startAnalyticsRetention({
      store: {
        settings: db.store.settings,
        leases: { acquire: async () => true },
        analytics: { visitorKey: async () => new Uint8Array(32), removeBefore: async () => Promise.reject(new Error('disk full')) },
      },
      clock: new TestClock(NOW),
      firstRunMs: 10,
      log: (line) => lines.push(line),
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await Promise.all([left.stop(), failing.stop()]);
    expect(lines.sort()).toEqual([
      'Click analytics retention failed: disk full',
      'Click analytics retention: left to another process, which ran it less than an interval ago.',
    ]);
  });
});
