import fc from 'fast-check';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type PgDatabase } from '../../src/store/postgres/database.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { migrations } from '../../src/store/postgres/migrations.js';
import { PROBE, pgLinkSearch } from '../../src/store/postgres/search.js';
import { SQLITE_ONLY_TABLES } from '../../src/store/sqlite/migrations.js';
import { openDatabase as openSqlite } from '../../src/store/sqlite/database.js';
import { newDatabaseIn } from '../helpers/postgres.js';
import { newMigratedTestDatabase, newTestDatabase, testPostgresUrl } from '../helpers/shared-postgres.js';
import { LARGE_TEAM } from './contract/link-search.js';

/**
 * The PostgreSQL schema: its migrations, and that it stays the SQLite schema's twin. Every test has a database of
 * its own in the run's cluster (test/global-setup/postgres.ts).
 */

const opened: PgDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

async function open(url: string, options?: { limited?: boolean }): Promise<PgDatabase> {
  const db = await openDatabase(url, options);
  opened.push(db);
  return db;
}

/** The schema_migrations rows, in version order. */
async function versions(db: PgDatabase) {
  return (await db.pool.query('SELECT version, applied_at FROM schema_migrations ORDER BY version')).rows;
}

const ALL_VERSIONS = migrations.map((_, index) => index + 1);

/** The SQLite FTS5 tables (and their shadow tables) that PostgreSQL's gram index (links_search_grams) replaces. */
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
    const db = await open(await newMigratedTestDatabase());
    const { rows } = await db.pool.query('SELECT 1761134400000::bigint AS at, count(*) AS n FROM links');
    expect(rows[0]).toEqual({ at: 1761134400000, n: 0 });
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** A plan's nodes, the root's and every one below it. */
function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/**
 * Every statement PostgreSQL runs for `work` on one connection, with the nodes of its plan, those inside functions
 * too (the search is a PL/pgSQL function, search-function.ts, whose EXPLAIN shows only the call): auto_explain sends
 * each plan to the client as a notice.
 */
async function plansOf(db: PgDatabase, { analyze }: { analyze: boolean }, work: (client: pg.PoolClient) => Promise<unknown>) {
  const client = await db.pool.connect();
  const plans: Array<{ query: string; nodes: PlanNode[] }> = [];
  const notice = (message: pg.NoticeMessage) => {
    const text = message.message ?? '';
    if (!text.startsWith('duration:')) return;
    const logged = JSON.parse(text.slice(text.indexOf('{'))) as { 'Query Text': string; Plan: PlanNode };
    plans.push({ query: logged['Query Text'], nodes: planNodes(logged.Plan) });
  };
  try {
    await client.query(`LOAD 'auto_explain'`);
    for (const setting of ['log_min_duration = 0', 'log_nested_statements = on', 'log_format = json', `log_analyze = ${analyze}`]) {
      await client.query(`SET auto_explain.${setting}`);
    }
    await client.query('SET client_min_messages = log');
    client.on('notice', notice);
    await work(client);
    return plans;
  } finally {
    client.off('notice', notice);
    client.release(true); // not back to the pool with auto_explain loaded
  }
}

