import type pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/ports.js';
import { openDatabase } from '../../src/store/postgres/database.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { pgRateQueries } from '../../src/store/postgres/rates.js';
import { rateOperations } from '../../src/store/operations/rates.js';
import { runAwaiting } from '../../src/store/operations/steps.js';
import { newMigratedTestDatabase } from '../helpers/shared-postgres.js';

/**
 * The rate limits in PostgreSQL (src/store/postgres/rates.ts) as several processes use them: pools of their own on
 * one database, taking from one budget at the same moment. (sliding-window.test.ts checks the rule itself, on one
 * pool and on two taking turns.)
 */

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

/** `count` processes' worth of stores on one fresh database: each its own pool. */
async function processes(count: number): Promise<Store[]> {
  const url = await newMigratedTestDatabase();
  for (let i = 0; i < count; i++) opened.push(await openPostgresStore(url));
  return [...opened];
}

describe('rate limits shared through PostgreSQL', () => {
  it('give the pools taking from one budget at once exactly the limit between them', async () => {
    const stores = await processes(4);
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    // Every pool takes 3 times from every key at once, so each key gets 12 takes together for its 3 calls.
    const allowed = await Promise.all(
      stores.map((store) =>
        Promise.all(keys.flatMap((key) => [1, 2, 3].map(async () => ((await store.rates.take(key, 3, 60_000, 1_000_000)).allowed ? key : null)))),
      ),
    );
    const perKey = new Map<string, number>();
    for (const key of allowed.flat()) if (key !== null) perKey.set(key, (perKey.get(key) ?? 0) + 1);
    expect(keys.map((key) => perKey.get(key))).toEqual(keys.map(() => 3));
    expect(await stores[0]!.rates.peek('k0', 3, 60_000, 1_000_000)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 60 });
  });

  it('take from two keys or neither, in either order at once, exactly the limit of each', async () => {
    const stores = await processes(3);
    const pairs = [[['a', 5], ['b', 5]], [['b', 5], ['a', 5]]] as const;
    const answers = await Promise.all(
      stores.flatMap((store) => Array.from({ length: 8 }, (_, i) => store.rates.takeAll(pairs[i % 2]!, 60_000, 0))),
    );
    expect(answers.filter((both) => both.every((answer) => answer.allowed))).toHaveLength(5);
    for (const key of ['a', 'b']) expect((await stores[0]!.rates.peek(key, 5, 60_000, 0)).remaining).toBe(0);
  });

  it('count a take that another, later take overtook between its reading and its adding', async () => {
    // B reads at 500, while the call made at 0 still counts; before B adds, A takes at 1,500, when it no longer
    // does. B must then read again and count both: the key holds 2 calls at 1,600, A's and B's.
    const { pool, close } = await openDatabase(await newMigratedTestDatabase());
    try {
      const queries = pgRateQueries(pool);
      expect((await runAwaiting(rateOperations().takeAll([['k', 10]], 1_000, 0), queries))[0]![0]!.allowed).toBe(true);
      let overtaken = false;
      const overtaking = {
        ...queries,
        addCalls: async (...args: Parameters<typeof queries.addCalls>) => {
          if (!overtaken) {
            overtaken = true;
            await runAwaiting(rateOperations().takeAll([['k', 10]], 1_000, 1_500), queries);
          }
          return queries.addCalls(...args);
        },
      };
      const [[b]] = await runAwaiting(rateOperations().takeAll([['k', 10]], 1_000, 500), overtaking);
      expect(overtaken).toBe(true);
      expect(b!.allowed).toBe(true);
      expect((await runAwaiting(rateOperations().peek('k', 10, 1_000, 1_600), queries)).remaining).toBe(8);
    } finally {
      await close();
    }
  });

  it('lock the keys of an operation in one order whatever order they are named in, so two never deadlock', async () => {
    const { pool, close } = await openDatabase(await newMigratedTestDatabase());
    const [holder, first, second] = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
    try {
      const [firstPid, secondPid] = [await pidOf(first!), await pidOf(second!)];
      for (const client of [holder!, first!, second!]) await client.query('BEGIN');
      await pgRateQueries(holder!).lockKeys(['a']);
      // Both queue behind the holder, one naming the keys one way, one the other way round. Taken as named, the
      // second would hold b and wait for a, which the first gets next and then waits for b: a deadlock.
      const firstDone = pgRateQueries(first!).lockKeys(['a', 'b']);
      await waitingForLock(pool, firstPid);
      const secondDone = pgRateQueries(second!).lockKeys(['b', 'a']);
      await waitingForLock(pool, secondPid);
      await holder!.query('COMMIT');
      await firstDone;
      await first!.query('COMMIT');
      await secondDone;
      await second!.query('COMMIT');
    } finally {
      for (const client of [holder!, first!, second!]) client.release();
      await close();
    }
  });
});

/** The server process of a connection, as pg_locks names it. */
async function pidOf(client: pg.PoolClient): Promise<number> {
  return (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
}

/** Resolves once the connection of server process `pid` waits for a lock. */
async function waitingForLock(pool: pg.Pool, pid: number): Promise<void> {
  while ((await pool.query('SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted', [pid])).rowCount === 0) await sleep(5);
}
