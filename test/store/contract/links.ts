import { describe, expect, it } from 'vitest';
import { looksLikeCode } from '../../../src/domain/code.js';
import type { LinkRecord } from '../../../src/store/ports.js';
import { at, failure, MINUTE, ROOMY, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const codes = (links: LinkRecord[]) => links.map((l) => l.code);

export function links(open: OpenStore): void {
  describe('links', () => {
    const s = storeUnderTest(open);

    describe('create and find', () => {
      it('creates an active link with a fresh code and returns its record', async () => {
        const team = await s.team();
        const link = await s.link(team, { destination: 'https://example.com/a', name: 'spring', note: 'For the fair' }, at(MINUTE));
        expect(link).toEqual({
          seq: expect.any(Number), id: expect.any(String), teamId: team.id, code: expect.any(String), name: 'spring',
          destination: 'https://example.com/a', note: 'For the fair', state: 'active', createdAt: at(MINUTE).toISOString(), changedAt: null,
          // Options left out are as links made before options were.
          expiresAt: null, maxClicks: null, passwordHash: null, tags: [], forwardQuery: false,
        });
        expect(looksLikeCode(link.code)).toBe(true);
        expect(await s.store.links.findByCode(link.code)).toEqual(link);
        expect(await s.store.links.findByName('spring')).toEqual(link);
        const plain = await s.link(team, {}, at(2 * MINUTE));
        expect(plain).toMatchObject({ name: null, note: null });
        expect(plain.seq).toBeGreaterThan(link.seq);
        expect(await s.store.links.findByCode('Unknown')).toBeNull();
        expect(await s.store.links.findByName('unknown')).toBeNull();
      });

      it('draws the codes from its randomness and never issues a code twice, deleted links included', async () => {
        const team = await s.team();
        s.random.drawNext('Qx7pLm2');
        const deleted = await s.link(team);
        expect(deleted.code).toBe('Qx7pLm2');
        await s.store.links.delete(deleted.id, ROOMY, T0);
        s.random.drawNext('Qx7pLm2', 'Qx7pLm2', 'Rt5kWn8');
        const live = await s.link(team);
        expect(live.code).toBe('Rt5kWn8');
        s.random.drawNext('Rt5kWn8', 'Zz1aBb3');
        expect((await s.link(team)).code).toBe('Zz1aBb3');
      });

      it('makes every code unique across many creates and deletes', async () => {
        const team = await s.team();
        const seen = new Set<string>();
        for (let i = 0; i < 40; i++) {
          const link = await s.link(team);
          seen.add(link.code);
          if (i % 2 === 0) await s.store.links.delete(link.id, ROOMY, T0);
        }
        expect(seen.size).toBe(40);
        expect([...seen].every(looksLikeCode)).toBe(true);
      });

      it('finds many links by id in one read, across teams, skipping ids of none or of deleted links', async () => {
        const [a, b] = [await s.team(), await s.team()];
        const first = await s.link(a, { name: 'first' });
        const second = await s.link(b);
        const deleted = await s.link(a);
        await s.store.links.delete(deleted.id, ROOMY, T0);
        const found = await s.store.links.findByIds([second.id, 'link_none', deleted.id, first.id]);
        expect(found.sort((x, y) => x.seq - y.seq)).toEqual([first, second]);
        expect(await s.store.links.findByIds([])).toEqual([]);
      });

      it('makes exactly maxLinksPerTeam of many concurrent creates, the rest team_full', async () => {
        const team = await s.team();
        const limits = { ...ROOMY, maxLinksPerTeam: 25 };
        const results = await Promise.allSettled(Array.from({ length: 30 }, () => s.link(team, {}, T0, limits)));
        const made = results.filter((r) => r.status === 'fulfilled');
        const refused = await Promise.all(results.filter((r) => r.status === 'rejected').map((r) => failure(Promise.reject(r.reason))));
        expect(made).toHaveLength(25);
        expect(refused).toEqual(Array(5).fill({ status: 409, code: 'team_full', field: null }));
        expect(await s.store.links.list(team.id, { state: null, q: null }, { limit: 100, after: null })).toHaveLength(25);
      });

      it('gives a name to exactly one of two teams claiming it at once', async () => {
        const [a, b] = [await s.team(), await s.team()];
        const results = await Promise.allSettled([s.link(a, { name: 'contested' }), s.link(b, { name: 'contested' })]);
        expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        const lost = results.find((r) => r.status === 'rejected')!;
        expect(await failure(Promise.reject(lost.reason))).toEqual({ status: 409, code: 'name_taken', field: 'name' });
      });
    });

    describe('list', () => {
      it('lists a team newest first in keyset pages, deleted links left out', async () => {
        const team = await s.team();
        const made: LinkRecord[] = [];
        for (let i = 0; i < 6; i++) made.push(await s.link(team, { destination: `https://example.com/${i}` }, at(i * MINUTE)));
        await s.link(await s.team());
        await s.store.links.delete(made[2]!.id, ROOMY, T0);
        const newestFirst = [made[5]!, made[4]!, made[3]!, made[1]!, made[0]!];
        const all = { state: null, q: null };
        expect(await s.store.links.list(team.id, all, { limit: 100, after: null })).toEqual(newestFirst);
        expect(await s.store.links.list(team.id, all, { limit: 2, after: null })).toEqual(newestFirst.slice(0, 2));
        expect(await s.store.links.list(team.id, all, { limit: 2, after: made[4]!.seq })).toEqual(newestFirst.slice(2, 4));
        expect(await s.store.links.list(team.id, all, { limit: 2, after: made[1]!.seq })).toEqual([made[0]!]);
        expect(await s.store.links.list(team.id, all, { limit: 2, after: made[0]!.seq })).toEqual([]);
        expect(await s.store.links.list('team_unknown', all, { limit: 2, after: null })).toEqual([]);
      });

      it('filters by state', async () => {
        const team = await s.team();
        const [a, b, c] = [await s.link(team), await s.link(team), await s.link(team)];
        await s.store.links.setState(a.code, 'flagged', T0);
        await s.store.links.setState(c.code, 'disabled', T0);
        const page = { limit: 100, after: null };
        expect(codes(await s.store.links.list(team.id, { state: 'active', q: null }, page))).toEqual([b.code]);
        expect(codes(await s.store.links.list(team.id, { state: 'flagged', q: null }, page))).toEqual([a.code]);
        expect(codes(await s.store.links.list(team.id, { state: 'disabled', q: null }, page))).toEqual([c.code]);
      });

      it('searches code, name, destination and note for q, ignoring case, wildcards taken literally', async () => {
        const team = await s.team();
        const sale = await s.link(team, { destination: 'https://shop.example.com/Sale', name: 'spring-sale', note: 'Big 50% off' });
        const blog = await s.link(team, { destination: 'https://blog.example.org/post', note: 'under_score' });
        const promo = await s.link(team, { destination: 'https://example.net/x', name: 'promo' });
        await s.link(await s.team(), { destination: 'https://shop.example.com/other', note: '50% more' });
        const search = async (q: string, state: LinkRecord['state'] | null = null, limit = 100, after: number | null = null) =>
          codes(await s.store.links.list(team.id, { state, q }, { limit, after }));
        expect(await search('SALE')).toEqual([sale.code]);
        expect(await search('shop')).toEqual([sale.code]);
        expect(await search('PROMO')).toEqual([promo.code]);
        expect(await search('UNDER_')).toEqual([blog.code]);
        expect(await search('%')).toEqual([sale.code]);
        expect(await search('_')).toEqual([blog.code]);
        expect(await search(promo.code.toLowerCase())).toEqual([promo.code]);
        expect(await search('no such thing')).toEqual([]);
        expect(await search('')).toEqual([promo.code, blog.code, sale.code]);
        expect(await search('example')).toEqual([promo.code, blog.code, sale.code]);
        expect(await search('example', null, 2)).toEqual([promo.code, blog.code]);
        expect(await search('example', null, 2, blog.seq)).toEqual([sale.code]);
        await s.store.links.setState(sale.code, 'flagged', T0);
        expect(await search('example', 'active')).toEqual([promo.code, blog.code]);
        expect(await search('example', 'flagged')).toEqual([sale.code]);
        await s.store.links.setNote(blog.id, 'Changed', at(MINUTE));
        expect(await search('under')).toEqual([]);
        expect(await search('CHANGED')).toEqual([blog.code]);
      });
    });

    describe('activeDestinations', () => {
      it('pages through active links of every team by seq', async () => {
        const [a, b] = [await s.team(), await s.team()];
        const made = [await s.link(a), await s.link(b), await s.link(a), await s.link(b), await s.link(a)];
        await s.store.links.setState(made[1]!.code, 'flagged', T0);
        await s.store.links.setState(made[2]!.code, 'disabled', T0);
        await s.store.links.delete(made[3]!.id, ROOMY, T0);
        const active = [made[0]!, made[4]!].map(({ seq, code, destination }) => ({ seq, code, destination }));
        expect(await s.store.links.activeDestinations(0, 100)).toEqual(active);
        expect(await s.store.links.activeDestinations(0, 1)).toEqual(active.slice(0, 1));
        expect(await s.store.links.activeDestinations(made[0]!.seq, 1)).toEqual(active.slice(1));
        expect(await s.store.links.activeDestinations(made[4]!.seq, 100)).toEqual([]);
      });
    });
  });
}
