import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/domain/limits.js';
import { at, MINUTE, ROOMY, sorted, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const counts = (entries: Record<string, Record<string, number>>) =>
  new Map(Object.entries(entries).map(([linkId, days]) => [linkId, new Map(Object.entries(days))]));

export function clicksAndSettings(open: OpenStore): void {
  describe('clicks and settings', () => {
    const s = storeUnderTest(open);

    describe('clicks', () => {
      it('adds counts up per link and day, and answers the days with clicks in a range, inclusive', async () => {
        const team = await s.team();
        const [a, b] = [await s.link(team), await s.link(team)];
        await s.store.clicks.add(counts({ [a.id]: { '2026-11-01': 2, '2026-11-03': 1, '2026-11-05': 7 }, [b.id]: { '2026-11-03': 4 } }));
        // What the store holds leaves the batch (ClickStore.add): nothing is left once add resolves.
        const batch = counts({ [a.id]: { '2026-11-03': 5 } });
        await s.store.clicks.add(batch);
        expect(batch.size).toBe(0);
        const daily = async (id: string, from: string, to: string) => sorted(await s.store.clicks.daily(id, from, to), (d) => d.day);
        expect(await daily(a.id, '2026-11-01', '2026-11-05')).toEqual([
          { day: '2026-11-01', clicks: 2 },
          { day: '2026-11-03', clicks: 6 },
          { day: '2026-11-05', clicks: 7 },
        ]);
        expect(await daily(a.id, '2026-11-02', '2026-11-04')).toEqual([{ day: '2026-11-03', clicks: 6 }]);
        expect(await daily(a.id, '2026-11-06', '2026-11-30')).toEqual([]);
        expect(await daily(b.id, '2026-10-01', '2026-11-30')).toEqual([{ day: '2026-11-03', clicks: 4 }]);
      });

      it('totals the clicks of many links in a range at once, leaving out links without any there', async () => {
        const team = await s.team();
        const [a, b, quiet] = [await s.link(team), await s.link(team), await s.link(team)];
        await s.store.clicks.add(counts({ [a.id]: { '2026-11-01': 2, '2026-11-03': 1, '2026-11-05': 7 }, [b.id]: { '2026-11-03': 4 } }));
        const totals = await s.store.clicks.totals([a.id, b.id, quiet.id, 'link_unknown'], '2026-11-02', '2026-11-05');
        expect(totals).toEqual(new Map([[a.id, 8], [b.id, 4]]));
        expect(await s.store.clicks.totals([], '2026-11-01', '2026-11-30')).toEqual(new Map());
      });

      it("drops the clicks of a link deleted before they were added, keeping the others'", async () => {
        const team = await s.team();
        const [gone, kept] = [await s.link(team), await s.link(team)];
        await s.store.links.delete(gone.id, ROOMY, T0);
        await s.store.clicks.add(counts({ [gone.id]: { '2026-11-21': 3 }, [kept.id]: { '2026-11-21': 1 } }));
        expect(await s.store.clicks.daily(gone.id, '2026-11-01', '2026-11-30')).toEqual([]);
        expect(await s.store.clicks.daily(kept.id, '2026-11-01', '2026-11-30')).toEqual([{ day: '2026-11-21', clicks: 1 }]);
      });

      it('drops the clicks of a link deleted after it had some that day, and adds to the days of the others', async () => {
        const team = await s.team();
        const [gone, kept] = [await s.link(team), await s.link(team)];
        await s.store.clicks.add(counts({ [gone.id]: { '2026-11-21': 3 }, [kept.id]: { '2026-11-21': 1 } }));
        await s.store.links.delete(gone.id, ROOMY, T0);
        await s.store.clicks.add(counts({ [gone.id]: { '2026-11-21': 2 }, [kept.id]: { '2026-11-21': 4, '2026-11-22': 1 } }));
        expect(await s.store.clicks.daily(gone.id, '2026-11-01', '2026-11-30')).toEqual([]);
        expect(sorted(await s.store.clicks.daily(kept.id, '2026-11-01', '2026-11-30'), (d) => d.day)).toEqual([
          { day: '2026-11-21', clicks: 5 },
          { day: '2026-11-22', clicks: 1 },
        ]);
      });
    });

    describe('settings', () => {
      it('starts with the default limits, and merges changes into them', async () => {
        expect(await s.store.settings.limits()).toEqual(DEFAULT_LIMITS);
        expect(await s.store.settings.setLimits({ perHour: 5 })).toEqual({ ...DEFAULT_LIMITS, perHour: 5 });
        expect(await s.store.settings.setLimits({ maxLinksPerTeam: 40 })).toEqual({ ...DEFAULT_LIMITS, perHour: 5, maxLinksPerTeam: 40 });
        expect(await s.store.settings.limits()).toEqual({ ...DEFAULT_LIMITS, perHour: 5, maxLinksPerTeam: 40 });
      });

      it('blocks and unblocks domains, saying whether anything changed', async () => {
        expect([...(await s.store.settings.blockedDomains())]).toEqual([]);
        expect(await s.store.settings.block('bad.example', T0)).toBe(true);
        expect(await s.store.settings.block('bad.example', at(MINUTE))).toBe(false);
        expect(await s.store.settings.block('worse.example', at(MINUTE))).toBe(true);
        expect(sorted(await s.store.settings.blockedDomains())).toEqual(['bad.example', 'worse.example']);
        expect(await s.store.settings.unblock('bad.example')).toBe(true);
        expect(await s.store.settings.unblock('bad.example')).toBe(false);
        expect(sorted(await s.store.settings.blockedDomains())).toEqual(['worse.example']);
      });

      it('keeps a cursor secret of 32 bytes', async () => {
        const secret = await s.store.settings.cursorSecret();
        expect(Buffer.isBuffer(secret)).toBe(true);
        expect(secret).toHaveLength(32);
        expect((await s.store.settings.cursorSecret()).equals(secret)).toBe(true);
      });

      it('keeps the public address the server last started with', async () => {
        expect(await s.store.settings.publicUrl()).toBeNull();
        await s.store.settings.recordPublicUrl('https://links.example.com');
        await s.store.settings.recordPublicUrl('https://links.example.com');
        expect(await s.store.settings.publicUrl()).toBe('https://links.example.com');
        await s.store.settings.recordPublicUrl('https://go.example.com');
        expect(await s.store.settings.publicUrl()).toBe('https://go.example.com');
      });

      it('keeps limits, the blocklist and the cursor secret when the store is opened again', async (ctx) => {
        if (!s.canReopen) ctx.skip();
        await s.store.settings.setLimits({ perDay: 7 });
        await s.store.settings.block('bad.example', T0);
        const secret = await s.store.settings.cursorSecret();
        const store = await s.reopen();
        expect(await store.settings.limits()).toEqual({ ...DEFAULT_LIMITS, perDay: 7 });
        expect(await store.settings.setLimits({ perHour: 3 })).toEqual({ ...DEFAULT_LIMITS, perDay: 7, perHour: 3 });
        expect([...(await store.settings.blockedDomains())]).toEqual(['bad.example']);
        expect((await store.settings.cursorSecret()).equals(secret)).toBe(true);
      });
    });
  });
}
