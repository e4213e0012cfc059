import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/postgres/database.js';
import { pgRates } from '../../src/store/postgres/rates.js';
import { newMigratedTestDatabase } from '../helpers/shared-postgres.js';

/**
 * Many people's takes at once on PostgreSQL (src/store/postgres/rate-turns.ts): their reads and their adds go as
 * one statement per turn, and each take still gets exactly its own answer. (postgres-shared.test.ts checks that
 * several processes taking at once share each budget exactly.)
 */
describe('takes of many keys at once on PostgreSQL', () => {
  it('send a statement per turn, not two per take, and answer each key as if it took alone', async () => {
    const { pool, reserved, close } = await openDatabase(await newMigratedTestDatabase());
    try {
      let statements = 0;
      const counted = { query: (...args: unknown[]) => (statements++, (reserved.query as (...a: unknown[]) => unknown)(...args)) } as unknown as pg.Pool;
      const rates = pgRates(pool, counted);
      const keys = Array.from({ length: 40 }, (_, i) => `person:${i}`);
      // Key i has taken i % 4 calls already (limit 3), so some of the takes at once are refused.
      for (const [i, key] of keys.entries()) for (let n = 0; n < i % 4; n++) await rates.take(key, 3, 60_000, 1_000);
      statements = 0;
      const answers = await Promise.all(keys.map((key) => rates.take(key, 3, 60_000, 2_000)));
      expect(answers.map(({ allowed, remaining }) => [allowed, remaining])).toEqual(
        keys.map((_, i) => (i % 4 < 3 ? [true, 2 - (i % 4)] : [false, 0])),
      );
      // The first take's read and add alone, then one read and one add for the other 39 (80 one by one).
      expect(statements).toBeLessThanOrEqual(6);
      for (const [i, key] of keys.entries()) expect((await rates.peek(key, 3, 60_000, 2_000)).remaining).toBe(Math.max(0, 2 - (i % 4)));
    } finally {
      await close();
    }
  });
});
