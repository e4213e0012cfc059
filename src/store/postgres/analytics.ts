import type { AnalyticsStore, LinkTotal, Ranked, ValueTotal } from '../ports.js';
import type { Random } from '../../domain/random.js';
import { dayBefore } from '../../domain/days.js';
import { additionRows, byLinkDay, mergeSketches, ranked, Sums } from '../analytics-batch.js';
import { additionColumns, additionSql, analyticsSql, batchSql, REMOVAL_BATCH, removalSql, type AdditionTable } from '../sql/analytics.js';
import { runAwaiting } from '../operations/steps.js';
import { topRows } from '../operations/team-ranking.js';
import type { PgPool } from './database.js';
import { changed, row, rows, run, transaction, type Queryable } from './query.js';

/** The counts of the days the retention job deleted, out of their bounds (one row per bound: summed). */
const LOWER_BOUNDS = `UPDATE click_links SET clicks = click_links.clicks - v.clicks
  FROM unnest($1::text[], $2::bigint[]) AS v(link_id, clicks) WHERE click_links.link_id = v.link_id`;
const LOWER_VALUE_BOUNDS = `UPDATE team_click_values SET count = team_click_values.count - v.count
  FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS v(team_id, facet, value, count)
  WHERE team_click_values.team_id = v.team_id AND team_click_values.facet = v.facet AND team_click_values.value = v.value`;

/**
 * A row for each sketch a batch merges into, empty where there was none, so that reading them can lock them: another
 * process merging into the same link's day waits for this one's write instead of overwriting it (SQLite needs none:
 * its write transaction holds the file).
 */
const CLAIM_SKETCHES = `INSERT INTO visitor_sketches (day, link_id, sketch)
  SELECT day, link_id, ''::bytea FROM unnest($1::text[], $2::text[]) AS k(day, link_id) ORDER BY 1, 2
  ON CONFLICT DO NOTHING`;

