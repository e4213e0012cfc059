/**
 * The SQLite store writes a batch of click analytics in slices of a few milliseconds, giving the event loop back
 * between them (a write of ten seconds of clicks over thousands of links held every redirect for over a second), and
 * one that fails part way says what it did not write.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { unwrittenOf, type AnalyticsBatch, type Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { visitorSketch } from '../helpers/visitors.js';
import { storeUnderTest } from './contract/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'shortlinks-slices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const s = storeUnderTest(async (random) => {
  const path = join(dir, `${++files}.db`);
  const store = openSqliteStore(path, random);
  return { store, close: () => store.close() };
});

/** 3,000 days of one link, a click and a visitor each: link days enough for several slices. */
const DAYS = Array.from({ length: 3_000 }, (_, i) => new Date(Date.UTC(2018, 0, 1) + i * 86_400_000).toISOString().slice(0, 10));

function batchOf(linkId: string): AnalyticsBatch {
  return {
    facets: DAYS.flatMap((day) =>
      (['country', 'referrer', 'device', 'browser', 'os', 'source'] as const).map((facet) => ({ linkId, day, facet, value: facet === 'source' ? 'link' : 'x', count: 1 })),
    ),
    uncounted: [],
    visitors: DAYS.map((day, i) => ({ linkId, day, sketch: visitorSketch(i) })),
  };
}

/** The team's counted clicks of analytics (its sums; the daily counts are not part of these batches). */
const clicksOf = async (store: Store, teamId: string) => (await store.analytics.totals({ teamId }, DAYS[0]!, DAYS.at(-1)!)).clicks;

describe('the SQLite store writing click analytics', () => {
  it('writes a big batch in slices, the event loop running between them, and every count once', async () => {
    const team = await s.team();
    const link = await s.link(team);
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    await s.store.analytics.add(batchOf(link.id));
    counting = false;
    expect(turns).toBeGreaterThan(1);
    expect(await clicksOf(s.store, team.id)).toBe(3_000);
    const days = await s.store.analytics.byDay({ linkId: link.id }, DAYS[0]!, DAYS.at(-1)!);
    expect(days).toHaveLength(3_000);
    expect(days.filter((day) => day.visitors !== 1).slice(0, 3)).toEqual([]);
  });

  it('says what it did not write when a slice fails after others were written, and that part written again counts once', async () => {
    const team = await s.team();
    const link = await s.link(team);
    const raw = new Database(join(dir, `${files}.db`));
    raw.exec(`CREATE TRIGGER refuse AFTER INSERT ON click_days WHEN NEW.day = '${DAYS.at(-1)}' BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    const error = await s.store.analytics.add(batchOf(link.id)).then(() => null, (thrown: unknown) => thrown);
    expect((error as Error).message).toBe('disk full');
    const unwritten = unwrittenOf(error)!;
    const left = unwritten.facets.filter((row) => row.facet === 'source').length;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(3_000);
    expect(unwritten.visitors).toHaveLength(left);
    // Every click is written or handed back, none both.
    expect((await clicksOf(s.store, team.id)) + left).toBe(3_000);
    raw.exec('DROP TRIGGER refuse');
    raw.close();
    await s.store.analytics.add(unwritten);
    expect(await clicksOf(s.store, team.id)).toBe(3_000);
    const days = await s.store.analytics.byDay({ linkId: link.id }, DAYS[0]!, DAYS.at(-1)!);
    expect(days.filter((day) => day.visitors !== 1).slice(0, 3)).toEqual([]);
  });
});
