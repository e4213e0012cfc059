import { describe, expect, it } from 'vitest';
import type { Limits } from '../../../src/domain/limits.js';
import type { Team } from '../../../src/store/ports.js';
import { at, DAY_MS, failure, HOUR_MS, MINUTE, ROOMY, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const limitReached = (retryAfter: number) => ({ status: 429, code: 'limit_reached', field: null, retryAfter });

export function linkLimits(open: OpenStore): void {
  describe('link limits', () => {
    const s = storeUnderTest(open);

    /** A team made `age` before T0. */
    const teamOfAge = async (age: number): Promise<Team> => s.team(undefined, 'Team', at(-age));

    describe('on creation', () => {
      it('refuses a link beyond maxLinksPerTeam with team_full; a deleted link frees its place', async () => {
        const limits = { ...ROOMY, maxLinksPerTeam: 2 };
        const [team, other] = [await s.team(), await s.team()];
        const first = await s.link(team, {}, T0, limits);
        await s.link(team, {}, T0, limits);
        expect(await failure(s.link(team, {}, T0, limits))).toEqual({ status: 409, code: 'team_full', field: null });
        await s.link(other, {}, T0, limits);
        await s.store.links.delete(first.id, limits, T0);
        await s.link(team, {}, T0, limits);
      });

      it('refuses a link beyond perHour with limit_reached, retryAfter when the oldest leaves the hour', async () => {
        const limits = { ...ROOMY, perHour: 2 };
        const team = await teamOfAge(30 * DAY_MS);
        await s.link(team, {}, T0, limits);
        await s.link(team, {}, at(10 * MINUTE), limits);
        expect(await failure(s.link(team, {}, at(20 * MINUTE), limits))).toEqual(limitReached(40 * 60));
        await s.link(await teamOfAge(30 * DAY_MS), {}, at(20 * MINUTE), limits);
        await s.link(team, {}, at(HOUR_MS), limits);
      });

      it('refuses a link beyond perDay, deleted links counted, retryAfter when the oldest leaves the day', async () => {
        const limits = { ...ROOMY, perDay: 3, firstWeekPerDay: 3 };
        const team = await teamOfAge(30 * DAY_MS);
        const first = await s.link(team, {}, T0, limits);
        await s.store.links.delete(first.id, limits, T0);
        await s.link(team, {}, at(HOUR_MS), limits);
        await s.link(team, {}, at(2 * HOUR_MS), limits);
        expect(await failure(s.link(team, {}, at(3 * HOUR_MS), limits))).toEqual(limitReached(21 * 3600));
        await s.link(team, {}, at(DAY_MS), limits);
      });

      it('holds a team to firstWeekPerDay in its first seven days', async () => {
        const limits = { ...ROOMY, perDay: 100, firstWeekPerDay: 2 };
        const young = await teamOfAge(7 * DAY_MS - HOUR_MS);
        const old = await teamOfAge(7 * DAY_MS);
        for (const team of [young, old]) {
          await s.link(team, {}, T0, limits);
          await s.link(team, {}, at(MINUTE), limits);
        }
        expect(await failure(s.link(young, {}, at(2 * MINUTE), limits))).toEqual(limitReached(DAY_MS / 1000 - 120));
        await s.link(old, {}, at(2 * MINUTE), limits);
      });

      it('counts nothing for a create that failed', async () => {
        const limits = { ...ROOMY, perHour: 1 };
        const team = await s.team();
        await s.link(await s.team(), { name: 'taken' });
        expect(await failure(s.link(team, { name: 'taken' }, T0, limits))).toMatchObject({ code: 'name_taken' });
        await s.link(team, {}, T0, limits);
      });
    });

    describe('on changes', () => {
      const limits: Limits = { ...ROOMY, changesPerHour: 3 };

      it('counts setDestination, rename and delete against changesPerHour; setNote and no-op renames are free', async () => {
        const team = await s.team();
        const [a, b] = [await s.link(team, { name: 'first' }), await s.link(team)];
        await s.store.links.setDestination(a.id, 'https://example.com/new', limits, T0);
        await s.store.links.rename(a.id, 'second', limits, at(MINUTE));
        await s.store.links.delete(b.id, limits, at(2 * MINUTE));
        const refused = limitReached(3600 - 3 * 60);
        expect(await failure(s.store.links.setDestination(a.id, 'https://example.com/x', limits, at(3 * MINUTE)))).toEqual(refused);
        expect(await failure(s.store.links.rename(a.id, 'third', limits, at(3 * MINUTE)))).toEqual(refused);
        expect(await failure(s.store.links.delete(a.id, limits, at(3 * MINUTE)))).toEqual(refused);
        expect((await s.store.links.rename(a.id, 'second', limits, at(3 * MINUTE))).name).toBe('second');
        expect((await s.store.links.setNote(a.id, 'still free', at(3 * MINUTE))).note).toBe('still free');
        const otherTeam = await s.team();
        await s.store.links.delete((await s.link(otherTeam)).id, limits, at(3 * MINUTE));
        await s.store.links.setDestination(a.id, 'https://example.com/later', limits, at(HOUR_MS));
      });

      it('counts nothing for a change that failed', async () => {
        const one = { ...ROOMY, changesPerHour: 1 };
        const team = await s.team();
        await s.link(await s.team(), { name: 'taken' });
        const link = await s.link(team);
        expect(await failure(s.store.links.rename(link.id, 'taken', one, T0))).toMatchObject({ code: 'name_taken' });
        await s.store.links.setDestination(link.id, 'https://example.com/new', one, T0);
      });
    });
  });
}
