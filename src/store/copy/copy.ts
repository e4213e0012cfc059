import type pg from 'pg';
import { ApiError } from '../../errors.js';
import type { Db } from '../sqlite/database.js';
import { rows, transaction } from '../postgres/query.js';
import { postgresReferences, postgresTables, quoteName, sqliteTables } from './catalogs.js';
import { BatchInsert } from './insert.js';
import { CopyRefused, planCopy, type PgTable } from './plan.js';
import { converterFor } from './values.js';

/**
 * Columns PostgreSQL keeps itself, by trigger: teams.link_count is counted by the links insert trigger. They are
 * left to their default (0) when the table is copied, and compared with SQLite's afterwards, so the count the
 * trigger arrives at is checked rather than added to.
 */
const DERIVED: Readonly<Record<string, { column: string; key: string }>> = {
  teams: { column: 'link_count', key: 'id' },
};

/** How many rows each table holds in both databases once copied, by table name. */
export type CopyCounts = Record<string, number>;

/**
 * Copies every table of the SQLite database into the empty PostgreSQL database of `pool`, then checks that both
 * hold the same number of rows in every table and the same link count for every team. All or nothing: SQLite is
 * read in one read transaction (a consistent snapshot, even while a server writes to the file) and PostgreSQL
 * written in one transaction, rolled back when anything is refused or differs.
 */
export async function copySqliteToPostgres(sqlite: Db, pool: pg.Pool): Promise<CopyCounts> {
  const counts = await transaction(pool, async (client) => {
    const tables = planCopy(sqliteTables(sqlite), await postgresTables(client), await postgresReferences(client));
    // Nothing else writes while the copy runs (a server started on the new database early waits for it, up to its
    // statement timeout, then answers 503), so the tables found empty stay empty until the copy commits. Reads go on.
    await client.query(`LOCK TABLE ${tables.map((table) => quoteName(table.name)).join(', ')} IN EXCLUSIVE MODE`);
    await refuseUnlessEmpty(client, tables);
    const { counts, derived } = await inSnapshot(sqlite, async () => {
      const counts: CopyCounts = {};
      const derived = new Map<string, Map<unknown, unknown>>();
      for (const table of tables) {
        counts[table.name] = sqlite.prepare(`SELECT count(*) FROM ${quoteName(table.name)}`).pluck().get() as number;
        const values = await copyTable(sqlite, client, table).catch((error: unknown) => {
          // A row PostgreSQL will not take (text with U+0000, put into the file by hand): say where it is.
          if (!(error instanceof ApiError)) throw error;
          throw new CopyRefused(`table ${table.name} holds a row PostgreSQL refuses (${error.detail.replace(/\.$/, '')})`);
        });
        if (values) derived.set(table.name, values);
      }
      return { counts, derived };
    });
    await moveIdentitiesPast(client, tables);
    await verify(client, counts, derived);
    return counts;
  });
  // The planner's statistics for the new rows now, not when autovacuum gets round to them. Only an optimisation:
  // the copy has committed, so a failure here must not report it failed.
  await pool.query(`ANALYZE ${Object.keys(counts).map(quoteName).join(', ')}`).catch(() => {});
  return counts;
}

/** Runs `read` in one SQLite read transaction: every statement in it sees the database as of its first read. */
async function inSnapshot<T>(sqlite: Db, read: () => Promise<T>): Promise<T> {
  sqlite.exec('BEGIN');
  try {
    return await read();
  } finally {
    sqlite.exec('ROLLBACK');
  }
}

async function refuseUnlessEmpty(client: pg.PoolClient, tables: readonly PgTable[]): Promise<void> {
  const filled = await rows<{ name: string }>(
    client,
    tables.map((table, i) => `SELECT $${i + 1}::text AS name WHERE EXISTS (SELECT FROM ${quoteName(table.name)})`).join(' UNION ALL '),
    tables.map((table) => table.name),
  );
  if (filled.length === 0) return;
  const names = filled.map((table) => table.name).sort().join(', ');
  throw new CopyRefused(`the PostgreSQL database is not empty (${names} hold rows); copy-database fills only an empty one`);
}

/**
 * Streams one table across in batches (never the whole table in memory). Answers, for a table with a derived
 * column, SQLite's value of that column for each row's key.
 */
async function copyTable(sqlite: Db, client: pg.PoolClient, table: PgTable): Promise<Map<unknown, unknown> | null> {
  const derived = DERIVED[table.name];
  const copied = table.columns.filter((column) => column.name !== derived?.column);
  const converters = copied.map((column) => converterFor(table.name, column));
  const insert = new BatchInsert(client, table.name, copied.map((column) => column.name), copied.some((column) => column.identity));
  const select = derived
    ? [...copied.map((column) => column.name), derived.key, derived.column]
    : copied.map((column) => column.name);
  // raw: rows as arrays in column order; safeIntegers: every integer a bigint, never rounded.
  const statement = sqlite.prepare(`SELECT ${select.map(quoteName).join(', ')} FROM ${quoteName(table.name)}`).raw(true).safeIntegers(true);
  const values = derived ? new Map<unknown, unknown>() : null;
  for (const row of statement.iterate() as IterableIterator<unknown[]>) {
    if (values) values.set(row[copied.length], Number(row[copied.length + 1]));
    await insert.add(converters.map((convert, index) => convert(row[index])));
  }
  await insert.flush();
  return values;
}

/**
 * A copied identity column (links.seq) kept SQLite's values; its sequence is moved past the largest so the next
 * row PostgreSQL numbers (the next link) continues after them instead of colliding with a copied one.
 */
async function moveIdentitiesPast(client: pg.PoolClient, tables: readonly PgTable[]): Promise<void> {
  for (const table of tables) {
    for (const column of table.columns.filter((c) => c.identity)) {
      const name = quoteName(table.name);
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), max(${quoteName(column.name)})) FROM ${name} HAVING count(*) > 0`,
        [name, column.name],
      );
    }
  }
}

/**
 * Refuses, naming the table, unless PostgreSQL now holds what SQLite held: as many rows in every table, and every
 * derived value (each team's link count, so their sum too) as SQLite had it.
 */
async function verify(client: pg.PoolClient, counts: CopyCounts, derived: Map<string, Map<unknown, unknown>>): Promise<void> {
  for (const [table, expected] of Object.entries(counts)) {
    const [found] = await rows<{ count: unknown }>(client, `SELECT count(*) AS count FROM ${quoteName(table)}`);
    const count = Number(found?.count);
    if (count !== expected) throw new CopyRefused(`table ${table} differs: ${expected} rows in SQLite, ${count} in PostgreSQL`);
  }
  for (const [table, expected] of derived) {
    const { column, key } = DERIVED[table]!;
    const found = await rows<{ key: unknown; value: unknown }>(
      client,
      `SELECT ${quoteName(key)} AS key, ${quoteName(column)} AS value FROM ${quoteName(table)}`,
    );
    const differing = found.find((row) => expected.get(row.key) !== Number(row.value));
    if (differing) {
      const { key: id, value } = differing;
      throw new CopyRefused(
        `${table}.${column} differs for ${key} ${String(id)}: ${String(expected.get(id))} in SQLite, ${String(value)} in PostgreSQL`,
      );
    }
  }
}
