import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type PgDatabase } from '../../src/store/postgres/database.js';
import { migrations } from '../../src/store/postgres/migrations.js';
import { SQLITE_ONLY_TABLES } from '../../src/store/sqlite/migrations.js';
import { openDatabase as openSqlite } from '../../src/store/sqlite/database.js';
import { newTestDatabase } from '../helpers/shared-postgres.js';

/**
 * The PostgreSQL schema: its migrations, and that it stays the SQLite schema's twin. Every test has a database of
 * its own in the run's cluster (global-setup.ts).
 */

const opened: PgDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

async function open(url: string): Promise<PgDatabase> {
  const db = await openDatabase(url);
  opened.push(db);
  return db;
}

/** The schema_migrations rows, in version order. */
async function versions(db: PgDatabase) {
  return (await db.pool.query('SELECT version, applied_at FROM schema_migrations ORDER BY version')).rows;
}

const ALL_VERSIONS = migrations.map((_, index) => index + 1);

/** The SQLite FTS5 tables (and their shadow tables) that PostgreSQL's links_search index replaces. */
const SQLITE_ONLY = ['links_search', 'links_search_short'];
/** PostgreSQL's record of applied migrations (SQLite keeps it in PRAGMA user_version). */
const POSTGRES_ONLY = ['schema_migrations'];

interface Column {
  name: string;
  notNull: boolean;
  primaryKey: boolean;
}
interface ForeignKey {
  column: string;
  references: string;
  onDelete: string;
}

/** Each table's columns in order and its foreign keys, as SQLite's migrations leave them. */
function sqliteSchema() {
  const db = openSqlite(':memory:');
  try {
    const tables = db.pragma('table_list') as Array<{ name: string; schema: string; type: string }>;
    const main = tables.filter((table) => table.schema === 'main' && !table.name.startsWith('sqlite_'));
    const virtual = main.filter((table) => table.type === 'virtual').map((table) => table.name);
    const schema: Record<string, { columns: Column[]; foreignKeys: ForeignKey[] }> = {};
    for (const { name } of main.filter((table) => table.type === 'table' && !SQLITE_ONLY_TABLES.includes(table.name))) {
      const columns = db.pragma(`table_info(${name})`) as Array<{ name: string; notnull: number; pk: number }>;
      const keys = db.pragma(`foreign_key_list(${name})`) as Array<{ from: string; table: string; to: string; on_delete: string }>;
      schema[name] = {
        // A primary key column cannot hold null in PostgreSQL; SQLite's pragma reports only declared NOT NULL.
        columns: columns.map((c) => ({ name: c.name, notNull: c.notnull === 1 || c.pk > 0, primaryKey: c.pk > 0 })),
        foreignKeys: keys
          .map((k) => ({ column: k.from, references: `${k.table}.${k.to}`, onDelete: k.on_delete }))
          .sort((a, b) => a.column.localeCompare(b.column)),
      };
    }
    return { schema, virtual: virtual.sort() };
  } finally {
    db.close();
  }
}

const ON_DELETE: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

/** The same description of the PostgreSQL schema, read from its catalogs. */
async function postgresSchema(db: PgDatabase) {
  const columns = await db.pool.query<{ table: string; name: string; not_null: boolean; primary_key: boolean }>(`
    SELECT c.relname AS table, a.attname AS name, a.attnotnull AS not_null,
      EXISTS (SELECT FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary AND a.attnum = ANY (i.indkey))
        AS primary_key
    FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY c.relname, a.attnum`);
  const keys = await db.pool.query<{ table: string; column: string; references: string; on_delete: string }>(`
    SELECT c.conrelid::regclass::text AS table, a.attname AS column,
      c.confrelid::regclass::text || '.' || r.attname AS references, c.confdeltype AS on_delete
    FROM pg_constraint c
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = c.confkey[1]
    WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
    ORDER BY a.attname`);
  const schema: Record<string, { columns: Column[]; foreignKeys: ForeignKey[] }> = {};
  for (const { table, name, not_null, primary_key } of columns.rows) {
    (schema[table] ??= { columns: [], foreignKeys: [] }).columns.push({ name, notNull: not_null, primaryKey: primary_key });
  }
  for (const { table, column, references, on_delete } of keys.rows) {
    schema[table]!.foreignKeys.push({ column, references, onDelete: ON_DELETE[on_delete]! });
  }
  return schema;
}

describe('the PostgreSQL schema', () => {
  it('applies every migration to an empty database, recording each version once', async () => {
    const db = await open(await newTestDatabase());
    expect((await versions(db)).map((row) => row.version)).toEqual(ALL_VERSIONS);
    const links = await db.pool.query(`SELECT to_regclass('links') AS links`);
    expect(links.rows[0].links).toBe('links');
  });

  it('does nothing when opened again: no migration runs twice, data stays', async () => {
    const url = await newTestDatabase();
    const first = await open(url);
    await first.pool.query(`INSERT INTO settings (key, value) VALUES ('limits', '{}')`);
    const before = await versions(first);
    const second = await open(url);
    expect(await versions(second)).toEqual(before);
    expect((await second.pool.query('SELECT value FROM settings')).rows).toEqual([{ value: '{}' }]);
  });

  it('is migrated exactly once by processes starting together on one empty database', async () => {
    const url = await newTestDatabase();
    const all = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    expect((await versions(all[0]!)).map((row) => row.version)).toEqual(ALL_VERSIONS);
  });

  it('has the tables, columns (in order), primary keys and foreign keys of the SQLite schema', async () => {
    const sqlite = sqliteSchema();
    expect(sqlite.virtual).toEqual(SQLITE_ONLY);
    const postgres = await postgresSchema(await open(await newTestDatabase()));
    for (const table of POSTGRES_ONLY) delete postgres[table];
    expect(postgres).toEqual(sqlite.schema);
  });

  it('reads bigint as a JavaScript number', async () => {
    const db = await open(await newTestDatabase());
    const { rows } = await db.pool.query('SELECT 1761134400000::bigint AS at, count(*) AS n FROM links');
    expect(rows[0]).toEqual({ at: 1761134400000, n: 0 });
  });
});

