import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startUnsafeRecheck } from '../../src/destinations/unsafe/recheck.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/ports.js';
import { inProcessesAtOnce } from '../helpers/at-once.js';
import { TestClock } from '../helpers/clock.js';

/** Leases share one-at-a-time work between processes: two stores on one file stand for two processes. */
let dir: string;
let path: string;
let one: Store;
let two: Store;
const now = new Date('2026-11-21T12:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-leases-'));
  path = join(dir, 'store.db');
  one = openSqliteStore(path);
  two = openSqliteStore(path);
});
afterEach(async () => {
  await one.close();
  await two.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('leases', () => {
  it('go to one holder until their time runs out; the holder renews', async () => {
    expect(await one.leases.acquire('job', 'a', later(1000), now)).toBe(true);
    expect(await two.leases.acquire('job', 'b', later(1000), now)).toBe(false);
    expect(await two.leases.acquire('job', 'b', later(2000), later(999))).toBe(false);
    // Renewed by its holder: the other waits for the new end.
    expect(await one.leases.acquire('job', 'a', later(2000), later(999))).toBe(true);
    expect(await two.leases.acquire('job', 'b', later(3000), later(1500))).toBe(false);
    expect(await two.leases.acquire('job', 'b', later(3000), later(2000))).toBe(true);
    expect(await one.leases.acquire('job', 'a', later(4000), later(2000))).toBe(false);
    // Each name is a lease of its own.
    expect(await one.leases.acquire('other job', 'a', later(1000), now)).toBe(true);
  });

  it('go to exactly one of several processes asking at the same moment', async () => {
    await one.close();
    await two.close();
    const runs = await inProcessesAtOnce(
      4,
      `const store = openSqliteStore(${JSON.stringify(path)});
       const now = new Date();
       console.log(await store.leases.acquire('job', String(process.pid), new Date(now.getTime() + 60_000), now));
       await store.close();`,
    );
    expect(runs.map((run) => run.stderr)).toEqual(['', '', '', '']);
    expect(runs.map((run) => run.stdout.trim()).sort()).toEqual(['false', 'false', 'false', 'true']);
    one = openSqliteStore(path);
    two = openSqliteStore(path);
  });
});

describe('the unsafe-site re-check under a lease', () => {
  it('runs on one process at a time, and once an interval in all', async () => {
    const clock = new TestClock(now);
    const check = { lookupFresh: async () => ({ unsafe: new Set<string>(), complete: true }) };
    const options = { check, clock, intervalMs: 60_000, log: () => {} };
    const first = startUnsafeRecheck({ ...options, store: one });
    const second = startUnsafeRecheck({ ...options, store: two });
    try {
      const [a, b] = await Promise.all([first.runNow(), second.runNow()]);
      expect([a, b].filter((result) => result !== null)).toEqual([{ checked: 0, flagged: 0, skipped: 0 }]);
      const [ran, waited] = a ? [first, second] : [second, first];
      // Within the interval the other process leaves it alone; the one that ran may run again.
      clock.advance(59_000);
      expect(await waited.runNow()).toBeNull();
      expect(await ran.runNow()).not.toBeNull();
      // An interval after the last run, whoever asks first runs it.
      clock.advance(60_000);
      expect(await waited.runNow()).not.toBeNull();
      expect(await ran.runNow()).toBeNull();
    } finally {
      await first.stop();
      await second.stop();
    }
  });
});
