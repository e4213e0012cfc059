import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { memoryRateLimiter } from '../../src/support/memory-rate-limiter.js';
import type { RateLimiter } from '../../src/support/rate-limiter.js';
import type { Store } from '../../src/store/ports.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { hasTestPostgres, newMigratedTestDatabase } from '../helpers/shared-postgres.js';

export interface LimiterUnderTest {
  limiter: RateLimiter;
  close(): Promise<void>;
}

/**
 * Every implementation of RateLimiter, made fresh: in memory; the SQLite store on a real file; the PostgreSQL store
 * on a fresh database; and for each database two stores taking turns, as two processes would (each call goes to
 * the other connection or pool), which must answer as one limiter. A test file runs in the fast project with the
 * first three and in the store-postgres project with the PostgreSQL ones (vitest.config.ts): together, all five.
 */
export const LIMITERS: ReadonlyArray<readonly [string, () => Promise<LimiterUnderTest>]> = hasTestPostgres()
  ? [
      ['PostgreSQL, one pool', () => postgresStores(1)],
      ['PostgreSQL, two pools taking turns', () => postgresStores(2)],
    ]
  : [
      ['in memory', async () => ({ limiter: memoryRateLimiter(), close: async () => undefined })],
      ['SQLite', () => sqliteStores(1)],
      ['two SQLite connections taking turns', () => sqliteStores(2)],
    ];

/** `count` SQLite stores on one fresh file, taking turns. */
async function sqliteStores(count: number): Promise<LimiterUnderTest> {
  const { path, remove } = tempFile();
  return takingTurns(Array.from({ length: count }, () => openSqliteStore(path)), remove);
}

/** `count` PostgreSQL stores (each a pool of its own) on one fresh database, taking turns. */
async function postgresStores(count: number): Promise<LimiterUnderTest> {
  const url = await newMigratedTestDatabase();
  const stores: Store[] = [];
  for (let i = 0; i < count; i++) stores.push(await openPostgresStore(url));
  return takingTurns(stores, () => undefined);
}

/** One limiter whose every call goes to the next store's in turn; closing closes the stores, then `remove`s. */
function takingTurns(stores: Store[], remove: () => void): LimiterUnderTest {
  let turn = 0;
  const next = () => stores[turn++ % stores.length]!.rates;
  const limiter: RateLimiter = {
    take: (...args) => next().take(...args),
    takeMany: (...args) => next().takeMany(...args),
    peek: (...args) => next().peek(...args),
    takeAll: (...args) => next().takeAll(...args),
    startAttempt: (...args) => next().startAttempt(...args),
    attemptSucceeded: (...args) => next().attemptSucceeded(...args),
  };
  return { limiter, close: async () => (await Promise.all(stores.map((store) => store.close())), remove()) };
}

/** A fresh limiter from `make` for each test of the suite (closed after it); call the answer for the current one. */
export function eachTestWith(make: () => Promise<LimiterUnderTest>): () => RateLimiter {
  let under: LimiterUnderTest;
  beforeEach(async () => {
    under = await make();
  });
  afterEach(() => under.close());
  return () => under.limiter;
}

/** A database file in a fresh temp folder, and a way to remove both. */
export function tempFile(): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-rates-'));
  return { path: join(dir, 'rates.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The rule written as plainly as it reads, to check the limiters against: every allowed time is kept; a call is
 * allowed when fewer than `limit` of them are later than `now - windowMs`.
 */
export class ReferenceLog {
  private readonly allowed: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(now: number): { allowed: boolean; remaining: number; resetSeconds: number } {
    const before = this.inWindow(now);
    const allowed = before.length < this.limit;
    if (allowed) this.allowed.push(now);
    const counted = this.inWindow(now);
    // One more call is left once the oldest counted leaves; past the limit, once enough left to be under it.
    const deciding = counted[Math.max(0, counted.length - this.limit)];
    const waitMs = deciding === undefined ? this.windowMs : deciding + this.windowMs - now;
    return { allowed, remaining: Math.max(0, this.limit - counted.length), resetSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  private inWindow(now: number): number[] {
    return this.allowed.filter((at) => at > now - this.windowMs);
  }
}