export function pgAnalytics(pool: PgPool, random: Random): AnalyticsStore {
  /** A ranking read in one snapshot: a batch committed between two pages must not move a row past the pages read. */
  const inSnapshot = <Row extends { clicks: number }>(read: (client: Queryable) => Promise<Ranked<Row>>) =>
    transaction(pool, async (client) => {
      await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      return read(client);
    });

  /** Deletes in batches, each its own transaction, until one deletes less than a batch. */
  async function inBatches(deleteOne: () => Promise<number>): Promise<number> {
    let deleted = 0;
    for (let n = REMOVAL_BATCH; n === REMOVAL_BATCH; deleted += n) n = await deleteOne();
    return deleted;
  }

  return {
    async add(batch) {
      const linkDays = byLinkDay(batch);
      if (linkDays.length === 0) return;
      // A transaction for its retry: a deadlock with a process deleting links is run again, not lost.
      await transaction(pool, async (client) => {
        const ids = [...new Set(linkDays.map((linkDay) => linkDay.linkId))];
        const live = await rows(client, batchSql.liveLinks, { ids });
        const teamOf = new Map(live.map((link) => [link.id, link.teamId]));
        const kept = linkDays.filter((linkDay) => teamOf.has(linkDay.linkId));

        const visited = kept.filter((linkDay) => linkDay.visitors);
        const keys = { day: visited.map((one) => one.day), link_id: visited.map((one) => one.linkId) };
        if (visited.length > 0) await client.query(CLAIM_SKETCHES, [keys.day, keys.link_id]);
        const stored = visited.length === 0 ? [] : await rows(client, batchSql.storedSketches, keys);
        const { merged, gained } = mergeSketches(visited, stored);
        if (merged.length > 0) {
          await run(client, batchSql.writeSketches, {
            day: merged.map((one) => one.day),
            link_id: merged.map((one) => one.linkId),
            sketch: merged.map((one) => Buffer.from(one.sketch)),
          });
        }
        const added = additionRows(kept, teamOf, gained);
        for (const table of Object.keys(added) as AdditionTable[]) {
          const tableRows = added[table];
          if (tableRows.length === 0) continue;
          const params = Object.fromEntries(additionColumns(table).map((column, i) => [column, tableRows.map((one) => one[i])]));
          await run(client, additionSql[table], params);
        }
      });
    },
    byFacet: async (scope, facet, from, to, limit) =>
      'linkId' in scope
        ? ranked(await rows(pool, analyticsSql.linkFacet, { linkId: scope.linkId, facet, from, to, limit: Math.max(limit, 1) }), limit)
        : inSnapshot((client) =>
            runAwaiting(topRows(limit, (row: ValueTotal) => row.value), {
              bounds: (offset, count) => rows(client, analyticsSql.valueBounds, { teamId: scope.teamId, facet, offset, count }),
              sums: (values) => rows(client, analyticsSql.valueSums, { teamId: scope.teamId, facet, values, from, to }),
              total: async () => (await row(client, analyticsSql.teamClicks, { teamId: scope.teamId, from, to }))!.clicks,
              scan: (limit) => rows(client, analyticsSql.teamFacet, { teamId: scope.teamId, facet, from, to, limit }),
            }),
          ),
    byDay: (scope, from, to) =>
      'linkId' in scope
        ? rows(pool, analyticsSql.linkDays, { linkId: scope.linkId, from, to })
        : rows(pool, analyticsSql.teamDays, { teamId: scope.teamId, from, to }),
    byLink: (teamId, from, to, limit) =>
      inSnapshot((client) =>
        runAwaiting(topRows(limit, (link: LinkTotal) => link.linkId), {
          bounds: (offset, count) => rows(client, analyticsSql.linkBounds, { teamId, offset, count }),
          sums: (ids) => rows(client, analyticsSql.linkSums, { ids, from, to }),
          total: async () => (await row(client, analyticsSql.teamClicks, { teamId, from, to }))!.clicks,
          scan: (limit) => rows(client, analyticsSql.teamLinks, { teamId, from, to, limit }),
        }),
      ),
    dailyByLink: (teamId, from, to) => rows(pool, analyticsSql.teamDailyByLink, { teamId, from, to }),
    async totals(scope, from, to) {
      const [clicks, classes] =
        'linkId' in scope
          ? await Promise.all([
              row(pool, analyticsSql.linkClicks, { linkId: scope.linkId, from, to }),
              rows(pool, analyticsSql.linkUncounted, { linkId: scope.linkId, from, to }),
            ])
          : await Promise.all([
              row(pool, analyticsSql.teamClicks, { teamId: scope.teamId, from, to }),
              rows(pool, analyticsSql.teamUncounted, { teamId: scope.teamId, from, to }),
            ]);
      return { clicks: clicks!.clicks, uncounted: Object.fromEntries(classes.map((one) => [one.class, one.count])) };
    },
    async visitorKey(day) {
      let found = await row(pool, analyticsSql.visitorKey, { day });
      if (!found) {
        // Another process may make it at the same moment: whichever insert lands first is the day's key.
        await run(pool, analyticsSql.newVisitorKey, { day, key: random.bytes(32) });
        found = (await row(pool, analyticsSql.visitorKey, { day }))!;
      }
      const before = dayBefore(day);
      if (await row(pool, analyticsSql.earlierVisitors, { day: before })) {
        await run(pool, analyticsSql.forgetKeys, { day: before });
        await inBatches(() => changed(pool, analyticsSql.forgetSketches, { day: before, limit: REMOVAL_BATCH }));
      }
      return found.key;
    },
    async removeBefore(before) {
      let deleted = await inBatches(() =>
        transaction(pool, async (client) => {
          const gone = await rows(client, analyticsSql.removeDays, { before, limit: REMOVAL_BATCH });
          const bounds = new Sums(1);
          for (const { linkId, clicks } of gone) bounds.add(linkId, clicks);
          if (!bounds.empty) await client.query(LOWER_BOUNDS, bounds.columns());
          return gone.length;
        }),
      );
      deleted += await inBatches(() =>
        transaction(pool, async (client) => {
          const gone = await rows(client, analyticsSql.removeTeamFacets, { before, limit: REMOVAL_BATCH });
          const bounds = new Sums(3);
          for (const { teamId, facet, value, count } of gone) bounds.add(teamId, facet, value, count);
          if (!bounds.empty) await client.query(LOWER_VALUE_BOUNDS, bounds.columns());
          return gone.length;
        }),
      );
      for (const statement of Object.values(removalSql)) {
        deleted += await inBatches(() => changed(pool, statement, { before, limit: REMOVAL_BATCH }));
      }
      return deleted;
    },
  };
}

