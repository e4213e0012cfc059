import { describe, expect, it } from 'vitest';
import type { LinkRecord, Team } from '../../../src/store/ports.js';
import { at, MINUTE, ROOMY, storeUnderTest, T0, type OpenStore } from './fixtures.js';

/**
 * More links than any adapter reads newest-first before it turns to an index (PostgreSQL: PROBE in
 * src/store/postgres/search.ts, which test/store/postgres-schema.test.ts keeps below this), so paging crosses that
 * boundary.
 */
export const LARGE_TEAM = 400;

const BIG = { ...ROOMY, maxLinksPerTeam: 10_000, perHour: 10_000, perDay: 10_000, firstWeekPerDay: 10_000 };
const codes = (links: LinkRecord[]) => links.map((l) => l.code);

/** listLinks q (ports.ts LinkFilter): a case-insensitive substring of code, name, destination or note, any characters literal. */
export function linkSearch(open: OpenStore): void {
  describe('link search', () => {
    const s = storeUnderTest(open);
    const search = async (team: Team, q: string, limit = 100, after: number | null = null, state: LinkRecord['state'] | null = null) =>
      codes(await s.store.links.list(team.id, { state, q }, { limit, after }));

    it('finds q of one and two characters held by no link, by some and by every one', async () => {
      const team = await s.team();
      s.random.drawNext('AAAAAA1', 'BBBBBB2', 'CCCCCC3', 'DDDDDD4');
      const a = await s.link(team, { destination: 'https://a.example/x', note: 'Ωmega' });
      const b = await s.link(team, { destination: 'https://b.example/y', name: 'zz-top' });
      const c = await s.link(team, { destination: 'https://c.example/xy' });
      await s.link(await s.team(), { destination: 'https://other.example/~', note: 'ω and ~~' });
      expect(await search(team, '~')).toEqual([]);
      expect(await search(team, '~~')).toEqual([]);
      expect(await search(team, 'ω')).toEqual([a.code]);
      expect(await search(team, 'Z')).toEqual([b.code]);
      expect(await search(team, 'zz')).toEqual([b.code]);
      expect(await search(team, 'y')).toEqual([c.code, b.code]);
      expect(await search(team, 'XY')).toEqual([c.code]);
      expect(await search(team, '/')).toEqual([c.code, b.code, a.code]);
      expect(await search(team, '.e')).toEqual([c.code, b.code, a.code]);
      expect(await search(team, 'a1')).toEqual([a.code]);
      expect(await search(team, '/', 2)).toEqual([c.code, b.code]);
      expect(await search(team, '/', 2, b.seq)).toEqual([a.code]);
    });

    it('takes %, _ and \\ literally, alone and beside other characters', async () => {
      const team = await s.team();
      s.random.drawNext('AAAAAA1', 'BBBBBB2', 'CCCCCC3', 'DDDDDD4');
      const percent = await s.link(team, { note: '100% sure' });
      const underscore = await s.link(team, { note: 'snake_case' });
      const backslash = await s.link(team, { note: 'C:\\temp' });
      const both = await s.link(team, { note: 'odd \\% mix' });
      expect(await search(team, '%')).toEqual([both.code, percent.code]);
      expect(await search(team, '_')).toEqual([underscore.code]);
      expect(await search(team, '\\')).toEqual([both.code, backslash.code]);
      expect(await search(team, '\\%')).toEqual([both.code]);
      expect(await search(team, '0%')).toEqual([percent.code]);
      expect(await search(team, 'e_c')).toEqual([underscore.code]);
      expect(await search(team, '\\T')).toEqual([backslash.code]);
      // As LIKE wildcards these would match: e% (any e), _a (na, ca), %% (anything), \\_ (an escaped _).
      expect(await search(team, 'e%')).toEqual([]);
      expect(await search(team, '_a')).toEqual([]);
      expect(await search(team, '%%')).toEqual([]);
      expect(await search(team, '\\_')).toEqual([]);
    });

    it('finds long and repetitive q only where the whole q is, never across two fields', async () => {
      const team = await s.team();
      s.random.drawNext('AAAAAA1', 'BBBBBB2', 'CCCCCC3');
      const long = await s.link(team, { destination: 'https://docs.example.com/docs/docs-and-guides/2026/getting-started' });
      const twice = await s.link(team, { destination: 'https://x.example/docs/docs', note: 'aba bab' });
      const parts = await s.link(team, { destination: 'https://start.example/', name: 'the-end' });
      expect(await search(team, 'HTTPS://DOCS.EXAMPLE.COM/DOCS/DOCS-AND-GUIDES/2026/GETTING-STARTED')).toEqual([long.code]);
      expect(await search(team, 'https://docs.example.com/docs/docs-and-guides/2026/getting-started/')).toEqual([]);
      expect(await search(team, 'docs/docs')).toEqual([twice.code, long.code]);
      expect(await search(team, 'docs/docs/docs')).toEqual([]);
      expect(await search(team, 'aba')).toEqual([twice.code]);
      expect(await search(team, 'abab')).toEqual([]);
      expect(await search(team, 'endhttps')).toEqual([]);
      expect(await search(team, 'the-end')).toEqual([parts.code]);
      expect(await search(team, 'x'.repeat(2048))).toEqual([]);
    });

    it('pages newest first through a large team, whether a link is among the newest or older ones', async () => {
      const team = await s.team();
      const made: LinkRecord[] = [];
      // "needle" in links spread over the whole team; "§" and "rare" in four of the newest and three of the oldest.
      const few = new Set([3, 50, 99, 250, 350, 380, 390]);
      for (let i = 0; i < LARGE_TEAM; i++) {
        const note = [i % 7 === 0 ? 'needle' : null, few.has(i) ? 'Rare §' : null].filter(Boolean).join(' ') || null;
        made.push(await s.link(team, { destination: `https://site.example/${i}`, note }, at(i * MINUTE), BIG));
      }
      await s.link(await s.team(), { destination: 'https://elsewhere.example/', note: 'needle rare §' });
      // A deleted link is not found; a changed one is found by its new text only.
      await s.store.links.delete(made[50]!.id, BIG, T0);
      await s.store.links.setNote(made[10]!.id, 'rare now', at(LARGE_TEAM * MINUTE));
      await s.store.links.setNote(made[350]!.id, 'plain', at(LARGE_TEAM * MINUTE));
      await s.store.links.setState(made[3]!.code, 'flagged', T0);
      const now = new Map(made.map((link) => [link.seq, link]));
      now.set(made[10]!.seq, { ...made[10]!, note: 'rare now' });
      now.set(made[350]!.seq, { ...made[350]!, note: 'plain' });
      now.delete(made[50]!.seq);
      // What a plain case-insensitive substring test finds, newest first (codes are random: they may hold q too).
      const holding = (q: string) =>
        [...now.values()]
          .filter((link) => [link.code, link.name, link.destination, link.note].some((text) => text?.toLowerCase().includes(q.toLowerCase())))
          .map((link) => link.code)
          .reverse();

      const pages = async (q: string, limit: number, state: LinkRecord['state'] | null = null) => {
        const found: string[] = [];
        let after: number | null = null;
        for (;;) {
          const page = await s.store.links.list(team.id, { state, q }, { limit, after });
          found.push(...codes(page));
          if (page.length < limit) return found;
          after = page.at(-1)!.seq;
        }
      };
      expect(holding('rare').length).toBeGreaterThanOrEqual(6);
      for (const q of ['rare', 'RARE', '§', 'e §', 'needle']) {
        const want = holding(q);
        for (const limit of [1, 2, 5, 100]) expect(await pages(q, limit), `${q} in pages of ${limit}`).toEqual(want);
      }
      expect(await pages('rare', 3, 'flagged')).toEqual([made[3]!.code]);
      expect(await pages('rare', 3, 'active')).toEqual(holding('rare').filter((code) => code !== made[3]!.code));
      expect(await pages('no such text', 10)).toEqual([]);
    });
  });
}
