import type { ClickFacet, UncountedClass } from '../../domain/analytics.js';
import type { DayTotal, LinkTotal, ValueTotal } from '../ports.js';
import { sql, type Dialect, type DialectText, type Statement } from './statement.js';

/**
 * Click analytics' reads, writes of a batch, a link's removal from its team's sums, and the retention deletes,
 * written once. Where the databases differ is how a batch's rows are bound: SQLite walks one JSON array, PostgreSQL
 * unnests an array per column.
 */

type Days = { from: string; to: string };
type OfLink = Days & { linkId: string };
type OfTeam = Days & { teamId: string };
type Ranking = { limit: number };
/** A ranked row, with the clicks of every row the ranking had before its limit (a window over the groups). */
type WithAll<Row> = Row & { all: number };

type Page = { offset: number; count: number };
type Bound = { key: string; clicks: number };

/** One of the texts bound as `param`: a JSON array for SQLite, an array for PostgreSQL. */
const among = (d: Dialect, param: string) => (d.name === 'sqlite' ? `IN (SELECT value FROM json_each(${param}))` : `= ANY(${param}::text[])`);

/** A sum of counts: numeric on PostgreSQL (read as text), so cast back to bigint, which the pool reads as a number. */
const sum = (d: Dialect, expr: string) => (d.name === 'postgres' ? `SUM(${expr})::bigint` : `SUM(${expr})`);
const sumOfAll = (d: Dialect, expr: string) =>
  d.name === 'postgres' ? `(SUM(SUM(${expr})) OVER ())::bigint` : `SUM(SUM(${expr})) OVER ()`;

/** Counted clicks by one facet's value in `table`, where `owner` is the link's or team's: most first, ties by value. */
const facetRanking = (table: string, owner: string) => (d: Dialect) =>
  `SELECT value, ${sum(d, 'count')} AS clicks, ${sumOfAll(d, 'count')} AS "all" FROM ${table}
   WHERE ${owner} AND facet = :facet AND day BETWEEN :from AND :to
   GROUP BY value HAVING SUM(count) > 0 ORDER BY clicks DESC, value${d.bytes} LIMIT :limit`;

const uncountedByClass = (table: string, owner: string) => (d: Dialect) =>
  `SELECT class, ${sum(d, 'count')} AS count FROM ${table} WHERE ${owner} AND day BETWEEN :from AND :to
   GROUP BY class HAVING SUM(count) > 0`;

/**
 * Subtracts a link's rows of `table` from its team's rows of `teamTable` (their sums by `key`): looked up from the
 * link's rows, so a link of a team with years of rows reads its own few.
 */
const leaveTeam = (teamTable: string, table: string, key: string[]) => {
  const same = key.map((column) => `l.${column} = ${teamTable}.${column}`).join(' AND ');
  return `UPDATE ${teamTable} SET count = count - (SELECT SUM(l.count) FROM ${table} l WHERE l.link_id = :linkId AND ${same})
    WHERE team_id = (SELECT team_id FROM links WHERE id = :linkId)
      AND (${key.join(', ')}) IN (SELECT ${key.join(', ')} FROM ${table} WHERE link_id = :linkId)`;
};

/**
 * The tables of daily analytics (the daily counts included) and their keys, as the retention job deletes them;
 * click_days and team_click_facets apart (`removeDays`, `removeTeamFacets`), as their counts leave the bounds too.
 */
export const DAILY_TABLES = {
  clicks: 'link_id, day',
  click_facets: 'link_id, facet, day, value',
  click_uncounted: 'link_id, day, class',
  team_click_uncounted: 'team_id, day, class',
  team_click_days: 'team_id, day',
} as const;

/**
 * The tables a batch adds to: each with its columns in the order a row holds them (the key's first) and their
 * PostgreSQL types, its key, and the counts added to a row already there.
 */
const ADDITIONS = {
  click_days: { columns: { link_id: 'text', day: 'text', team_id: 'text', clicks: 'bigint', visitors: 'bigint' }, key: 2, added: ['clicks', 'visitors'] },
  click_links: { columns: { link_id: 'text', team_id: 'text', clicks: 'bigint' }, key: 1, added: ['clicks'] },
  click_facets: { columns: { link_id: 'text', facet: 'text', day: 'text', value: 'text', count: 'bigint' }, key: 4, added: ['count'] },
  click_uncounted: { columns: { link_id: 'text', day: 'text', class: 'text', count: 'bigint' }, key: 3, added: ['count'] },
  team_click_days: { columns: { team_id: 'text', day: 'text', clicks: 'bigint', visitors: 'bigint' }, key: 2, added: ['clicks', 'visitors'] },
  team_click_facets: { columns: { team_id: 'text', facet: 'text', day: 'text', value: 'text', count: 'bigint' }, key: 4, added: ['count'] },
  team_click_values: { columns: { team_id: 'text', facet: 'text', value: 'text', count: 'bigint' }, key: 3, added: ['count'] },
  team_click_uncounted: { columns: { team_id: 'text', day: 'text', class: 'text', count: 'bigint' }, key: 3, added: ['count'] },
} as const;

