import { describe, expect, it } from 'vitest';
import { runNow } from '../../src/store/operations/steps.js';
import { topRows, type RankingQueries } from '../../src/store/operations/team-ranking.js';
import type { LinkTotal } from '../../src/store/ports.js';

const DAYS = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);

/** A team's counted clicks per link and day, as click_days holds them, and the queries answered from them. */
function team(clicksOf: (link: number, day: number) => number, links = 1_500) {
  const rows: Array<{ linkId: string; day: string; clicks: number }> = [];
  for (let link = 0; link < links; link++) {
    DAYS.forEach((day, d) => {
      const clicks = clicksOf(link, d);
      if (clicks > 0) rows.push({ linkId: `link_${String(link).padStart(5, '0')}`, day, clicks });
    });
  }
  const asked = { pages: 0, scans: 0 };
  const sum = (from: string, to: string, only?: Set<string>) => {
    const sums = new Map<string, LinkTotal>();
    for (const row of rows) {
      if (row.day < from || row.day > to || (only && !only.has(row.linkId))) continue;
      const found = sums.get(row.linkId) ?? { linkId: row.linkId, clicks: 0, visitors: 0 };
      found.clicks += row.clicks;
      found.visitors += 1;
      sums.set(row.linkId, found);
    }
    return [...sums.values()];
  };
  const ranking = (from: string, to: string) =>
    sum(from, to).sort((a, b) => b.clicks - a.clicks || (a.linkId < b.linkId ? -1 : 1));
  const queries = (from: string, to: string): RankingQueries<LinkTotal> => ({
    bounds(offset, count) {
      asked.pages++;
      return ranking(DAYS[0]!, DAYS.at(-1)!).slice(offset, offset + count).map(({ linkId, clicks }) => ({ key: linkId, clicks }));
    },
    sums: (linkIds) => sum(from, to, new Set(linkIds)),
    total: () => sum(from, to).reduce((n, link) => n + link.clicks, 0),
    scan(limit) {
      asked.scans++;
      const all = ranking(from, to);
      const total = all.reduce((n, link) => n + link.clicks, 0);
      return all.slice(0, limit).map((link) => ({ ...link, all: total }));
    },
  });
  const top = (from: string, to: string, limit: number) => runNow(topRows(limit, (link: LinkTotal) => link.linkId), queries(from, to));
  const expected = (from: string, to: string, limit: number) => {
    const all = ranking(from, to);
    return { rows: all.slice(0, limit), rest: all.slice(limit).reduce((n, link) => n + link.clicks, 0) };
  };
  return { top, asked, expected };
}

describe("a team's top rows, busiest first", () => {
  it('sums only the busiest links when the others cannot reach the last one kept', () => {
    // A few hundred busy links, every one of the others clicked once.
    const { top, asked, expected } = team((link, day) => (link < 300 ? 10 + ((link * 7 + day) % 13) : day === link % 30 ? 1 : 0));
    for (const limit of [1, 99, 100]) {
      asked.pages = asked.scans = 0;
      expect(top(DAYS[0]!, DAYS[29]!, limit)).toEqual(expected(DAYS[0]!, DAYS[29]!, limit));
      expect(asked).toEqual({ pages: 1, scans: 0 });
    }
  });

  it('reads the ranking whole when the busiest of all time are not the busiest in the days', () => {
    // Each day's busiest link is another one, quiet the rest of the month.
    const { top, asked, expected } = team((link, day) => (link % 30 === day ? 1 + (link % 50) : 1));
    expect(top(DAYS[4]!, DAYS[4]!, 99)).toEqual(expected(DAYS[4]!, DAYS[4]!, 99));
    expect(asked).toEqual({ pages: 4, scans: 1 });
  });

  it('answers every link and no rest when the team has fewer links with clicks than asked', () => {
    const { top, asked, expected } = team((link, day) => (link < 40 && day < 3 ? link + 1 : 0));
    const answer = top(DAYS[0]!, DAYS[29]!, 99);
    expect(answer).toEqual(expected(DAYS[0]!, DAYS[29]!, 99));
    expect(answer.rows).toHaveLength(40);
    expect(asked).toEqual({ pages: 1, scans: 0 });
  });

  it('sums the next page when a link there could tie the last one kept and come first by id', () => {
    // Page one: link 1000 (5 clicks in the days, 5 after), 248 links with 6 clicks after the days, link 0 with 5
    // after. Page two starts with link 1, whose 5 clicks are all in the days: it ties link 1000 and comes first.
    const { top, asked, expected } = team((link, day) => {
      if (link === 1000) return day === 0 || day === 20 ? 5 : 0;
      if (link >= 100 && link < 348) return day === 20 ? 6 : 0;
      if (link === 0) return day === 21 ? 5 : 0;
      return link === 1 && day === 1 ? 5 : 0;
    });
    const answer = top(DAYS[0]!, DAYS[9]!, 1);
    expect(answer).toEqual({ rows: [{ linkId: 'link_00001', clicks: 5, visitors: 1 }], rest: 5 });
    expect(answer).toEqual(expected(DAYS[0]!, DAYS[9]!, 1));
    expect(asked).toEqual({ pages: 2, scans: 0 });
  });

  it('keeps ties in id order across the last row kept, and sums everything as the rest for a limit of 0', () => {
    const { top, expected } = team((link, day) => (day < 10 ? 2 : link % 3));
    for (const [from, to] of [[DAYS[0]!, DAYS[29]!], [DAYS[0]!, DAYS[9]!], [DAYS[12]!, DAYS[20]!]] as const) {
      for (const limit of [0, 5, 99]) expect(top(from, to, limit)).toEqual(expected(from, to, limit));
    }
  });
});
