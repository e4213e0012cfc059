import type { AnalyticsStore, LinkTotal, ValueTotal } from '../ports.js';
import type { ClickFacet } from '../../domain/analytics.js';
import type { Random } from '../../domain/random.js';
import { byLinkDay, ranked } from '../analytics-batch.js';
import { analyticsSql, DAILY_TABLES, REMOVAL_BATCH, removalSql } from '../sql/analytics.js';
import { runNow } from '../operations/steps.js';
import { topRows } from '../operations/team-ranking.js';
import { writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';

/** An addition as SQLite does it fastest: added to the row when there is one (the common case), inserted when not. */
function upsert(db: Db, update: string, insert: string) {
  const [bump, add] = [db.prepare(update), db.prepare(insert)];
  return (row: object) => {
    if (bump.run(row).changes === 0) add.run(row);
  };
}

/** Gives the event loop back between the retention job's transactions: a million rows must not hold a request. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function sqliteAnalytics(db: Db, random: Random): AnalyticsStore {
  const s = prepareAll(db, analyticsSql);
  const removal = prepareAll(db, removalSql);
  // The link's team, and that it is still there: its row of the day when it has one (it goes with the link), else
  // the link's own.
  const teamOfDay = db.prepare('SELECT team_id FROM click_days WHERE link_id = ? AND day = ?').pluck();
  const teamOfLink = db.prepare('SELECT team_id FROM links WHERE id = ?').pluck();
  const mark = db.prepare('INSERT INTO visitor_marks (day, link_id, mark) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const days = upsert(
    db,
    'UPDATE click_days SET clicks = clicks + @clicks, visitors = visitors + @visitors WHERE link_id = @linkId AND day = @day',
    'INSERT INTO click_days (link_id, day, team_id, clicks, visitors) VALUES (@linkId, @day, @teamId, @clicks, @visitors)',
  );
  const bounds = upsert(
    db,
    'UPDATE click_links SET clicks = clicks + @clicks WHERE link_id = @linkId',
    'INSERT INTO click_links (link_id, team_id, clicks) VALUES (@linkId, @teamId, @clicks)',
  );
  const teamDays = upsert(
    db,
    'UPDATE team_click_days SET clicks = clicks + @clicks, visitors = visitors + @visitors WHERE team_id = @teamId AND day = @day',
    'INSERT INTO team_click_days (team_id, day, clicks, visitors) VALUES (@teamId, @day, @clicks, @visitors)',
  );
  const facets = upsert(
    db,
    'UPDATE click_facets SET count = count + @count WHERE link_id = @linkId AND facet = @facet AND day = @day AND value = @value',
    'INSERT INTO click_facets (link_id, facet, day, value, count) VALUES (@linkId, @facet, @day, @value, @count)',
  );
  const teamFacets = upsert(
    db,
    'UPDATE team_click_facets SET count = count + @count WHERE team_id = @teamId AND facet = @facet AND day = @day AND value = @value',
    'INSERT INTO team_click_facets (team_id, facet, day, value, count) VALUES (@teamId, @facet, @day, @value, @count)',
  );
  const teamValues = upsert(
    db,
    'UPDATE team_click_values SET count = count + @count WHERE team_id = @teamId AND facet = @facet AND value = @value',
    'INSERT INTO team_click_values (team_id, facet, value, count) VALUES (@teamId, @facet, @value, @count)',
  );
  const uncounted = upsert(
    db,
    'UPDATE click_uncounted SET count = count + @count WHERE link_id = @linkId AND day = @day AND class = @class',
    'INSERT INTO click_uncounted (link_id, day, class, count) VALUES (@linkId, @day, @class, @count)',
  );
  const teamUncounted = upsert(
    db,
    'UPDATE team_click_uncounted SET count = count + @count WHERE team_id = @teamId AND day = @day AND class = @class',
    'INSERT INTO team_click_uncounted (team_id, day, class, count) VALUES (@teamId, @day, @class, @count)',
  );

  const add = writeTransaction(db, (batch: Parameters<AnalyticsStore['add']>[0]) => {
    for (const linkDay of byLinkDay(batch)) {
      const { linkId, day, clicks } = linkDay;
      const teamId = (teamOfDay.get(linkId, day) ?? teamOfLink.get(linkId)) as string | undefined;
      // A link deleted since: its counts go with it.
      if (teamId === undefined) continue;
      let visitors = 0;
      for (const one of linkDay.marks) visitors += mark.run(day, linkId, Buffer.from(one.buffer, one.byteOffset, one.byteLength)).changes;
      if (clicks > 0 || visitors > 0) {
        days({ linkId, day, teamId, clicks, visitors });
        teamDays({ teamId, day, clicks, visitors });
        if (clicks > 0) bounds({ linkId, teamId, clicks });
      }
      for (const { facet, value, count } of linkDay.facets) {
        facets({ linkId, facet, day, value, count });
        teamFacets({ teamId, facet, day, value, count });
        teamValues({ teamId, facet, value, count });
      }
      for (const { class: kind, count } of linkDay.uncounted) {
        uncounted({ linkId, day, class: kind, count });
        teamUncounted({ teamId, day, class: kind, count });
      }
    }
  });

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
  const forgetMarks = writeTransaction(db, (day: string) => s.forgetMarks.run({ day, limit: REMOVAL_BATCH }).changes);
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
    add: async (batch) => add(batch),
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
      if (s.earlierVisitors.get({ day })) {
        forgetKeys(day);
        await inBatches(() => forgetMarks(day));
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
    await turn();
  }
}
