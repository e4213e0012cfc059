/**
 * The SQLite store writes a flush of clicks in slices of a few milliseconds (src/store/sqlite/clicks.ts), giving the
 * event loop back between them, and each slice's links leave the batch as it commits: what the store holds and
 * what the batch still holds add up to the clicks counted at every moment (ClickCounter.clicksNotWritten).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { storeUnderTest } from './contract/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'shortlinks-click-slices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const s = storeUnderTest(async (random) => {
  const store = openSqliteStore(join(dir, 'links.db'), random);
  return { store, close: () => store.close() };
});

const DAY = '2026-11-27';

describe('the SQLite store writing a flush of clicks', () => {
  it('writes thousands of links in slices, the store and the batch adding up to every click between them', async () => {
    const team = await s.team();
    const link = await s.link(team);
    // 30,000 links deleted since they were clicked (their counts are dropped, each still a look-up), then a live one.
    const batch = new Map(Array.from({ length: 30_000 }, (_, i) => [`link_gone_${i}`, new Map([[DAY, 1]])]));
    batch.set(link.id, new Map([[DAY, 7]]));
    const sums: number[] = [];
    let counting = true;
    const { store } = s;
    const look = () => {
      if (!counting) return;
      // The read answers synchronously within it (SQLite), before any slice can run.
      void store.clicks.totals([link.id], DAY, DAY).then((totals) => sums.push((totals.get(link.id) ?? 0) + (batch.get(link.id)?.get(DAY) ?? 0)));
      setImmediate(look);
    };
    setImmediate(look);
    await s.store.clicks.add(batch);
    counting = false;
    expect(sums.length).toBeGreaterThan(2);
    expect(new Set(sums)).toEqual(new Set([7]));
    expect(batch.size).toBe(0);
    expect(await s.store.clicks.daily(link.id, DAY, DAY)).toEqual([{ day: DAY, clicks: 7 }]);
  });
});
