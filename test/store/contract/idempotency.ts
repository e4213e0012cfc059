import { describe, expect, it } from 'vitest';
import type { IdempotencyBegin } from '../../../src/store/ports.js';
import { at, HOUR_MS, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const key = { personId: 'person_idem', operation: 'createLink', key: 'key-1' };
const claimOf = (begun: IdempotencyBegin) => {
  if (begun.kind !== 'new') throw new Error(`expected a new claim, got ${begun.kind}`);
  return begun.claim;
};

export function idempotency(open: OpenStore): void {
  describe('idempotency', () => {
    const s = storeUnderTest(open);

    it('claims a new key, then replays the answer kept for the same body for 24 hours', async () => {
      const begun = await s.store.idempotency.begin(key, 'body-a', T0);
      expect(begun).toEqual({ kind: 'new', claim: expect.any(Number) });
      await s.store.idempotency.finish(key, claimOf(begun), 201, '{"code":"Abc1234"}');
      const replay = { kind: 'replay', status: 201, body: '{"code":"Abc1234"}' };
      expect(await s.store.idempotency.begin(key, 'body-a', at(MINUTE))).toEqual(replay);
      expect(await s.store.idempotency.begin(key, 'body-a', at(23 * HOUR_MS))).toEqual(replay);
      expect(await s.store.idempotency.begin(key, 'body-a', at(25 * HOUR_MS))).toEqual({ kind: 'new', claim: expect.any(Number) });
    });

    it('refuses the key with another body as reused, finished or not', async () => {
      const begun = await s.store.idempotency.begin(key, 'body-a', T0);
      expect(await s.store.idempotency.begin(key, 'body-b', T0)).toEqual({ kind: 'reused' });
      await s.store.idempotency.finish(key, claimOf(begun), 200, 'null');
      expect(await s.store.idempotency.begin(key, 'body-b', at(MINUTE))).toEqual({ kind: 'reused' });
      expect(await s.store.idempotency.begin(key, 'body-a', at(MINUTE))).toEqual({ kind: 'replay', status: 200, body: 'null' });
    });

    it('answers in_use while the first call runs, also to calls at the same moment', async () => {
      const begun = await Promise.all([1, 2, 3].map(() => s.store.idempotency.begin(key, 'body-a', T0)));
      expect(begun.map((b) => b.kind).sort()).toEqual(['in_use', 'in_use', 'new']);
      // Its process holds the claim while the call runs (a claim no longer held is taken over: idempotent-writes.ts).
      const claim = claimOf(begun.find((b) => b.kind === 'new')!);
      await s.store.idempotency.hold([{ key, claim }], at(MINUTE + 5000));
      expect(await s.store.idempotency.begin(key, 'body-a', at(MINUTE))).toEqual({ kind: 'in_use' });
    });

    it('lets a released key begin anew', async () => {
      const first = claimOf(await s.store.idempotency.begin(key, 'body-a', T0));
      await s.store.idempotency.release(key, first);
      const second = claimOf(await s.store.idempotency.begin(key, 'body-b', at(MINUTE)));
      await s.store.idempotency.finish(key, second, 429, 'limited');
      expect(await s.store.idempotency.begin(key, 'body-b', at(2 * MINUTE))).toEqual({ kind: 'replay', status: 429, body: 'limited' });
    });

    it('scopes a key to its person and operation', async () => {
      await s.store.idempotency.begin(key, 'body-a', T0);
      expect((await s.store.idempotency.begin({ ...key, personId: 'person_other' }, 'body-b', T0)).kind).toBe('new');
      expect((await s.store.idempotency.begin({ ...key, operation: 'deleteLink' }, 'body-b', T0)).kind).toBe('new');
      expect((await s.store.idempotency.begin({ ...key, key: 'key-2' }, 'body-b', T0)).kind).toBe('new');
    });

    it('ignores finish and release with a claim taken over by a later call', async () => {
      const stale = claimOf(await s.store.idempotency.begin(key, 'body-a', T0));
      const taken = claimOf(await s.store.idempotency.begin(key, 'body-a', at(HOUR_MS)));
      expect(taken).not.toBe(stale);
      await s.store.idempotency.finish(key, stale, 500, 'stale');
      await s.store.idempotency.release(key, stale);
      expect(await s.store.idempotency.begin(key, 'body-a', at(HOUR_MS + 1000))).toEqual({ kind: 'in_use' });
      await s.store.idempotency.finish(key, taken, 200, 'fresh');
      await s.store.idempotency.finish(key, taken, 500, 'again');
      expect(await s.store.idempotency.begin(key, 'body-a', at(HOUR_MS + 2000))).toEqual({ kind: 'replay', status: 200, body: 'fresh' });
    });
  });
}