describe('the PostgreSQL schema for links', () => {
  /**
   * A database with teams `big` and `small` and, when asked, `many` links of `big`'s. Its pool has no statement
   * timeout: building 20,000 links' search grams in one statement took over 10 s on a loaded CI runner.
   */
  async function withLinks(many: number) {
    const db = await open(await newMigratedTestDatabase(), { limited: false });
    await seed(db, many);
    return db;
  }

  async function seed(db: PgDatabase, many: number) {
    await db.pool.query(`INSERT INTO teams (id, name, created_at) VALUES ('big', 'B', 'x'), ('small', 'S', 'x')`);
    await db.pool.query(
      `INSERT INTO links (id, team_id, code, name, destination, note, state, created_at)
       SELECT 'link_' || i, 'big', 'c' || i, CASE WHEN i % 3 = 0 THEN 'name-' || i END,
         'https://example.com/page/' || md5(i::text), CASE WHEN i % 5 = 0 THEN 'Note ' || md5((i * 7)::text) END,
         'active', 'x'
       FROM generate_series(1, $1::int) AS i`,
      [many],
    );
  }

  /** The name of a database seeded with 20,000 links once for the file, and closed: each test copies it. */
  let seeded: Promise<string> | undefined;

  /**
   * withLinks(20_000), a database of the test's own as the others, but copied (a fraction of a second) from the one
   * seeded for the file: seeding builds the 20,000 links' search grams, 8 s here and more on a loaded runner.
   */
  async function withManyLinks() {
    seeded ??= (async () => {
      const url = await newMigratedTestDatabase();
      const db = await openDatabase(url, { limited: false });
      try {
        await seed(db, 20_000);
      } finally {
        await db.close();
      }
      return new URL(url).pathname.slice(1);
    })();
    return open(await newDatabaseIn(testPostgresUrl(), await seeded), { limited: false });
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

  it('plans the search of older links through the gram index for any q, even one every link holds', async () => {
    const db = await withManyLinks();
    await add(db, 'big', { code: 'rare', destination: 'https://example.com/Needle' });
    // What autovacuum does on its own: merges the index's pending entries, which otherwise make it look costly.
    await db.pool.query('VACUUM ANALYZE links');
    const indexes = await db.pool.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'links' AND indexdef LIKE '%USING gin%'`);
    expect(indexes.rows).toEqual([
      { indexname: 'links_search_grams', indexdef: expect.stringMatching(/USING gin \(link_search_grams\(team_id, seq, link_search_text\(.*\)\)\)/) },
    ]);
    // The statements the store runs, as PostgreSQL planned them: a plan that read the table instead would compute the
    // grams of every link it passed (25 µs each), and "/" is in all of them. A limit above the probe's, so that every
    // q reaches the older buckets, whose plan is the one made once for every q.
    for (const q of ['/', 'e', 'needle', 'https://example.com/page/']) {
      const plans = await plansOf(db, { analyze: false }, (client) =>
        pgLinkSearch(client)('big', { state: null, q }, { limit: PROBE + 50, after: null }),
      );
      const nodes = plans.flatMap((plan) => plan.nodes);
      expect(nodes).toContainEqual(expect.objectContaining({ 'Node Type': 'Bitmap Index Scan', 'Index Name': 'links_search_grams' }));
      expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
    }
    expect((await pgLinkSearch(db.pool)('big', { state: null, q: 'NEEDLE' }, { limit: 50, after: null })).map((link) => link.code)).toEqual(['rare']);
    // Run: "a1" is in about 1 link of 9 (hex digests), too few to fill 50 from the probe, enough in the newest bucket
    // (seqs 16,384 to 20,001): the older buckets are never read.
    const run = await plansOf(db, { analyze: true }, (client) =>
      pgLinkSearch(client)('big', { state: null, q: 'a1' }, { limit: 50, after: null }),
    );
    const candidates = (run.flatMap((plan) => plan.nodes) as Array<PlanNode & { 'Actual Loops': number; 'Actual Rows': number }>).filter(
      (node) => node['Index Name'] === 'links_search_grams',
    );
    expect(candidates).toEqual([expect.objectContaining({ 'Actual Loops': 1 })]);
    expect(candidates[0]!['Actual Rows']).toBeLessThan(1000);
  }, 60_000); // 9 s here, for the seed and VACUUM; more than twice that on a loaded CI runner

  it('reads a search in one state down (team, state, seq), even a state the statistics never saw', async () => {
    const db = await withManyLinks();
    await db.pool.query('VACUUM ANALYZE links');
    // After the statistics: as far as the planner knows, every link is active.
    await db.pool.query(`UPDATE links SET state = 'flagged' WHERE id IN ('link_7', 'link_70')`);
    const plans = await plansOf(db, { analyze: false }, async (client) => {
      const found = await pgLinkSearch(client)('big', { state: 'flagged', q: 'example' }, { limit: 50, after: null });
      expect(found.map((link) => link.code)).toEqual(['c70', 'c7']);
    });
    // The probe and its count: walking links_pkey instead would read all 20,000 links to find the two.
    const probes = plans.filter((plan) => plan.query.includes('l.state = in_state'));
    expect(probes).toHaveLength(2);
    for (const probe of probes) {
      expect(probe.nodes).toContainEqual(expect.objectContaining({ 'Index Name': 'links_by_team_state' }));
      expect(probe.nodes.filter((node) => node['Index Name'] === 'links_pkey')).toEqual([]);
    }
  }, 60_000);

  it('holds every 1–3 character substring of a link among its grams, so a short q is answered exactly', async () => {
    const db = await withLinks(0);
    const grams = (team: string, bucket: number) =>
      `link_search_grams('big', 0, link_search_text($1, $2, $3, $4)) @> link_search_bucket_grams('${team}', ${bucket}, link_search_query_grams($5))`;
    const check = `SELECT link_search_text($1, $2, $3, $4) LIKE link_search_pattern($5) AS holds, ${grams('big', 0)} AS grams,
      ${grams('small', 0)} AS other_team, ${grams('big', 1)} AS other_bucket`;
    // Characters that matter here: LIKE's wildcards and escape, the regexp's special ones, case pairs, and beyond BMP.
    const char = fc.constantFrom(...'aAbB%_\\.()[]*+?^$|{} /:-ßİΣσ😀\n');
    const text = fc.array(char, { maxLength: 12 }).map((chars) => chars.join(''));
    await fc.assert(
      fc.asyncProperty(text, text, text, fc.option(text, { nil: null }), fc.nat(11), fc.integer({ min: 1, max: 5 }), async (code, name, destination, note, from, length) => {
        const fields = [code, name, destination, note ?? ''];
        const source = fields[from % 4]!;
        const q = [...source].slice(from % Math.max(1, source.length), (from % Math.max(1, source.length)) + length).join('') || 'a';
        const found = (await db.pool.query(check, [code, name, destination, note, q])).rows[0];
        if (found.holds) expect(found.grams, `${JSON.stringify(q)} in ${JSON.stringify(fields)}`).toBe(true);
        if ([...q.toLowerCase()].length <= 3) expect(found.grams).toBe(found.holds);
        expect([found.other_team, found.other_bucket]).toEqual([false, false]);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the contract test of paging larger than the links a search reads before using the index', () => {
    expect(LARGE_TEAM).toBeGreaterThan(PROBE);
  });

  it('pages newest first across many buckets, empty ones among them, for q held by none, a few or many links', async () => {
    const db = await withLinks(0);
    // Seqs spread over about 40 buckets of 8,192, as in a database many teams share: every 9th link is "small"'s,
    // and none from about 104,000 to 132,000 leaves buckets 13 to 15 empty.
    await db.pool.query(
      `INSERT INTO links (seq, id, team_id, code, destination, note, state, created_at) OVERRIDING SYSTEM VALUE
       SELECT i * 331 + (i % 7) * 1000, 'link_' || i, CASE WHEN i % 9 = 0 THEN 'small' ELSE 'big' END, 'c' || i,
         'https://example.com/' || CASE WHEN i % 3 = 0 THEN 'docs/' ELSE 'blog/' END || i,
         CASE WHEN i % 97 = 5 THEN 'Needle §' WHEN i % 11 = 0 THEN 'docs docs' END, 'active', 'x'
       FROM generate_series(1, 1000) AS i WHERE i NOT BETWEEN 300 AND 400`,
    );
    await db.pool.query('VACUUM ANALYZE links');
    const all = (await db.pool.query(`SELECT seq, code, destination, note FROM links WHERE team_id = 'big' ORDER BY seq DESC`)).rows;
    const search = pgLinkSearch(db.pool);
    for (const q of ['needle', '§', 'e §', 'docs/1', 'docs d', 'docs/docs', 'xylophone', '~', '/']) {
      const want = all
        .filter((link) => [link.code, link.destination, link.note].some((text: string | null) => text?.toLowerCase().includes(q)))
        .map((link) => link.code);
      for (const limit of [1, 7, 50]) {
        const found: string[] = [];
        let after: number | null = null;
        for (;;) {
          const page = await search('big', { state: null, q }, { limit, after });
          found.push(...page.map((link) => link.code));
          if (page.length < limit) break;
          after = page.at(-1)!.seq;
        }
        expect(found, `${q} in pages of ${limit}`).toEqual(want);
      }
    }
  });
});

describe('PostgreSQL migration 6', () => {
  it('indexes the links a database already holds, and a search finds them', async () => {
    const url = await newTestDatabase();
    const db = await open(url);
    // Back to migration 5, as a database of the previous release is: its index, no functions of migrations 6 or 7,
    // no column of migration 8, no table of migration 11.
    await db.pool.query(`DROP INDEX links_search_grams;
      DROP FUNCTION link_search_bucket_grams, link_search_query_grams, link_search_grams, link_search_bucket;
      CREATE INDEX links_search ON links USING gin (team_id, link_search_text(code, name, destination, note) gin_trgm_ops);
      DROP FUNCTION rate_events_add;
      ALTER TABLE people DROP COLUMN operator;
      DROP TABLE team_invitations;
      DELETE FROM schema_migrations WHERE version >= 6`);
    await db.pool.query(`INSERT INTO teams (id, name, created_at) VALUES ('big', 'B', 'x')`);
    await db.pool.query(
      `INSERT INTO links (id, team_id, code, destination, note, state, created_at)
       SELECT 'link_' || i, 'big', 'c' || i, 'https://example.com/' || i, CASE WHEN i = 7 THEN 'Ω~' END, 'active', 'x'
       FROM generate_series(1, 1500) AS i`,
    );
    await db.close();
    opened.splice(opened.indexOf(db), 1);
    const store = await openPostgresStore(url);
    try {
      const found = await store.links.list('big', { state: null, q: 'ω~' }, { limit: 10, after: null });
      expect(found.map((link) => link.code)).toEqual(['c7']);
    } finally {
      await store.close();
    }
    const again = await open(url);
    expect((await versions(again)).map((row) => row.version)).toEqual(ALL_VERSIONS);
    const index = await again.pool.query(`SELECT indexname FROM pg_indexes WHERE indexname IN ('links_search', 'links_search_grams')`);
    expect(index.rows).toEqual([{ indexname: 'links_search_grams' }]);
  });
});

describe('PostgreSQL migration 10', () => {
  it('brings a database that applied migration 7 as it was first shipped to the rate takes of now', async () => {
    const url = await newTestDatabase();
    const db = await open(url);
    // Back to migration 7 as shipped (its own text, migrations[6]): its rate_events_add, nothing of 8 to 10.
    await db.pool.query(`DROP FUNCTION rate_events_add; ALTER TABLE people DROP COLUMN operator; DROP TABLE team_invitations;
      DELETE FROM schema_migrations WHERE version >= 8`);
    await db.pool.query(migrations[6]!);
    const signatures = async (on: PgDatabase) =>
      (await on.pool.query(`SELECT pg_get_function_identity_arguments(oid) AS args FROM pg_proc WHERE proname = 'rate_events_add'`)).rows;
    expect(await signatures(db)).toEqual([{ args: 'keys text[], untils bigint[], seqs bigint[], now_ms bigint, lock_seed bigint' }]);
    await db.close();
    opened.splice(opened.indexOf(db), 1);
    const store = await openPostgresStore(url);
    try {
      const now = Date.now();
      expect((await store.rates.take('upgraded', 1, 60_000, now)).allowed).toBe(true);
      expect((await store.rates.take('upgraded', 1, 60_000, now + 1)).allowed).toBe(false);
    } finally {
      await store.close();
    }
    const again = await open(url);
    expect((await versions(again)).map((row) => row.version)).toEqual(ALL_VERSIONS);
    expect(await signatures(again)).toEqual([
      { args: 'keys text[], untils bigint[], seqs bigint[], read_keys text[], read_untils bigint[], read_seqs bigint[], lock_seed bigint' },
    ]);
  });
});