describe('the PostgreSQL schema for links', () => {
  /** A database with teams `big` and `small` and, when asked, `many` links of `big`'s. */
  async function withLinks(many: number) {
    const db = await open(await newTestDatabase());
    await db.pool.query(`INSERT INTO teams (id, name, created_at) VALUES ('big', 'B', 'x'), ('small', 'S', 'x')`);
    await db.pool.query(
      `INSERT INTO links (id, team_id, code, name, destination, note, state, created_at)
       SELECT 'link_' || i, 'big', 'c' || i, CASE WHEN i % 3 = 0 THEN 'name-' || i END,
         'https://example.com/page/' || md5(i::text), CASE WHEN i % 5 = 0 THEN 'Note ' || md5((i * 7)::text) END,
         'active', 'x'
       FROM generate_series(1, $1::int) AS i`,
      [many],
    );
    return db;
  }

  async function add(db: PgDatabase, teamId: string, link: { code: string; name?: string; destination: string; note?: string }) {
    await db.pool.query(
      `INSERT INTO links (id, team_id, code, name, destination, note, state, created_at)
       VALUES ('link_' || $1, $2, $1, $3, $4, $5, 'active', 'x')`,
      [link.code, teamId, link.name ?? null, link.destination, link.note ?? null],
    );
  }

  const SEARCH = `SELECT code FROM links WHERE team_id = $1
    AND link_search_text(code, name, destination, note) LIKE link_search_pattern($2) ORDER BY seq DESC`;

  it('finds a case-insensitive substring of code, name, destination or note, within one team', async () => {
    const db = await withLinks(0);
    await add(db, 'big', { code: 'Abc1', destination: 'https://Straße.example/ÄPFEL' });
    await add(db, 'big', { code: 'xyz2', name: 'Quarterly-Report', destination: 'https://a.example/' });
    await add(db, 'big', { code: 'xyz3', destination: 'https://b.example/', note: 'see 100% _done_' });
    await add(db, 'small', { code: 'xyz4', destination: 'https://straße.example/' });
    const search = async (q: string) => (await db.pool.query(SEARCH, ['big', q])).rows.map((row) => row.code);
    expect(await search('abc')).toEqual(['Abc1']);
    expect(await search('STRASSE')).toEqual([]); // lowercased, not case-folded: ß stays ß, as in toLowerCase
    expect(await search('STRAßE.EXAMPLE/äpfel')).toEqual(['Abc1']);
    expect(await search('quarterly-report')).toEqual(['xyz2']);
    expect(await search('100%')).toEqual(['xyz3']);
    expect(await search('0%_')).toEqual([]); // % and _ are matched literally, not as wildcards
    expect(await search('_done_')).toEqual(['xyz3']);
    expect(await search('.example/')).toEqual(['xyz3', 'xyz2', 'Abc1']);
  });

  it('never matches across two columns', async () => {
    const db = await withLinks(0);
    await add(db, 'big', { code: 'abc', name: 'def', destination: 'https://x.example/' });
    const search = async (q: string) => (await db.pool.query(SEARCH, ['big', q])).rows.map((row) => row.code);
    expect(await search('abc')).toEqual(['abc']);
    expect(await search('bcde')).toEqual([]);
    expect(await search('abc\u0001def')).toEqual([]);
  });

  it('keeps each team’s link_count as links are added and deleted', async () => {
    const db = await withLinks(3);
    await add(db, 'small', { code: 's1', destination: 'https://x.example/' });
    await db.pool.query(`DELETE FROM links WHERE id = 'link_2'`);
    const { rows } = await db.pool.query('SELECT id, link_count FROM teams ORDER BY id');
    expect(rows).toEqual([{ id: 'big', link_count: 2 }, { id: 'small', link_count: 1 }]);
  });

  it('answers a rare substring in a team of 20,000 links from the trigram index', async () => {
    const db = await withLinks(20_000);
    await add(db, 'big', { code: 'rare', destination: 'https://example.com/Needle' });
    // What autovacuum does on its own: merges the index's pending entries, which otherwise make it look costly.
    await db.pool.query('VACUUM ANALYZE links');
    const index = await db.pool.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'links_search'`);
    expect(index.rows[0]?.indexdef).toMatch(/USING gin \(team_id, link_search_text\(.*\) gin_trgm_ops\)/);
    const query = `${SEARCH.replace('$1', "'big'").replace('$2', "'NEEDLE'")} LIMIT 25`;
    const plan = await db.pool.query(`EXPLAIN (FORMAT JSON) ${query}`);
    expect(JSON.stringify(plan.rows[0]['QUERY PLAN'])).toContain('"Index Name":"links_search"');
    expect((await db.pool.query(query)).rows).toEqual([{ code: 'rare' }]);
  });
});
