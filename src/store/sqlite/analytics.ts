import { withUnwritten, type AnalyticsBatch, type AnalyticsStore, type LinkTotal, type ValueTotal } from '../ports.js';
import type { ClickFacet } from '../../domain/analytics.js';
import type { Random } from '../../domain/random.js';
import { dayBefore } from '../../domain/days.js';
import { additionRows, batchOf, byLinkDay, mergeSketches, ranked, type LinkDay } from '../analytics-batch.js';
import { additionSql, analyticsSql, batchSql, DAILY_TABLES, REMOVAL_BATCH, removalSql, type AdditionTable } from '../sql/analytics.js';
import { runNow } from '../operations/steps.js';
import { topRows } from '../operations/team-ranking.js';
import { writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';
import { nextTurn } from '../../support/next-turn.js';
import { WRITE_SLICE_MS } from './write-slices.js';

/**
 * Link days a write adds between two looks at the clock: the first step's, then as many as the time they took says
 * fit in what is left of the slice, up to the most. Each step costs nine statements whatever its size, so fewer,
 * fuller steps cost less: fixed steps of 8 made a write over 5,000 links 1.4 times as costly as steps of 32.
 */
const FIRST_STEP = 8;
const MOST_A_STEP = 64;

export function sqliteAnalytics(db: Db, random: Random): AnalyticsStore {
  const s = prepareAll(db, analyticsSql);
  const removal = prepareAll(db, removalSql);
  const batch = prepareAll(db, batchSql);
  const additions = prepareAll(db, additionSql);

  /** Adds some link days of a batch: its live links' rows, their sketches merged, their teams' sums. */
  const addLinkDays = (linkDays: readonly LinkDay[]) => {
    const ids = [...new Set(linkDays.map((linkDay) => linkDay.linkId))];
    const teamOf = new Map(batch.liveLinks.all({ ids: JSON.stringify(ids) }).map((link) => [link.id, link.teamId]));
    const kept = linkDays.filter((linkDay) => teamOf.has(linkDay.linkId));
    const visited = kept.filter((linkDay) => linkDay.visitors);
    const stored = visited.length === 0 ? [] : batch.storedSketches.all({ rows: JSON.stringify(visited.map(({ day, linkId }) => [day, linkId])) });
    const { merged, gained } = mergeSketches(visited, stored);
    if (merged.length > 0) {
      batch.writeSketches.run({ rows: JSON.stringify(merged.map(({ day, linkId, sketch }) => [day, linkId, Buffer.from(sketch).toString('hex')])) });
    }
    const rows = additionRows(kept, teamOf, gained);
    for (const table of Object.keys(rows) as AdditionTable[]) {
      if (rows[table].length > 0) additions[table].run({ rows: JSON.stringify(rows[table]) });
    }
  };
  /** What a link day took in the latest step, for the size of the next (kept from one slice and write to the next). */
  let msPerLinkDay: number | undefined;
  /** One transaction of a write: link days from `from` until WRITE_SLICE_MS have passed; answers where it stopped. */
  const addSlice = writeTransaction(db, (linkDays: readonly LinkDay[], from: number): number => {
    const started = performance.now();
    let at = from;
    let elapsed = 0;
    do {
      const left = WRITE_SLICE_MS - elapsed;
      const step = msPerLinkDay === undefined ? FIRST_STEP : Math.max(1, Math.min(MOST_A_STEP, Math.floor(left / msPerLinkDay)));
      const stepStarted = performance.now();
      addLinkDays(linkDays.slice(at, at + step));
      const now = performance.now();
      msPerLinkDay = (now - stepStarted) / Math.min(step, linkDays.length - at);
      at += step;
      elapsed = now - started;
    } while (at < linkDays.length && elapsed < WRITE_SLICE_MS);
    return at;
  });
  /**
   * A batch in slices of a few milliseconds, the event loop given back between them: a write of ten seconds of clicks
   * over thousands of links took over a second in one transaction, and every redirect waited for it.
   */
  async function add(counted: AnalyticsBatch): Promise<void> {
    const linkDays = byLinkDay(counted);
    for (let at = 0; at < linkDays.length; ) {
      // Also before the first slice: grouping the batch by link day took tens of milliseconds on its own.
      await nextTurn();
      try {
        at = addSlice(linkDays, at);
      } catch (error) {
        throw at === 0 ? error : withUnwritten(error, batchOf(linkDays.slice(at)));
      }
    }
  }

  // Each read in one snapshot: a batch committed between two pages must not move a row past the pages read.
  const byLink = db.transaction((teamId: string, from: string, to: string, limit: number) =>
    runNow(topRows(limit, (link: LinkTotal) => link.linkId), {
      bounds: (offset, count) => s.linkBounds.all({ teamId, offset, count }),
      sums: (ids) => s.linkSums.all({ ids: JSON.stringify(ids), from, to }),
      total: () => s.teamClicks.get({ teamId, from, to })!.clicks,
      scan: (limit) => s.teamLinks.all({ teamId, from, to, limit }),
    }),
  );
  const byTeamFacet = db.transaction((teamId: string, facet: ClickFacet, from: string, to: string, limit: number) =>
    runNow(topRows(limit, (row: ValueTotal) => row.value), {
      bounds: (offset, count) => s.valueBounds.all({ teamId, facet, offset, count }),
      sums: (values) => s.valueSums.all({ teamId, facet, values: JSON.stringify(values), from, to }),
      total: () => s.teamClicks.get({ teamId, from, to })!.clicks,
      scan: (limit) => s.teamFacet.all({ teamId, facet, from, to, limit }),
    }),
  );

  const newKey = writeTransaction(db, (day: string, key: Buffer) => {
    s.newVisitorKey.run({ day, key });
    // Another process may have made it first: theirs is the day's key.
    return s.visitorKey.get({ day })!.key;
  });
  const forgetKeys = writeTransaction(db, (day: string) => s.forgetKeys.run({ day }).changes);
  const forgetSketches = writeTransaction(db, (day: string) => s.forgetSketches.run({ day, limit: REMOVAL_BATCH }).changes);
  const remove = writeTransaction(db, (table: keyof typeof DAILY_TABLES, before: string) => {
    return removal[table].run({ before, limit: REMOVAL_BATCH }).changes;
  });
  // Rows whose counts leave a bound with them (team-ranking.ts).
  const removeDays = writeTransaction(db, (before: string) => {
    const gone = s.removeDays.all({ before, limit: REMOVAL_BATCH });
    for (const row of gone) s.lowerBound.run(row);
    return gone.length;
  });
  const removeTeamFacets = writeTransaction(db, (before: string) => {
    const gone = s.removeTeamFacets.all({ before, limit: REMOVAL_BATCH });
    for (const row of gone) s.lowerValueBound.run(row);
    return gone.length;
  });

  return {
    add,
    byFacet: async (scope, facet, from, to, limit) =>
      'linkId' in scope
        ? ranked(s.linkFacet.all({ linkId: scope.linkId, facet, from, to, limit: Math.max(limit, 1) }), limit)
        : byTeamFacet(scope.teamId, facet, from, to, limit),
    byDay: async (scope, from, to) =>
      'linkId' in scope ? s.linkDays.all({ linkId: scope.linkId, from, to }) : s.teamDays.all({ teamId: scope.teamId, from, to }),
    byLink: async (teamId, from, to, limit) => byLink(teamId, from, to, limit),
    dailyByLink: async (teamId, from, to) => s.teamDailyByLink.all({ teamId, from, to }),
    async totals(scope, from, to) {
      const [clicks, classes] =
        'linkId' in scope
          ? [s.linkClicks.get({ linkId: scope.linkId, from, to })!, s.linkUncounted.all({ linkId: scope.linkId, from, to })]
          : [s.teamClicks.get({ teamId: scope.teamId, from, to })!, s.teamUncounted.all({ teamId: scope.teamId, from, to })];
      return { clicks: clicks.clicks, uncounted: Object.fromEntries(classes.map((row) => [row.class, row.count])) };
    },
    async visitorKey(day) {
      const key = s.visitorKey.get({ day })?.key ?? newKey(day, random.bytes(32));
      const before = dayBefore(day);
      if (s.earlierVisitors.get({ day: before })) {
        forgetKeys(before);
        await inBatches(() => forgetSketches(before));
      }
      return key;
    },
    async removeBefore(before) {
      let deleted = (await inBatches(() => removeDays(before))) + (await inBatches(() => removeTeamFacets(before)));
      for (const table of Object.keys(DAILY_TABLES) as Array<keyof typeof DAILY_TABLES>) {
        deleted += await inBatches(() => remove(table, before));
      }
      return deleted;
    },
  };
}

/** Runs one batch of a deletion after another, each its own transaction, until one deletes less than a batch. */
async function inBatches(deleteOne: () => number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = deleteOne();
    deleted += n;
    if (n < REMOVAL_BATCH) return deleted;
    await nextTurn();
  }
}
