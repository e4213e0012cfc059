import Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { sqliteRates } from '../../src/store/sqlite/rates.js';
import { tempFile } from './limiters.js';

/**
 * The rate limits in SQLite (src/store/sqlite/rates.ts) as several processes use them: connections of their own
 * on one file, taking from one budget at the same moment. (sliding-window.test.ts checks the rule itself, on one
 * connection and on two taking turns; the store's limiter counts in the file only while other processes are there,
 * counted-alone.test.ts.)
 */

/** The store as built by `npm run build` (a worker thread cannot load TypeScript). */
const COMPILED_STORE = new URL('../../dist/src/store/sqlite/rates.js', import.meta.url).href;

/**
 * A thread with a store of its own on `path` that waits for the start flag, then takes `takes` calls from each of
 * `keys` keys in turn, as fast as it can (every thread in the same order, so they meet on each key's last call),
 * and posts how many it was allowed.
 */
const TAKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { storeUrl, path, keys, limit, takes, now, start } = workerData;
import(storeUrl).then(async ({ sqliteRates }) => {
  const rates = sqliteRates(path);
  await rates.peek('k', limit, 60000, now); // opens its connection before the start
  parentPort.postMessage('ready');
  Atomics.wait(new Int32Array(start), 0, 0);
  let allowed = 0;
  for (let key = 0; key < keys; key++) {
    for (let i = 0; i < takes; i++) if ((await rates.take('k' + key, limit, 60000, now)).allowed) allowed++;
  }
  rates.close();
  parentPort.postMessage(allowed);
});
`;

/** Starts a TAKER thread: `ready` once it waits for the start, `allowed` when it is done. */
function taker(workerData: Record<string, unknown>): { ready: Promise<void>; allowed: Promise<number> } {
  const worker = new Worker(TAKER, { eval: true, workerData });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const ready = next<void>();
  return { ready, allowed: ready.then(() => next<number>()) };
}

let file: ReturnType<typeof tempFile>;
/** Two processes' limiters on the file, as the store's limiter counts once more than one process is there. */
let limiters: Array<ReturnType<typeof sqliteRates>>;
beforeEach(async () => {
  file = tempFile();
  // Migrated, as a server's start leaves it: a limiter opens its connection only on first use.
  await openSqliteStore(file.path).close();
  limiters = [sqliteRates(file.path), sqliteRates(file.path)];
});
afterEach(() => {
  for (const limiter of limiters) limiter.close();
  file.remove();
});

describe('rate limits shared through SQLite', () => {
  it('give the threads taking from one budget at once exactly the limit between them', async () => {
    const start = new SharedArrayBuffer(4);
    const workerData = { storeUrl: COMPILED_STORE, path: file.path, keys: 500, limit: 3, takes: 3, now: 1_000_000, start };
    const takers = [0, 1, 2].map(() => taker(workerData));
    await Promise.all(takers.map((t) => t.ready));
    Atomics.store(new Int32Array(start), 0, 1);
    Atomics.notify(new Int32Array(start), 0);
    const allowed = await Promise.all(takers.map((t) => t.allowed));
    expect(allowed.reduce((sum, n) => sum + n, 0)).toBe(500 * 3);
    for (const key of ['k0', 'k250', 'k499']) {
      expect(await limiters[0]!.peek(key, 3, 60_000, 1_000_000)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60 });
    }
  });

  it('tell every connection the same allowance, so each one\'s RateLimit headers are true', async () => {
    const [a, b] = limiters;
    await a!.take('k', 5, 60_000, 0);
    await b!.take('k', 5, 60_000, 10_000);
    expect(await a!.peek('k', 5, 60_000, 20_000)).toEqual({ allowed: true, limit: 5, remaining: 3, resetSeconds: 40 });
    expect(await b!.take('k', 5, 60_000, 20_000)).toEqual({ allowed: true, limit: 5, remaining: 2, resetSeconds: 40 });
  });

  it('share the sign-in slowdown', async () => {
    const [a, b] = limiters;
    const rule = { freeFailures: 2, firstWaitMs: 1_000, maxWaitMs: 60_000, quietMs: 60_000 };
    expect(await a!.startAttempt(['email:x'], rule, 0)).toBe(0);
    expect(await b!.startAttempt(['email:x'], rule, 0)).toBe(0);
    expect(await a!.startAttempt(['email:x'], rule, 0)).toBe(1_000);
    await b!.attemptSucceeded('email:x', []);
    expect(await a!.startAttempt(['email:x'], rule, 0)).toBe(0);
  });

  it('take in a few index lookups however many calls the window holds, not by counting them', async () => {
    const db = new Database(file.path);
    const add = db.prepare('INSERT INTO rate_events (key, until, seq) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let seq = 1; seq <= 200_000; seq++) add.run('busy', 60_000 + seq / 10, seq);
    })();
    db.close();
    const rates = limiters[0]!;
    const started = performance.now();
    for (let i = 0; i < 100; i++) expect((await rates.take('busy', 1e9, 60_000, 1_000)).remaining).toBe(1e9 - 200_001 - i);
    // Counting 200,000 rows takes milliseconds a call; two lookups take microseconds. The bound is far from both.
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('sweep every key\'s rows once they stopped counting, and never one that still counts', async () => {
    const rates = limiters[0]!;
    for (let i = 0; i < 50; i++) await rates.take(`address:${i}`, 5, 60_000, 0);
    await rates.take('hourly', 5, 3_600_000, 0);
    await rates.take('later', 5, 60_000, 60_000);
    const db = new Database(file.path, { readonly: true });
    const keys = db.prepare('SELECT key FROM rate_events ORDER BY key').pluck().all();
    db.close();
    expect(keys).toEqual(['hourly', 'later']);
  });
});
