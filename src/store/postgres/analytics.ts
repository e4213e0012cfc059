import type { AnalyticsStore, LinkTotal, Ranked, ValueTotal } from '../ports.js';
import type { Random } from '../../domain/random.js';
import { byLinkDay, ranked, Sums } from '../analytics-batch.js';
import { analyticsSql, REMOVAL_BATCH, removalSql } from '../sql/analytics.js';
import { runAwaiting } from '../operations/steps.js';
import { topRows } from '../operations/team-ranking.js';
import type { PgPool } from './database.js';
import { changed, row, rows, run, transaction, type Queryable } from './query.js';

/**
 * The links of a batch still there, with their teams, locked against deletion (FOR KEY SHARE) until the batch
 * commits, in id order: a link deleted by another process at the same moment either goes first (and its counts are
 * dropped) or waits for the batch, and never makes it fail on a foreign key (as clicks.ts).
 */
const LIVE = `SELECT id, team_id AS "teamId" FROM links WHERE id = ANY($1::text[]) ORDER BY id COLLATE "C" FOR KEY SHARE`;

/** The marks not stored yet, each a new visitor of its link that day. */
const MARK = `INSERT INTO visitor_marks (day, link_id, mark)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[]) ORDER BY 1, 2, 3
  ON CONFLICT DO NOTHING RETURNING link_id AS "linkId", day`;

/**
 * Adds rows to `table` from one array per column (`columns`: each name and its type, the key's first), in key order,
 * so that two processes' batches lock the rows they share in one order; on a key already there, `added` are added.
 */
function upsert(table: string, columns: Record<string, string>, key: string[], added: string[]): string {
  const names = Object.keys(columns);
  const params = Object.values(columns).map((type, i) => `$${i + 1}::${type}[]`);
  return `INSERT INTO ${table} (${names.join(', ')})
    SELECT * FROM unnest(${params.join(', ')}) AS v(${names.join(', ')})
    ORDER BY ${key.map((column) => `${column} COLLATE "C"`).join(', ')}
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${added.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')}`;
}

const DAYS = upsert('click_days', { link_id: 'text', day: 'text', team_id: 'text', clicks: 'bigint', visitors: 'bigint' }, ['link_id', 'day'], ['clicks', 'visitors']);
const BOUNDS = upsert('click_links', { link_id: 'text', team_id: 'text', clicks: 'bigint' }, ['link_id'], ['clicks']);
/** The counts of the days the retention job deleted, out of their bounds (one row per bound: summed). */
const LOWER_BOUNDS = `UPDATE click_links SET clicks = click_links.clicks - v.clicks
  FROM unnest($1::text[], $2::bigint[]) AS v(link_id, clicks) WHERE click_links.link_id = v.link_id`;
const LOWER_VALUE_BOUNDS = `UPDATE team_click_values SET count = team_click_values.count - v.count
  FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS v(team_id, facet, value, count)
  WHERE team_click_values.team_id = v.team_id AND team_click_values.facet = v.facet AND team_click_values.value = v.value`;
const VALUES = upsert('team_click_values', { team_id: 'text', facet: 'text', value: 'text', count: 'bigint' }, ['team_id', 'facet', 'value'], ['count']);
const TEAM_DAYS = upsert('team_click_days', { team_id: 'text', day: 'text', clicks: 'bigint', visitors: 'bigint' }, ['team_id', 'day'], ['clicks', 'visitors']);
const FACET_COLUMNS = { facet: 'text', day: 'text', value: 'text', count: 'bigint' };
const FACETS = upsert('click_facets', { link_id: 'text', ...FACET_COLUMNS }, ['link_id', 'facet', 'day', 'value'], ['count']);
const TEAM_FACETS = upsert('team_click_facets', { team_id: 'text', ...FACET_COLUMNS }, ['team_id', 'facet', 'day', 'value'], ['count']);
const UNCOUNTED = upsert('click_uncounted', { link_id: 'text', day: 'text', class: 'text', count: 'bigint' }, ['link_id', 'day', 'class'], ['count']);
const TEAM_UNCOUNTED = upsert('team_click_uncounted', { team_id: 'text', day: 'text', class: 'text', count: 'bigint' }, ['team_id', 'day', 'class'], ['count']);

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
        const live = await rows<{ id: string; teamId: string }>(client, LIVE, [ids]);
        const teamOf = new Map(live.map((link) => [link.id, link.teamId]));
        const kept = linkDays.filter((linkDay) => teamOf.has(linkDay.linkId));

        const marks = kept.flatMap(({ day, linkId, marks }) => marks.map((mark) => [day, linkId, Buffer.from(mark)] as const));
        const visitors = new Map<string, number>();
        if (marks.length > 0) {
          const fresh = await rows<{ linkId: string; day: string }>(client, MARK, [0, 1, 2].map((i) => marks.map((mark) => mark[i])));
          for (const { linkId, day } of fresh) visitors.set(`${linkId} ${day}`, (visitors.get(`${linkId} ${day}`) ?? 0) + 1);
        }

        const [days, teamDays, bounds, values] = [new Sums(2), new Sums(2), new Sums(1), new Sums(3)];
        const [facets, teamFacets, uncounted, teamUncounted] = [new Sums(4), new Sums(4), new Sums(3), new Sums(3)];
        for (const { linkId, day, clicks, facets: counts, uncounted: classes } of kept) {
          const teamId = teamOf.get(linkId)!;
          const newVisitors = visitors.get(`${linkId} ${day}`) ?? 0;
          if (clicks > 0 || newVisitors > 0) {
            days.add(linkId, day, teamId, clicks, newVisitors);
            if (clicks > 0) bounds.add(linkId, teamId, clicks);
            teamDays.add(teamId, day, clicks, newVisitors);
          }
          for (const { facet, value, count } of counts) {
            facets.add(linkId, facet, day, value, count);
            teamFacets.add(teamId, facet, day, value, count);
            values.add(teamId, facet, value, count);
          }
          for (const { class: kind, count } of classes) {
            uncounted.add(linkId, day, kind, count);
            teamUncounted.add(teamId, day, kind, count);
          }
        }
        const writes: Array<[Sums, string]> = [
          [days, DAYS], [teamDays, TEAM_DAYS], [bounds, BOUNDS], [facets, FACETS], [teamFacets, TEAM_FACETS],
          [values, VALUES], [uncounted, UNCOUNTED], [teamUncounted, TEAM_UNCOUNTED],
        ];
        for (const [sums, text] of writes) if (!sums.empty) await client.query(text, sums.columns());
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
      if (await row(pool, analyticsSql.earlierVisitors, { day })) {
        await run(pool, analyticsSql.forgetKeys, { day });
        await inBatches(() => changed(pool, analyticsSql.forgetMarks, { day, limit: REMOVAL_BATCH }));
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

