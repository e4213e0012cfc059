import { describe, expect, it } from 'vitest';
import type { ClickFacet, UncountedClass } from '../../../src/domain/analytics.js';
import type { AnalyticsBatch, AnalyticsScope, LinkRecord } from '../../../src/store/ports.js';
import { visitorSketch } from '../../helpers/visitors.js';
import { ROOMY, sorted, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const D1 = '2026-11-20';
const D2 = '2026-11-21';
const D3 = '2026-11-22';

/** `n` counted clicks of a link on a day, each with these facet values (source `link` unless given). */
function clicks(link: LinkRecord, day: string, n: number, values: Partial<Record<ClickFacet, string>> = {}): AnalyticsBatch {
  const traits: Record<ClickFacet, string> = { country: 'FR', referrer: 'direct', device: 'desktop', browser: 'Firefox', os: 'Linux', source: 'link', ...values };
  const facets = Object.entries(traits).map(([facet, value]) => ({ linkId: link.id, day, facet: facet as ClickFacet, value, count: n }));
  return { facets, uncounted: [], visitors: [] };
}

const notCounted = (link: LinkRecord, day: string, kind: UncountedClass, count: number): AnalyticsBatch => ({
  facets: [],
  uncounted: [{ linkId: link.id, day, class: kind, count }],
  visitors: [],
});

/** Visits of a link on a day, each visitor named by a number (the same number, the same visitor). */
const visit = (link: LinkRecord, day: string, ...visitors: number[]): AnalyticsBatch => ({
  facets: [],
  uncounted: [],
  visitors: [{ linkId: link.id, day, sketch: visitorSketch(...visitors) }],
});

/** Several batches as one, as a process flushes what it counted. */
const together = (...batches: AnalyticsBatch[]): AnalyticsBatch => ({
  facets: batches.flatMap((b) => b.facets),
  uncounted: batches.flatMap((b) => b.uncounted),
  visitors: batches.flatMap((b) => b.visitors),
});

export function analytics(open: OpenStore): void {
  describe('click analytics', () => {
    const s = storeUnderTest(open);
    const countries = (scope: AnalyticsScope, limit = 10) => s.store.analytics.byFacet(scope, 'country', D1, D3, limit);

    it('adds counts up across batches, per link, day and value', async () => {
      const team = await s.team();
      const link = await s.link(team);
      await s.store.analytics.add(together(clicks(link, D1, 2), clicks(link, D2, 1, { country: 'DE' })));
      await s.store.analytics.add(clicks(link, D1, 3));
      expect(await countries({ linkId: link.id })).toEqual({ rows: [{ value: 'FR', clicks: 5 }, { value: 'DE', clicks: 1 }], rest: 0 });
      expect(await s.store.analytics.byFacet({ linkId: link.id }, 'country', D2, D2, 10)).toEqual({ rows: [{ value: 'DE', clicks: 1 }], rest: 0 });
      expect(await s.store.analytics.byFacet({ linkId: link.id }, 'browser', D1, D3, 10)).toEqual({ rows: [{ value: 'Firefox', clicks: 6 }], rest: 0 });
    });

    it('skips the counts of a link deleted before they were written, keeping the others', async () => {
      const team = await s.team();
      const [gone, kept] = [await s.link(team), await s.link(team)];
      await s.store.links.delete(gone.id, ROOMY, T0);
      await s.store.analytics.add(together(clicks(gone, D2, 4), notCounted(gone, D2, 'bot', 1), visit(gone, D2, 1), clicks(kept, D2, 1)));
      expect(await countries({ linkId: gone.id })).toEqual({ rows: [], rest: 0 });
      expect(await countries({ teamId: team.id })).toEqual({ rows: [{ value: 'FR', clicks: 1 }], rest: 0 });
      expect(await s.store.analytics.totals({ teamId: team.id }, D1, D3)).toEqual({ clicks: 1, uncounted: {} });
    });

    it('counts a visitor once per link and day, within a batch, across batches and processes', async () => {
      const team = await s.team();
      const [a, b] = [await s.link(team), await s.link(team)];
      await s.store.clicks.add(new Map([[a.id, new Map([[D2, 4]])]]));
      await s.store.analytics.add(together(clicks(a, D2, 4), visit(a, D2, 1, 1, 2), visit(b, D2, 1)));
      await s.store.analytics.add(visit(a, D2, 2, 3));
      expect(await s.store.analytics.byDay({ linkId: a.id }, D1, D3)).toEqual([{ day: D2, clicks: 4, visitors: 3 }]);
      expect(await s.store.analytics.byDay({ linkId: b.id }, D1, D3)).toEqual([{ day: D2, clicks: 0, visitors: 1 }]);
    });

    it("keeps a team's sums equal to the sums of its links", async () => {
      const team = await s.team();
      const other = await s.team();
      const [a, b, elsewhere] = [await s.link(team), await s.link(team), await s.link(other)];
      await s.store.analytics.add(
        together(clicks(a, D1, 2), clicks(b, D1, 3, { country: 'DE' }), clicks(b, D2, 1), clicks(elsewhere, D1, 9, { country: 'US' })),
      );
      await s.store.analytics.add(together(notCounted(a, D1, 'bot', 2), notCounted(b, D2, 'bot', 1), notCounted(b, D2, 'preview', 5), visit(a, D1, 1), visit(b, D1, 1)));
      expect(await countries({ teamId: team.id })).toEqual({ rows: [{ value: 'DE', clicks: 3 }, { value: 'FR', clicks: 3 }], rest: 0 });
      expect(await s.store.analytics.byDay({ teamId: team.id }, D1, D3)).toEqual([
        { day: D1, clicks: 5, visitors: 2 },
        { day: D2, clicks: 1, visitors: 0 },
      ]);
      expect(await s.store.analytics.totals({ teamId: team.id }, D1, D3)).toEqual({ clicks: 6, uncounted: { bot: 3, preview: 5 } });
    });

    it("takes a deleted link's rows away, and its share of its team's sums", async () => {
      const team = await s.team();
      const [gone, kept] = [await s.link(team), await s.link(team)];
      await s.store.clicks.add(new Map([[gone.id, new Map([[D1, 2]])]]));
      await s.store.analytics.add(together(clicks(gone, D1, 2, { country: 'DE' }), clicks(kept, D1, 1), notCounted(gone, D1, 'checker', 4), visit(gone, D1, 1, 2), visit(kept, D1, 3)));
      await s.store.analytics.add(clicks(gone, D2, 1));
      await s.store.links.delete(gone.id, ROOMY, T0);
      expect(await countries({ linkId: gone.id })).toEqual({ rows: [], rest: 0 });
      expect(await s.store.analytics.byDay({ linkId: gone.id }, D1, D3)).toEqual([]);
      expect(await s.store.analytics.totals({ linkId: gone.id }, D1, D3)).toEqual({ clicks: 0, uncounted: {} });
      expect(await countries({ teamId: team.id })).toEqual({ rows: [{ value: 'FR', clicks: 1 }], rest: 0 });
      expect(await s.store.analytics.byDay({ teamId: team.id }, D1, D3)).toEqual([{ day: D1, clicks: 1, visitors: 1 }]);
      expect(await s.store.analytics.totals({ teamId: team.id }, D1, D3)).toEqual({ clicks: 1, uncounted: {} });
      expect(await s.store.analytics.byLink(team.id, D1, D3, 10)).toEqual({ rows: [{ linkId: kept.id, clicks: 1, visitors: 1 }], rest: 0 });
    });

    it('deletes a team with its links, their analytics and its sums', async () => {
      const owner = await s.person();
      const team = await s.team(owner);
      const link = await s.link(team);
      await s.store.analytics.add(together(clicks(link, D1, 2), notCounted(link, D1, 'bot', 1), visit(link, D1, 1)));
      expect(await s.store.teams.delete(team.id, { personId: owner.id })).toEqual({ links: 1 });
      expect(await s.store.analytics.removeBefore(D3)).toBe(0);
    });

    it('ranks values by clicks, ties by value, and sums the rows past the limit as the rest', async () => {
      const team = await s.team();
      const link = await s.link(team);
      const byCountry: Record<string, number> = { FR: 5, DE: 3, AT: 3, US: 1, BE: 1 };
      await s.store.analytics.add(together(...Object.entries(byCountry).map(([country, n]) => clicks(link, D2, n, { country }))));
      for (const scope of [{ linkId: link.id }, { teamId: team.id }]) {
        expect(await countries(scope, 3)).toEqual({ rows: [{ value: 'FR', clicks: 5 }, { value: 'AT', clicks: 3 }, { value: 'DE', clicks: 3 }], rest: 2 });
        expect(await countries(scope, 0)).toEqual({ rows: [], rest: 13 });
        expect((await countries(scope, 5)).rest).toBe(0);
      }
      expect(await s.store.analytics.byFacet({ linkId: link.id }, 'country', D3, D3, 3)).toEqual({ rows: [], rest: 0 });
    });

    it("answers a link's days from its daily counts with the visitors beside them, and a team's from its sums", async () => {
      const team = await s.team();
      const link = await s.link(team);
      // Counted before analytics: in the daily counts only.
      await s.store.clicks.add(new Map([[link.id, new Map([[D1, 7], [D2, 2]])]]));
      await s.store.analytics.add(together(clicks(link, D2, 2), visit(link, D2, 1), visit(link, D3, 2)));
      expect(await s.store.analytics.byDay({ linkId: link.id }, D1, D3)).toEqual([
        { day: D1, clicks: 7, visitors: 0 },
        { day: D2, clicks: 2, visitors: 1 },
        { day: D3, clicks: 0, visitors: 1 },
      ]);
      expect(await s.store.analytics.byDay({ linkId: link.id }, D2, D2)).toEqual([{ day: D2, clicks: 2, visitors: 1 }]);
      expect(await s.store.analytics.byDay({ teamId: team.id }, D1, D2)).toEqual([{ day: D2, clicks: 2, visitors: 1 }]);
      expect(await s.store.analytics.totals({ linkId: link.id }, D1, D3)).toEqual({ clicks: 9, uncounted: {} });
    });

    it("ranks a team's links by clicks in the days, with their visitors, ties by id, the rest summed", async () => {
      const team = await s.team();
      const other = await s.team();
      const links = sorted([await s.link(team), await s.link(team), await s.link(team), await s.link(team)], (l) => l.id);
      const [a, b, c, d] = links as [LinkRecord, LinkRecord, LinkRecord, LinkRecord];
      const elsewhere = await s.link(other);
      await s.store.analytics.add(
        together(clicks(a, D1, 1), clicks(a, D2, 1), clicks(b, D2, 5), clicks(c, D1, 2), clicks(d, D3, 1), clicks(elsewhere, D2, 50), visit(a, D1, 1), visit(a, D2, 1), visit(b, D2, 1, 2)),
      );
      expect(await s.store.analytics.byLink(team.id, D1, D2, 2)).toEqual({
        rows: [{ linkId: b.id, clicks: 5, visitors: 2 }, { linkId: a.id, clicks: 2, visitors: 2 }],
        rest: 2,
      });
      expect(await s.store.analytics.byLink(team.id, D1, D3, 10)).toEqual({
        rows: [
          { linkId: b.id, clicks: 5, visitors: 2 },
          { linkId: a.id, clicks: 2, visitors: 2 },
          { linkId: c.id, clicks: 2, visitors: 0 },
          { linkId: d.id, clicks: 1, visitors: 0 },
        ],
        rest: 0,
      });
    });

    it("lists a team's daily counts per link and day with their visitors, by day then link", async () => {
      const team = await s.team();
      const other = await s.team();
      const [a, b] = sorted([await s.link(team), await s.link(team)], (l) => l.id) as [LinkRecord, LinkRecord];
      const elsewhere = await s.link(other);
      await s.store.clicks.add(new Map([[a.id, new Map([[D1, 1], [D2, 3]])], [b.id, new Map([[D2, 2], [D3, 9]])], [elsewhere.id, new Map([[D2, 5]])]]));
      await s.store.analytics.add(together(visit(a, D2, 1, 2), visit(b, D2, 1)));
      expect(await s.store.analytics.dailyByLink(team.id, D1, D2)).toEqual([
        { linkId: a.id, day: D1, clicks: 1, visitors: 0 },
        { linkId: a.id, day: D2, clicks: 3, visitors: 2 },
        { linkId: b.id, day: D2, clicks: 2, visitors: 1 },
      ]);
    });

    it('totals the counted clicks and each not-counted class, leaving out classes without any', async () => {
      const team = await s.team();
      const link = await s.link(team);
      await s.store.clicks.add(new Map([[link.id, new Map([[D1, 3], [D3, 1]])]]));
      await s.store.analytics.add(together(notCounted(link, D1, 'bot', 2), notCounted(link, D2, 'bot', 1), notCounted(link, D2, 'assistant', 4)));
      await s.store.analytics.add(notCounted(link, D3, 'checker', 1));
      expect(await s.store.analytics.totals({ linkId: link.id }, D1, D2)).toEqual({ clicks: 3, uncounted: { bot: 3, assistant: 4 } });
      expect(await s.store.analytics.totals({ teamId: team.id }, D1, D3)).toEqual({ clicks: 0, uncounted: { bot: 3, assistant: 4, checker: 1 } });
    });

    it('keeps one visitor key per day for every caller, and forgets the keys and marks of days before the day before', async () => {
      const team = await s.team();
      const link = await s.link(team);
      const first = await s.store.analytics.visitorKey(D1);
      expect(first).toHaveLength(32);
      expect(Buffer.from(await s.store.analytics.visitorKey(D1))).toEqual(Buffer.from(first));
      await s.store.analytics.add(visit(link, D1, 1));
      const second = await s.store.analytics.visitorKey(D2);
      expect(Buffer.from(second)).not.toEqual(Buffer.from(first));
      // The next day's key leaves the day's key and mark: its last clicks, written late, meet them.
      await s.store.analytics.add(visit(link, D1, 1));
      expect(await s.store.analytics.byDay({ linkId: link.id }, D1, D1)).toEqual([{ day: D1, clicks: 0, visitors: 1 }]);
      expect(Buffer.from(await s.store.analytics.visitorKey(D1))).toEqual(Buffer.from(first));
      // The day after's key forgets them: the same mark on that day counts again, and the key is made afresh.
      await s.store.analytics.visitorKey(D3);
      await s.store.analytics.add(visit(link, D1, 1));
      expect(await s.store.analytics.byDay({ linkId: link.id }, D1, D1)).toEqual([{ day: D1, clicks: 0, visitors: 2 }]);
      expect(Buffer.from(await s.store.analytics.visitorKey(D2))).toEqual(Buffer.from(second));
      expect(Buffer.from(await s.store.analytics.visitorKey(D1))).not.toEqual(Buffer.from(first));
    });

    it('removes every daily count of days before the given one, the daily clicks and team sums included', async () => {
      const team = await s.team();
      const link = await s.link(team);
      await s.store.clicks.add(new Map([[link.id, new Map([[D1, 2], [D2, 3]])]]));
      await s.store.analytics.add(
        together(clicks(link, D1, 2), clicks(link, D2, 3), notCounted(link, D1, 'bot', 1), notCounted(link, D2, 'bot', 2), visit(link, D1, 1), visit(link, D2, 1)),
      );
      // D1: clicks, 6 facets, uncounted, click day; the team's 6 facets, uncounted and day. D2 stays.
      expect(await s.store.analytics.removeBefore(D2)).toBe(1 + 6 + 1 + 1 + 6 + 1 + 1);
      for (const scope of [{ linkId: link.id }, { teamId: team.id }]) {
        expect(await s.store.analytics.byDay(scope, D1, D3)).toEqual([{ day: D2, clicks: 3, visitors: 1 }]);
        expect(await s.store.analytics.totals(scope, D1, D3)).toEqual({ clicks: 3, uncounted: { bot: 2 } });
        expect(await countries(scope)).toEqual({ rows: [{ value: 'FR', clicks: 3 }], rest: 0 });
      }
      expect(await s.store.clicks.daily(link.id, D1, D3)).toEqual([{ day: D2, clicks: 3 }]);
      expect(await s.store.analytics.byLink(team.id, D1, D3, 10)).toEqual({ rows: [{ linkId: link.id, clicks: 3, visitors: 1 }], rest: 0 });
      expect(await s.store.analytics.removeBefore(D2)).toBe(0);
    });

    it('removes more rows than one batch deletes, all of them', async () => {
      const team = await s.team();
      const link = await s.link(team);
      const referrers = Array.from({ length: 2_500 }, (_, i) => clicks(link, D1, 1, { referrer: `site${i}.example` }));
      await s.store.analytics.add(together(...referrers));
      // 2,500 referrers of the link and the team's, 5 other facets each, the link's and the team's day.
      expect(await s.store.analytics.removeBefore(D2)).toBe(2 * (2_500 + 5) + 2);
      expect(await s.store.analytics.byFacet({ teamId: team.id }, 'referrer', D1, D3, 10)).toEqual({ rows: [], rest: 0 });
    });
  });
}
