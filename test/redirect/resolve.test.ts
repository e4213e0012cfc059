import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { cryptoRandom, type Random } from '../../src/domain/random.js';
import { linkResolver } from '../../src/redirect/resolve.js';
import type { Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { cacheStats } from '../../src/support/cache-stats.js';

/**
 * The redirect's lookups (resolve.ts) on a real store: names in any case, codes exactly, and a cache that the
 * store's changes keep exact whichever way a visit spelled the key.
 */
const now = new Date('2026-11-21T12:00:00Z');
const limits = { ...DEFAULT_LIMITS, perHour: 1000, perDay: 1000, firstWeekPerDay: 1000 };
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random bytes, except that the next code drawn (7 characters from 14 bytes) can be chosen. */
const scripted = { nextCode: null as string | null };
const random: Random = {
  bytes(n) {
    const code = scripted.nextCode;
    if (n !== 14 || code === null) return cryptoRandom.bytes(n);
    scripted.nextCode = null;
    // Bytes from 248 on are rejected, so the other seven draw nothing.
    return Buffer.from([...code].map((char) => ALPHABET.indexOf(char)).concat(Array(7).fill(255)));
  },
};

let store: Store;
let reads: string[];
let resolve: ReturnType<typeof linkResolver>;
let teamId: string;
beforeEach(async () => {
  store = openSqliteStore(':memory:', random);
  reads = [];
  // The store's reads, written down, so a test sees which visits the cache answered.
  const links = {
    findByCode: (code: string) => (reads.push(`code ${code}`), store.links.findByCode(code)),
    findByName: (name: string) => (reads.push(`name ${name}`), store.links.findByName(name)),
  };
  resolve = linkResolver({ changes: store.changes, links } as unknown as Store);
  const person = await store.people.add({ email: 'ada@example.com', passwordHash: null, agreedTerms: true }, now);
  teamId = (await store.teams.add({ name: 'T', ownerId: person.id }, now)).id;
});
afterEach(() => store.close());

function link(name: string | null, code: string | null = null) {
  scripted.nextCode = code;
  return store.links.create({ teamId, teamCreatedAt: now, destination: 'https://example.com/', name, note: null }, limits, now);
}

describe('the redirect resolver', () => {
  it('finds a name in any case, with one read and one cache entry for every spelling', async () => {
    const made = await link('launch');
    for (const key of ['Launch', 'LAUNCH', 'launch', 'lAuNcH']) expect((await resolve(key))?.id, key).toBe(made.id);
    expect(reads).toEqual(['name launch']);
  });

  it('matches codes exactly: a code in another case is no link', async () => {
    const made = await link(null, 'AbCdEf1');
    expect((await resolve('AbCdEf1'))?.id).toBe(made.id);
    for (const key of ['aBcDeF1', 'ABCDEF1', 'abcdef1']) expect(await resolve(key), key).toBeNull();
  });

  it('forgets every spelling of a name when its link is renamed or deleted', async () => {
    const made = await link('launch');
    expect((await resolve('Launch'))?.id).toBe(made.id);
    await store.links.rename(made.id, 'liftoff', limits, now);
    expect(await resolve('Launch')).toBeNull();
    expect(await resolve('launch')).toBeNull();
    expect((await resolve('LIFTOFF'))?.id).toBe(made.id);
    await store.links.delete(made.id, limits, now);
    expect(await resolve('LiftOff')).toBeNull();
  });

  it('finds a name spelled as a code when no link has that code, and forgets it when the name or the code changes', async () => {
    const named = await link('launchs');
    // 7 characters with an uppercase letter: looked up as a code first, then as the name.
    expect((await resolve('Launchs'))?.id).toBe(named.id);
    expect((await resolve('Launchs'))?.id).toBe(named.id);
    expect(reads).toEqual(['code Launchs', 'name launchs']);
    // A change tells the link's code and names (lowercase), never `Launchs`: the name's entry is what it forgets.
    await store.links.rename(named.id, 'other', limits, now);
    expect(await resolve('Launchs')).toBeNull();
    const renamed = await link('launchs');
    expect((await resolve('LAUNCHS'))?.id).toBe(renamed.id);
    // A link made with the code itself is told by it: the code's cached null goes, and the code wins.
    const coded = await link(null, 'Launchs');
    expect(coded.code).toBe('Launchs');
    expect((await resolve('Launchs'))?.id).toBe(coded.id);
    expect((await resolve('LAUNCHS'))?.id).toBe(renamed.id);
  });

  it('counts one cache lookup per visit: a miss when it reads, else a hit', async () => {
    await link('launch');
    const stats = cacheStats('links');
    const lookups: Array<[string, number, number]> = [];
    for (const key of ['launch', 'launch', 'Launch', 'no-such', 'No-Such']) {
      const [hits, misses] = [stats.hits, stats.misses];
      await resolve(key);
      lookups.push([key, stats.hits - hits, stats.misses - misses]);
    }
    expect(lookups).toEqual([['launch', 0, 1], ['launch', 1, 0], ['Launch', 1, 0], ['no-such', 0, 1], ['No-Such', 1, 0]]);
  });
});
