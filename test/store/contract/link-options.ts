import { describe, expect, it } from 'vitest';
import type { Limits } from '../../../src/domain/limits.js';
import type { LinkOptions } from '../../../src/store/ports.js';
import { at, failure, MINUTE, ROOMY, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const OPTIONS: LinkOptions = {
  expiresAt: '2027-01-31T18:00:00.000Z',
  maxClicks: 500,
  passwordHash: 'scrypt$stand-in',
  tags: ['launch', 'spring-2027'],
  forwardQuery: true,
};

export function linkOptions(open: OpenStore): void {
  describe('link options', () => {
    const s = storeUnderTest(open);

    it('keeps the options a link is made with, and finds it with them by code, name and id', async () => {
      const link = await s.link(await s.team(), { name: 'with-options', ...OPTIONS }, at(MINUTE));
      expect(link).toMatchObject({ ...OPTIONS, changedAt: null });
      expect(await s.store.links.findByCode(link.code)).toEqual(link);
      expect(await s.store.links.findByName('with-options')).toEqual(link);
      expect(await s.store.links.findByIds([link.id])).toEqual([link]);
      expect((await s.store.links.list(link.teamId, { state: null, q: null }, { limit: 10, after: null }))[0]).toEqual(link);
    });

    it('sets the options given, keeps those left out, clears with null, and stamps changedAt', async () => {
      const link = await s.link(await s.team(), OPTIONS);
      const capped = await s.store.links.setOptions(link.id, { maxClicks: 20, tags: ['b', 'a'].sort() }, ROOMY, at(MINUTE));
      expect(capped).toEqual({ ...link, maxClicks: 20, tags: ['a', 'b'], changedAt: at(MINUTE).toISOString() });
      const cleared = await s.store.links.setOptions(
        link.id,
        { expiresAt: null, maxClicks: null, passwordHash: null, tags: [], forwardQuery: false },
        ROOMY,
        at(2 * MINUTE),
      );
      expect(cleared).toEqual({ ...capped, expiresAt: null, maxClicks: null, passwordHash: null, tags: [], forwardQuery: false, changedAt: at(2 * MINUTE).toISOString() });
      expect(await s.store.links.findByCode(link.code)).toEqual(cleared);
    });

    it('options as they are change nothing, nor count as a change', async () => {
      const limits: Limits = { ...ROOMY, changesPerHour: 1 };
      const link = await s.link(await s.team(), OPTIONS);
      expect(await s.store.links.setOptions(link.id, OPTIONS, limits, at(MINUTE))).toEqual(link);
      expect(await s.store.links.setOptions(link.id, {}, limits, at(MINUTE))).toEqual(link);
      expect(await s.store.links.setOptions(link.id, { maxClicks: 1 }, limits, at(MINUTE))).toMatchObject({ maxClicks: 1 });
      expect(await failure(s.store.links.setOptions(link.id, { maxClicks: 2 }, limits, at(2 * MINUTE)))).toEqual({
        status: 429,
        code: 'limit_reached',
        field: null,
        retryAfter: 59 * 60,
      });
      expect(await s.store.links.findByCode(link.code)).toMatchObject({ maxClicks: 1 });
    });

    it('a flagged link takes no options (link_flagged), a disabled one none (link_disabled); an unknown one is 404', async () => {
      const team = await s.team();
      const flagged = await s.link(team);
      const disabled = await s.link(team);
      await s.store.links.setState(flagged.code, 'flagged', T0);
      await s.store.links.setState(disabled.code, 'disabled', T0);
      expect(await failure(s.store.links.setOptions(flagged.id, { maxClicks: 5 }, ROOMY, T0))).toEqual({ status: 409, code: 'link_flagged', field: null });
      expect(await failure(s.store.links.setOptions(disabled.id, { maxClicks: 5 }, ROOMY, T0))).toEqual({ status: 409, code: 'link_disabled', field: null });
      expect(await failure(s.store.links.setOptions('link_unknown', { maxClicks: 5 }, ROOMY, T0))).toEqual({ status: 404, code: 'not_found', field: 'code' });
      expect(await s.store.links.findByCode(flagged.code)).toMatchObject({ state: 'flagged', maxClicks: null });
    });

    describe('tags', () => {
      const page = (limit: number, after: number | null = null) => ({ limit, after });
      const codes = (links: Array<{ code: string }>) => links.map((link) => link.code);

      it('lists a team’s links carrying a tag, newest first, paged, in a state; counts each tag’s links', async () => {
        const team = await s.team();
        const other = await s.team();
        const a = await s.link(team, { tags: ['spring', 'print'] });
        const b = await s.link(team, { tags: ['spring'] });
        const c = await s.link(team, { tags: ['autumn'] });
        const d = await s.link(team, { tags: ['spring'] });
        await s.link(other, { tags: ['spring'] });
        const list = (filter: { tag: string; state?: 'active' | 'flagged' | null; q?: string | null }, limit = 10, after: number | null = null) =>
          s.store.links.list(team.id, { state: null, q: null, ...filter }, page(limit, after));
        expect(codes(await list({ tag: 'spring' }))).toEqual(codes([d, b, a]));
        const first = await list({ tag: 'spring' }, 2);
        expect(codes(first)).toEqual(codes([d, b]));
        expect(codes(await list({ tag: 'spring' }, 2, first.at(-1)!.seq))).toEqual(codes([a]));
        await s.store.links.setState(b.code, 'flagged', T0);
        expect(codes(await list({ tag: 'spring', state: 'active' }))).toEqual(codes([d, a]));
        expect(codes(await list({ tag: 'spring', state: 'flagged' }))).toEqual(codes([b]));
        expect(codes(await list({ tag: 'nothing' }))).toEqual([]);
        expect(await s.store.links.tags(team.id)).toEqual([
          { tag: 'autumn', links: 1 },
          { tag: 'print', links: 1 },
          { tag: 'spring', links: 3 },
        ]);
        expect(c.tags).toEqual(['autumn']);
      });

      it('a tag and a q together keep the tagged links holding q', async () => {
        const team = await s.team();
        const kept = await s.link(team, { tags: ['fair'], note: 'Poster A' });
        await s.link(team, { tags: ['fair'], note: 'Flyer' });
        await s.link(team, { tags: ['other'], note: 'Poster B' });
        const found = await s.store.links.list(team.id, { state: null, q: 'poster', tag: 'fair' }, page(10));
        expect(codes(found)).toEqual(codes([kept]));
      });

      it('q also finds links by their tags, merged newest first with the other matches, and paged', async () => {
        const team = await s.team();
        const byTag = await s.link(team, { tags: ['summer-sale'] });
        const byNote = await s.link(team, { note: 'summer-sale flyer' });
        const both = await s.link(team, { tags: ['summer-sale'], note: 'summer-sale' });
        await s.link(team, { tags: ['winter'] });
        const list = (limit: number, after: number | null = null) => s.store.links.list(team.id, { state: null, q: 'SALE' }, page(limit, after));
        expect(codes(await list(10))).toEqual(codes([both, byNote, byTag]));
        const first = await list(2);
        expect(codes(first)).toEqual(codes([both, byNote]));
        expect(codes(await list(2, first.at(-1)!.seq))).toEqual(codes([byTag]));
      });

      it('changing the tags, or deleting the link, changes what is found and counted', async () => {
        const team = await s.team();
        const link = await s.link(team, { tags: ['old'] });
        await s.store.links.setOptions(link.id, { tags: ['new'] }, ROOMY, at(MINUTE));
        expect(await s.store.links.list(team.id, { state: null, q: null, tag: 'old' }, page(10))).toEqual([]);
        expect(codes(await s.store.links.list(team.id, { state: null, q: null, tag: 'new' }, page(10)))).toEqual([link.code]);
        expect(await s.store.links.tags(team.id)).toEqual([{ tag: 'new', links: 1 }]);
        await s.store.links.delete(link.id, ROOMY, at(2 * MINUTE));
        expect(await s.store.links.tags(team.id)).toEqual([]);
        expect(await s.store.links.list(team.id, { state: null, q: null, tag: 'new' }, page(10))).toEqual([]);
      });
    });

    it('tells the link’s code and name as changed, so every cache lets go of the old options', async () => {
      const link = await s.link(await s.team(), { name: 'told-options' });
      const told: Array<string[] | null> = [];
      s.store.changes.subscribe((keys) => told.push(keys && [...keys].sort()));
      await s.store.links.setOptions(link.id, { expiresAt: OPTIONS.expiresAt }, ROOMY, at(MINUTE));
      expect(told).toContainEqual([link.code, 'told-options'].sort());
    });
  });
}