export type AdditionTable = keyof typeof ADDITIONS;

/** Rows for one of ADDITIONS, each its columns' values in order. */
export type AdditionRows = Array<Array<string | number>>;

/** The columns of a table a batch adds to, in the order a row holds them. */
export const additionColumns = (table: AdditionTable): string[] => Object.keys(ADDITIONS[table].columns);

/**
 * A batch's rows of one table in one statement: SQLite walks them as one JSON array of arrays (`rows`), PostgreSQL
 * unnests one array per column (bound under the column's name) in key order, so two processes' batches lock the
 * rows they share in one order. A call into the driver per table, not per row: row by row, a write over many links
 * cost several times the redirects it counted.
 */
function addition(table: AdditionTable): DialectText {
  const { columns, key, added } = ADDITIONS[table];
  const names = Object.keys(columns);
  const types = Object.values(columns);
  return (d) => {
    const source =
      d.name === 'sqlite'
        ? `SELECT ${names.map((_, i) => `value->>${i}`).join(', ')} FROM json_each(:rows) WHERE true`
        : `SELECT * FROM unnest(${names.map((name, i) => `:${name}::${types[i]}[]`).join(', ')}) AS v(${names.join(', ')})
           ORDER BY ${names.slice(0, key).map((name) => `${name}${d.bytes}`).join(', ')}`;
    return `INSERT INTO ${table} (${names.join(', ')}) ${source}
      ON CONFLICT (${names.slice(0, key).join(', ')}) DO UPDATE SET ${added.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')}`;
  };
}

/** What an addition binds: the rows as JSON (SQLite), or an array per column by its name (PostgreSQL). */
export type AdditionParams = { rows: string } | Record<string, unknown[]>;

export const additionSql = Object.fromEntries(
  (Object.keys(ADDITIONS) as AdditionTable[]).map((table) => [table, sql<AdditionParams>(addition(table))]),
) as Record<AdditionTable, Statement<AdditionParams>>;

/**
 * Writing a batch: its links still there, with their teams, locked against deletion until it commits (PostgreSQL;
 * SQLite's write transaction holds the file), in id order, so a link deleted by another process at the same moment
 * either goes first (its counts are dropped) or waits, and never fails the batch on a foreign key; and the visitor
 * sketches of its link days, read, merged in memory and written back (as AdditionParams binds rows: `day`, `link_id`
 * and, to write, `sketch`, hex in SQLite). PostgreSQL reads them locked, each made first where there was none
 * (postgres/analytics.ts): two processes' merges into one sketch take turns instead of one overwriting the other.
 */
export const batchSql = {
  liveLinks: sql<{ ids: string | string[] }, { id: string; teamId: string }>(
    (d) => `SELECT id, team_id AS "teamId" FROM links WHERE id ${among(d, ':ids')} ORDER BY id${d.bytes}${d.forKeyShare}`,
  ),
  storedSketches: sql<AdditionParams, { day: string; linkId: string; sketch: Uint8Array }>((d) =>
    d.name === 'sqlite'
      ? `SELECT s.day, s.link_id AS "linkId", s.sketch FROM json_each(:rows) AS k
         JOIN visitor_sketches AS s ON s.day = k.value->>0 AND s.link_id = k.value->>1`
      : `SELECT s.day, s.link_id AS "linkId", s.sketch FROM visitor_sketches AS s
         JOIN unnest(:day::text[], :link_id::text[]) AS k(day, link_id) ON s.day = k.day AND s.link_id = k.link_id
         ORDER BY 1, 2 FOR UPDATE OF s`,
  ),
  writeSketches: sql<AdditionParams>(
    (d) => `INSERT INTO visitor_sketches (day, link_id, sketch) ${
      d.name === 'sqlite'
        ? 'SELECT value->>0, value->>1, unhex(value->>2) FROM json_each(:rows) WHERE true'
        : 'SELECT * FROM unnest(:day::text[], :link_id::text[], :sketch::bytea[]) ORDER BY 1, 2'
    } ON CONFLICT (day, link_id) DO UPDATE SET sketch = excluded.sketch`,
  ),
};

/** Rows the retention job deletes per transaction: a few milliseconds of the write lock each. */
export const REMOVAL_BATCH = 2_000;

