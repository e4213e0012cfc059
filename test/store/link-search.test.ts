import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import type { LinkRecord, Store, Team } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

/**
 * listLinks search in a team too large to read whole (over 2,000 links): the trigram index for q of 3+
 * characters and the spaced-out trigram index for 1–2 characters must find exactly what a plain
 * case-insensitive substring match finds, newest first, in pages.
 */
let dir: string;
let store: Store;
let team: Team;
let other: Team;
const all: LinkRecord[] = [];
const now = new Date('2026-11-21T12:00:00Z');
const limits = { ...DEFAULT_LIMITS, maxLinksPerTeam: 1e9, perHour: 1e9, perDay: 1e9, firstWeekPerDay: 1e9, changesPerHour: 1e9 };
const NOTES = ['Éclair über alles', '100% sure_thing', 'say "hi"', 'ab', 'x', null];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-search-'));
  store = openSqliteStore(join(dir, 'search.db'));
  const person = await store.people.add({ email: 'search@example.com', passwordHash: null, agreedTerms: true }, now);
  team = await store.teams.add({ name: 'Big', ownerId: person.id }, now);
  other = await store.teams.add({ name: 'Other', ownerId: person.id }, now);
  for (let i = 0; i < 2100; i++) {
    const input = { teamId: team.id, teamCreatedAt: now, destination: `https://site${i % 7}.example.com/p/${i}`, name: i % 50 === 0 ? `n-${i}` : null, note: NOTES[i % NOTES.length]! };
    all.push(await store.links.create(input, limits, now));
  }
  await store.links.create({ teamId: other.id, teamCreatedAt: now, destination: 'https://elsewhere.example.com/ab', name: null, note: 'ab' }, limits, now);
  await store.links.setNote(all[10]!.id, 'changed ZZ', now);
  all[10] = (await store.links.findByCode(all[10]!.code))!;
  await store.links.delete(all[20]!.id, limits, now);
  all.splice(20, 1);
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function expected(q: string, state: LinkRecord['state'] | null = null): string[] {
  const needle = q.toLowerCase();
  return all
    .filter((l) => (state === null || l.state === state) && [l.code, l.name, l.destination, l.note].some((t) => t?.toLowerCase().includes(needle)))
    .map((l) => l.code)
    .reverse();
}

async function search(q: string, pageSize = 100): Promise<string[]> {
  const codes: string[] = [];
  let after: number | null = null;
  for (;;) {
    const page = await store.links.list(team.id, { state: null, q }, { limit: pageSize, after });
    codes.push(...page.map((l) => l.code));
    if (page.length < pageSize) return codes;
    after = page.at(-1)!.seq;
  }
}

describe('search in a large team', () => {
  it.each(['über', 'ÉCLAIR', 'site3', '/p/1', '100%', 'sure_', '"hi"', 'zz', 'ÜB', 'Éc', 'ab', 'x', '%', '_', '"', 'n-', 'no such'])(
    'finds exactly the links containing %j, newest first',
    async (q) => {
      const want = expected(q);
      expect(await search(q)).toEqual(want);
    },
  );

  it('finds a code by a part of it, in any case', async () => {
    const code = all[1234]!.code;
    expect(await search(code.slice(1, 5).toLowerCase())).toContain(code);
    expect(await search(code.slice(2, 4).toUpperCase())).toContain(code);
  });

  it('never returns another team\'s links, nor deleted ones', async () => {
    const found = await search('elsewhere');
    expect(found).toEqual([]);
    expect(await search(all[0]!.code)).toEqual([all[0]!.code]);
  });

  it('keeps the index right after a note changes', async () => {
    expect(await search('changed zz')).toEqual([all[10]!.code]);
  });
});
