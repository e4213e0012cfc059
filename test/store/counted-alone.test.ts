import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { tempFile } from '../rate-limits/limiters.js';

/**
 * The SQLite store's limiter (store/sqlite/counted-alone.ts): in memory while its process is the only one counting
 * on the file, in the file once another is there, with the counts handed over each way. Each store here stands
 * for a process. (test/e2e/separate-processes.test.ts runs it in two server processes.)
 */
const MINUTE = 60_000;
let file: ReturnType<typeof tempFile>;
let open: Store[];

beforeEach(() => {
  file = tempFile();
  open = [];
});
afterEach(async () => {
  await Promise.all(open.map((store) => store.close()));
  file.remove();
});

function store(): Store {
  const made = openSqliteStore(file.path);
  open.push(made);
  return made;
}

function rows(sql: string): unknown[] {
  const db = new Database(file.path, { readonly: true });
  try {
    return db.prepare(sql).raw().all();
  } finally {
    db.close();
  }
}

/** Waits until `check` holds: each process looks at the others every 50 ms. */
async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5_000; !check(); ) {
    if (Date.now() > deadline) throw new Error('never came to hold');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the SQLite store counting rate limits', () => {
  it('counts in memory while alone: the file holds only its row', async () => {
    const a = store();
    for (let i = 0; i < 3; i++) expect((await a.rates.take('calls:p', 5, MINUTE, 1_000)).remaining).toBe(4 - i);
    expect(rows('SELECT count(*) FROM rate_events')).toEqual([[0]]);
    expect(rows('SELECT alone FROM rate_processes')).toEqual([[1]]);
  });

  it('hands its counts to the file when another comes, and both count there as one budget', async () => {
    const a = store();
    const b = store();
    for (let i = 0; i < 3; i++) await a.rates.take('calls:p', 5, MINUTE, 1_000);
    expect(await a.rates.startAttempt(['email:x'], { freeFailures: 0, firstWaitMs: 1_000, maxWaitMs: 60_000, quietMs: MINUTE }, 1_000)).toBe(0);
    // b waits for a to hand over (a looks within 50 ms), then sees a's three calls and its failure.
    expect(await b.rates.take('calls:p', 5, MINUTE, 2_000)).toEqual({ allowed: true, limit: 5, remaining: 1, resetSeconds: 59 });
    expect(await b.rates.startAttempt(['email:x'], { freeFailures: 0, firstWaitMs: 1_000, maxWaitMs: 60_000, quietMs: MINUTE }, 1_500)).toBe(1_500);
    expect(await a.rates.take('calls:p', 5, MINUTE, 3_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await b.rates.take('calls:p', 5, MINUTE, 3_000)).toMatchObject({ allowed: false, remaining: 0 });
    expect(rows('SELECT count(*) FROM rate_events')).toEqual([[5]]);
    expect(rows('SELECT alone FROM rate_processes')).toEqual([[0], [0]]);
  });

  it('takes the counts back into memory once alone again, and goes on from them', async () => {
    const a = store();
    const b = store();
    await a.rates.take('calls:p', 5, MINUTE, 1_000);
    await b.rates.take('calls:p', 5, MINUTE, 1_000);
    await b.close();
    open = [a];
    await until(() => (rows('SELECT count(*) FROM rate_events') as number[][])[0]![0] === 0);
    expect(await a.rates.take('calls:p', 5, MINUTE, 2_000)).toEqual({ allowed: true, limit: 5, remaining: 2, resetSeconds: 59 });
    expect(rows('SELECT alone FROM rate_processes')).toEqual([[1]]);
  });

  it('forgives what a process counted alone when it closes alone, as memory always did', async () => {
    const a = store();
    await a.rates.take('calls:p', 1, MINUTE, 1_000);
    await a.close();
    open = [];
    const next = store();
    expect(await next.rates.take('calls:p', 1, MINUTE, 1_000)).toMatchObject({ allowed: true });
    expect(rows('SELECT count(*) FROM rate_processes')).toEqual([[1]]);
  });
});