export const analyticsSql = {
  linkFacet: sql<OfLink & Ranking & { facet: ClickFacet }, WithAll<ValueTotal>>(facetRanking('click_facets', 'link_id = :linkId')),
  teamFacet: sql<OfTeam & Ranking & { facet: ClickFacet }, WithAll<ValueTotal>>(facetRanking('team_click_facets', 'team_id = :teamId')),
  /** The daily counts (the spec's, also from before analytics) beside the visitors analytics estimated. */
  linkDays: sql<OfLink, DayTotal>(
    (d) => `SELECT day, ${sum(d, 'clicks')} AS clicks, ${sum(d, 'visitors')} AS visitors FROM (
       SELECT day, count AS clicks, 0 AS visitors FROM clicks WHERE link_id = :linkId AND day BETWEEN :from AND :to
       UNION ALL
       SELECT day, 0, visitors FROM click_days WHERE link_id = :linkId AND day BETWEEN :from AND :to
     ) AS d GROUP BY day HAVING SUM(clicks) > 0 OR SUM(visitors) > 0 ORDER BY day`,
  ),
  teamDays: sql<OfTeam, DayTotal>(
    `SELECT day, clicks, visitors FROM team_click_days
     WHERE team_id = :teamId AND day BETWEEN :from AND :to AND (clicks > 0 OR visitors > 0) ORDER BY day`,
  ),
  /** A team's links by their clicks of every day kept, the bounds team-ranking.ts looks among. */
  linkBounds: sql<{ teamId: string } & Page, Bound>(
    `SELECT link_id AS "key", clicks FROM click_links WHERE team_id = :teamId AND clicks > 0
     ORDER BY clicks DESC, link_id LIMIT :count OFFSET :offset`,
  ),
  /** A team's values of a facet by their clicks of every day kept, as linkBounds. */
  valueBounds: sql<{ teamId: string; facet: ClickFacet } & Page, Bound>(
    `SELECT value AS "key", count AS clicks FROM team_click_values WHERE team_id = :teamId AND facet = :facet AND count > 0
     ORDER BY count DESC, value LIMIT :count OFFSET :offset`,
  ),
  /** Some values' sums in the days, by team_click_facets_by_value (`values` as `among` takes them). */
  valueSums: sql<OfTeam & { facet: ClickFacet; values: string | string[] }, ValueTotal>(
    (d) => `SELECT value, ${sum(d, 'count')} AS clicks FROM team_click_facets
     WHERE team_id = :teamId AND facet = :facet AND value ${among(d, ':values')} AND day BETWEEN :from AND :to
     GROUP BY value HAVING SUM(count) > 0`,
  ),
  /** Some links' sums in the days (`ids` as `among` takes them). */
  linkSums: sql<Days & { ids: string | string[] }, LinkTotal>(
    (d) => `SELECT link_id AS "linkId", ${sum(d, 'clicks')} AS clicks, ${sum(d, 'visitors')} AS visitors FROM click_days
     WHERE link_id ${among(d, ':ids')} AND day BETWEEN :from AND :to
     GROUP BY link_id HAVING SUM(clicks) > 0`,
  ),
  /** One range of click_days_by_team, summed per link: a team's top links read whole. */
  teamLinks: sql<OfTeam & Ranking, WithAll<LinkTotal>>(
    (d) => `SELECT link_id AS "linkId", ${sum(d, 'clicks')} AS clicks, ${sum(d, 'visitors')} AS visitors,
       ${sumOfAll(d, 'clicks')} AS "all"
     FROM click_days WHERE team_id = :teamId AND day BETWEEN :from AND :to
     GROUP BY link_id HAVING SUM(clicks) > 0 ORDER BY clicks DESC, link_id${d.bytes} LIMIT :limit`,
  ),
  /** The daily counts of the team's links, with the visitors of each day. */
  teamDailyByLink: sql<OfTeam, { linkId: string; day: string; clicks: number; visitors: number }>(
    (d) => `SELECT c.link_id AS "linkId", c.day, c.count AS clicks, COALESCE(v.visitors, 0) AS visitors
     FROM links l JOIN clicks c ON c.link_id = l.id AND c.day BETWEEN :from AND :to
     LEFT JOIN click_days v ON v.link_id = c.link_id AND v.day = c.day
     WHERE l.team_id = :teamId ORDER BY c.day${d.bytes}, c.link_id${d.bytes}`,
  ),
  linkClicks: sql<OfLink, { clicks: number }>(
    (d) => `SELECT COALESCE(${sum(d, 'count')}, 0) AS clicks FROM clicks WHERE link_id = :linkId AND day BETWEEN :from AND :to`,
  ),
  teamClicks: sql<OfTeam, { clicks: number }>(
    (d) => `SELECT COALESCE(${sum(d, 'clicks')}, 0) AS clicks FROM team_click_days WHERE team_id = :teamId AND day BETWEEN :from AND :to`,
  ),
  linkUncounted: sql<OfLink, { class: UncountedClass; count: number }>(uncountedByClass('click_uncounted', 'link_id = :linkId')),
  teamUncounted: sql<OfTeam, { class: UncountedClass; count: number }>(uncountedByClass('team_click_uncounted', 'team_id = :teamId')),

  /**
   * A link about to be deleted leaves its team's sums: its rows are subtracted from them (its own rows then go with
   * it, ON DELETE CASCADE). A team being deleted needs none of this: its sums go with it.
   */
  leaveTeamFacets: sql<{ linkId: string }>(leaveTeam('team_click_facets', 'click_facets', ['facet', 'day', 'value'])),
  leaveTeamUncounted: sql<{ linkId: string }>(leaveTeam('team_click_uncounted', 'click_uncounted', ['day', 'class'])),
  leaveTeamValues: sql<{ linkId: string }>(leaveTeam('team_click_values', 'click_facets', ['facet', 'value'])),
  leaveTeamDays: sql<{ linkId: string }>(
    `UPDATE team_click_days SET clicks = team_click_days.clicks - c.clicks, visitors = team_click_days.visitors - c.visitors
     FROM click_days c WHERE c.link_id = :linkId AND team_click_days.team_id = c.team_id AND team_click_days.day = c.day`,
  ),

  /** One batch of click_days of days before `before`, answered so their clicks leave click_links (`lowerBound`). */
  removeDays: sql<{ before: string; limit: number }, { linkId: string; clicks: number }>(
    `DELETE FROM click_days WHERE (link_id, day) IN (SELECT link_id, day FROM click_days WHERE day < :before LIMIT :limit)
     RETURNING link_id AS "linkId", clicks`,
  ),
  /** A link's clicks of the days kept: those of the days the retention job deletes leave them. */
  lowerBound: sql<{ linkId: string; clicks: number }>('UPDATE click_links SET clicks = clicks - :clicks WHERE link_id = :linkId'),
  /** One batch of team_click_facets of days before `before`, answered so their counts leave team_click_values. */
  removeTeamFacets: sql<{ before: string; limit: number }, { teamId: string; facet: string; value: string; count: number }>(
    `DELETE FROM team_click_facets WHERE (team_id, facet, day, value) IN
       (SELECT team_id, facet, day, value FROM team_click_facets WHERE day < :before LIMIT :limit)
     RETURNING team_id AS "teamId", facet, value, count`,
  ),
  lowerValueBound: sql<{ teamId: string; facet: string; value: string; count: number }>(
    'UPDATE team_click_values SET count = count - :count WHERE team_id = :teamId AND facet = :facet AND value = :value',
  ),

  visitorKey: sql<{ day: string }, { key: Uint8Array }>('SELECT key FROM visitor_keys WHERE day = :day'),
  newVisitorKey: sql<{ day: string; key: Uint8Array }>('INSERT INTO visitor_keys (day, key) VALUES (:day, :key) ON CONFLICT (day) DO NOTHING'),
  /** Whether keys or sketches of days before `day` are left to forget: read first, so a look takes no write lock. */
  earlierVisitors: sql<{ day: string }, { found: number }>(
    `SELECT 1 AS found WHERE EXISTS (SELECT 1 FROM visitor_keys WHERE day < :day)
       OR EXISTS (SELECT 1 FROM visitor_sketches WHERE day < :day)`,
  ),
  forgetKeys: sql<{ day: string }>('DELETE FROM visitor_keys WHERE day < :day'),
  /** A day's sketches may be many (one per link clicked): deleted in batches, as the retention job deletes. */
  forgetSketches: sql<{ day: string; limit: number }>(
    `DELETE FROM visitor_sketches WHERE (day, link_id) IN
     (SELECT day, link_id FROM visitor_sketches WHERE day < :day LIMIT :limit)`,
  ),
};

/** One batch of the rows of a table of days before `before`, by its day index. */
export const removalSql = Object.fromEntries(
  Object.entries(DAILY_TABLES).map(([table, key]) => [
    table,
    sql<{ before: string; limit: number }>(
      `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE day < :before LIMIT :limit)`,
    ),
  ]),
) as Record<keyof typeof DAILY_TABLES, Statement<{ before: string; limit: number }>>;

/** The link's team sums to leave before it is deleted, in the order both adapters run them. */
export const LEAVE_TEAM = [analyticsSql.leaveTeamFacets, analyticsSql.leaveTeamValues, analyticsSql.leaveTeamUncounted, analyticsSql.leaveTeamDays] as const;
