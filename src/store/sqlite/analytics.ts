import type { AnalyticsStore, LinkTotal, ValueTotal } from '../ports.js';
import type { ClickFacet } from '../../domain/analytics.js';
import type { Random } from '../../domain/random.js';
import { byLinkDay, ranked, Sums } from '../analytics-batch.js';
import { analyticsSql, DAILY_TABLES, REMOVAL_BATCH, removalSql } from '../sql/analytics.js';
import { runNow } from '../operations/steps.js';
import { topRows } from '../operations/team-ranking.js';
import { writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';

/**
 * Adds rows to `table` in one statement: the rows are bound as one JSON array of arrays (`columns` in order, the
 * key's first) and SQLite walks it, so a batch costs one call into the driver per table rather than one per row,
 * which made a flush over many links cost several times the redirects it counted. On a key already there, `added`
 * are added.
 */
function upsertAll(db: Db, table: string, columns: string[], key: string[], added: string[]): (rows: Array<Array<string | number>>) => void {
  const statement = db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${columns.map((_, i) => `value->>${i}`).join(', ')} FROM json_each(?) WHERE true
     ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${added.map((column) => `${column} = ${column} + excluded.${column}`).join(', ')}`,
  );
  return (rows) => {
    if (rows.length > 0) statement.run(JSON.stringify(rows));
  };
}

/** Gives the event loop back between the retention job's transactions: a million rows must not hold a request. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function sqliteAnalytics(db: Db, random: Random): AnalyticsStore {
  const s = prepareAll(db, analyticsSql);
  const removal = prepareAll(db, removalSql);
  // The batch's links still there, with their teams: the counts of a link deleted since go with it.
  const live = db.prepare('SELECT id, team_id AS teamId FROM links WHERE id IN (SELECT value FROM json_each(?))');
  // The marks not stored yet, each a new visitor of its link that day (marks bound as hex).
  const marks = db.prepare(
    `INSERT INTO visitor_marks (day, link_id, mark) SELECT value->>0, value->>1, unhex(value->>2) FROM json_each(?) WHERE true
     ON CONFLICT DO NOTHING RETURNING link_id AS linkId, day`,
  );
  const days = upsertAll(db, 'click_days', ['link_id', 'day', 'team_id', 'clicks', 'visitors'], ['link_id', 'day'], ['clicks', 'visitors']);
  const bounds = upsertAll(db, 'click_links', ['link_id', 'team_id', 'clicks'], ['link_id'], ['clicks']);
  const facets = upsertAll(db, 'click_facets', ['link_id', 'facet', 'day', 'value', 'count'], ['link_id', 'facet', 'day', 'value'], ['count']);
  const uncounted = upsertAll(db, 'click_uncounted', ['link_id', 'day', 'class', 'count'], ['link_id', 'day', 'class'], ['count']);
  const teamDays = upsertAll(db, 'team_click_days', ['team_id', 'day', 'clicks', 'visitors'], ['team_id', 'day'], ['clicks', 'visitors']);
  const teamFacets = upsertAll(db, 'team_click_facets', ['team_id', 'facet', 'day', 'value', 'count'], ['team_id', 'facet', 'day', 'value'], ['count']);
  const teamValues = upsertAll(db, 'team_click_values', ['team_id', 'facet', 'value', 'count'], ['team_id', 'facet', 'value'], ['count']);
  const teamUncounted = upsertAll(db, 'team_click_uncounted', ['team_id', 'day', 'class', 'count'], ['team_id', 'day', 'class'], ['count']);

  const add = writeTransaction(db, (batch: Parameters<AnalyticsStore['add']>[0]) => {
    const linkDays = byLinkDay(batch);
    const ids = [...new Set(linkDays.map((linkDay) => linkDay.linkId))];
    const teamOf = new Map((live.all(JSON.stringify(ids)) as Array<{ id: string; teamId: string }>).map((link) => [link.id, link.teamId]));
    const kept = linkDays.filter((linkDay) => teamOf.has(linkDay.linkId));
    const visitors = new Sums(2);
    const toMark = kept.flatMap(({ linkId, day, marks: made }) => made.map((mark) => [day, linkId, Buffer.from(mark).toString('hex')]));
    if (toMark.length > 0) for (const { linkId, day } of marks.all(JSON.stringify(toMark)) as Array<{ linkId: string; day: string }>) visitors.add(linkId, day, 1);
    const newVisitors = new Map(visitors.rows().map(([linkId, day, n]) => [`${linkId} ${day}`, n as number]));
    // A link's rows as they come (SQLite adds to a key met twice in one statement); a team's summed over the batch
    // first, as its links add to the same few rows.
    type Rows = Array<Array<string | number>>;
    const [dayRows, boundRows, facetRows, uncountedRows]: [Rows, Rows, Rows, Rows] = [[], [], [], []];
    const [teamDayRows, teamFacetRows, teamValueRows, teamUncountedRows] = [new Sums(2), new Sums(4), new Sums(3), new Sums(3)];
    for (const { linkId, day, clicks, facets: counts, uncounted: classes } of kept) {
      const teamId = teamOf.get(linkId)!;
      const fresh = newVisitors.get(`${linkId} ${day}`) ?? 0;
      if (clicks > 0 || fresh > 0) {
        dayRows.push([linkId, day, teamId, clicks, fresh]);
        teamDayRows.add(teamId, day, clicks, fresh);
        if (clicks > 0) boundRows.push([linkId, teamId, clicks]);
      }
      for (const { facet, value, count } of counts) {
        facetRows.push([linkId, facet, day, value, count]);
        teamFacetRows.add(teamId, facet, day, value, count);
        teamValueRows.add(teamId, facet, value, count);
      }
      for (const { class: kind, count } of classes) {
        uncountedRows.push([linkId, day, kind, count]);
        teamUncountedRows.add(teamId, day, kind, count);
      }
    }
    days(dayRows);
    bounds(boundRows);
    facets(facetRows);
    uncounted(uncountedRows);
    teamDays(teamDayRows.rows());
    teamFacets(teamFacetRows.rows());
    teamValues(teamValueRows.rows());
    teamUncounted(teamUncountedRows.rows());
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
