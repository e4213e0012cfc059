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

  it('takes a key again without reading it, answers each take exactly, and reads again once another process took', async () => {
    const url = await newMigratedTestDatabase();
    const [one, other] = [await openDatabase(url), await openDatabase(url)];
    try {
      const sent: string[] = [];
      const counted = {
        query: (text: string, ...args: unknown[]) => {
          sent.push(text.includes('rate_events_add') ? 'add' : text.startsWith('DELETE') ? 'sweep' : 'read');
          return (one.reserved.query as (...a: unknown[]) => unknown)(text, ...args);
        },
      } as unknown as pg.Pool;
      const rates = pgRates(one.pool, counted);
      const elsewhere = pgRates(other.pool, other.reserved);
      const remaining = async (limiter: typeof rates, at: number) => {
        const { allowed, remaining: left } = await limiter.take('k', 10, 60_000, at);
        return [allowed, left];
      };
      for (let n = 0; n < 5; n++) expect(await remaining(rates, 1_000 + n)).toEqual([true, 9 - n]);
      // Read once, then known: five adds (and the first take's sweep, once a minute).
      expect(sent).toEqual(['sweep', 'read', 'add', 'add', 'add', 'add', 'add']);
      expect(await remaining(elsewhere, 2_000)).toEqual([true, 4]);
      expect(await remaining(elsewhere, 2_001)).toEqual([true, 3]);
      sent.length = 0;
      // The add on what this process knew finds the other's calls: read again, and counted with them.
      expect(await remaining(rates, 3_000)).toEqual([true, 2]);
      expect(sent).toEqual(['add', 'read', 'add']);
      expect(await remaining(elsewhere, 3_001)).toEqual([true, 1]);
      sent.length = 0;
      // Refused on what it knew (1 left by its count, none in truth, after the other's take): read before answering.
      expect(await remaining(rates, 3_002)).toEqual([true, 0]);
      expect(await remaining(rates, 3_003)).toEqual([false, 0]);
      expect(sent).toEqual(['add', 'read', 'add', 'read']);
      // The first call stops counting at 61,000 (until 61,000), the next four by 61,004: known ones go, exactly.
      expect(await remaining(rates, 61_000)).toEqual([true, 0]);
      expect(await remaining(rates, 61_000)).toEqual([false, 0]);
      expect(await remaining(rates, 61_004)).toEqual([true, 3]);
      expect(await remaining(elsewhere, 61_004)).toEqual([true, 2]);
    } finally {
      await Promise.all([one.close(), other.close()]);
    }
  });
});
