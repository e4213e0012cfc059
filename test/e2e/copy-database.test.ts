/**
 * `shortlinks copy-database --to postgres://...` end to end: a real SQLite database made by the real CLI and the
 * SQLite store's ports, copied by the compiled CLI run as its own process (build first when running this file
 * alone) into fresh databases of the run's PostgreSQL cluster, then compared row for row.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorSketch } from '../helpers/visitors.js';
import { LinkIds } from '../../src/domain/ids.js';
import { PgChanges } from '../../src/store/postgres/changes.js';
import { openDatabase as openPostgres, type PgDatabase } from '../../src/store/postgres/database.js';
import { pgLinks } from '../../src/store/postgres/links.js';
import { pgOperations } from '../../src/store/postgres/operations.js';
import type { Store } from '../../src/store/ports.js';
import { openDatabase as openSqlite } from '../../src/store/sqlite/database.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { SQLITE_ONLY_TABLES } from '../../src/store/sqlite/migrations.js';
import { sqliteRates } from '../../src/store/sqlite/rates.js';
import { seedBigSqlite } from '../helpers/big-sqlite.js';
import { runCliWith, type Run } from '../helpers/cli.js';
import { startServerProcess } from '../helpers/server-process.js';
import { newTestDatabase } from '../helpers/shared-postgres.js';
import { ROOMY, ScriptedRandom } from '../store/contract/fixtures.js';

const PASSWORD = 'correct horse battery staple';
/** Put into every --to URL: the cluster trusts local connections, so it is accepted, and must never be printed. */
const DB_PASSWORD = 'pg-Secret-4711';

let dir: string;
let dbPath: string;
/** What the data was made with, for the checks after the copy. */
const made = { deletedCode: '', disabledCode: '', retiredName: '', keptName: '', teamId: '', token: '', movedCode: '' };

function cli(env: Record<string, string | undefined>, ...args: string[]): Promise<Run> {
  return runCliWith({ env: { DATABASE_PATH: dbPath, DATABASE_URL: undefined, ...env } }, ...args);
}

/** Runs the CLI on this file's database; fails the test unless it succeeded. */
async function ok(...args: string[]): Promise<Record<string, unknown>> {
  const run = await cli({}, ...args, '--json');
  expect(run.stderr).toMatch(/^(database:|created a new database at) /);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** A copy of this file's database named `name`, changed by `change`: what the service itself would never write. */
function alteredCopy(name: string, change: (db: Database.Database) => void): string {
  const path = join(dir, name);
  const source = new Database(dbPath);
  source.exec(`VACUUM INTO '${path.replaceAll("'", "''")}'`);
  source.close();
  const db = new Database(path);
  change(db);
  db.close();
  return path;
}

/** A fresh database of the cluster, its URL holding DB_PASSWORD. */
async function freshTarget(): Promise<string> {
  const url = new URL(await newTestDatabase());
  url.password = DB_PASSWORD;
  return url.toString();
}

/** `host:port/database` of a URL: what copy-database names its target by. */
const nameOf = (url: string) => `${new URL(url).host}${new URL(url).pathname}`;

/** SQLite's tables, as copy-database sees them: ordinary tables only (FTS5 tables and their shadows left out). */
function sqliteTables(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const list = db.pragma('table_list') as Array<{ schema: string; name: string; type: string }>;
    return list.filter((t) => t.schema === 'main' && t.type === 'table' && !t.name.startsWith('sqlite_') && !SQLITE_ONLY_TABLES.includes(t.name)).map((t) => t.name).sort();
  } finally {
    db.close();
  }
}

/** One value made comparable across the two databases: SQLite's 0/1 flags and PostgreSQL's booleans, blobs. */
function normal(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Buffer.isBuffer(value)) return `blob:${value.toString('hex')}`;
  return value;
}

/** Every row of a table, each as the JSON of its values in column order, sorted. */
function normalRows(rows: Array<Record<string, unknown>>): string[] {
  return rows.map((row) => JSON.stringify(Object.values(row).map(normal))).sort();
}

function sqliteRows(path: string, table: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return normalRows(db.prepare(`SELECT * FROM ${table}`).all() as Array<Record<string, unknown>>);
  } finally {
    db.close();
  }
}

function sqliteCounts(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    return Object.fromEntries(sqliteTables(path).map((t) => [t, db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]));
  } finally {
    db.close();
  }
}

async function withPostgres<T>(url: string, work: (db: PgDatabase) => Promise<T>): Promise<T> {
  const db = await openPostgres(url);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

async function postgresCounts(db: PgDatabase, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = (await db.pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n;
  return counts;
}

/** Everything the service keeps, made the ways the service makes it: the CLI, and the store's ports. */
async function fillDatabase(): Promise<void> {
  const owner = await ok('person', 'add', '--email', 'owner@example.com', '--password', PASSWORD, '--agree-terms');
  await ok('person', 'add', '--email', 'invited@example.com'); // a set-password link, no password
  await ok('person', 'invite', '--email', 'newcomer@example.com'); // a sign-up link
  await ok('person', 'add', '--email', 'helper@example.com', '--password', PASSWORD);
  await ok('person', 'admin', '--email', 'helper@example.com'); // an operator: people.operator must come along
  const team = await ok('team', 'add', '--name', 'Owners', '--owner', 'owner@example.com');
  await ok('team', 'add', '--name', 'Empty', '--owner', 'helper@example.com');
  made.teamId = team.id as string;
  await ok('member', 'add', '--team', made.teamId, '--email', 'invited@example.com');
  made.token = (await ok('token', 'create', '--email', 'owner@example.com', '--team', made.teamId, '--scopes', 'createLink,getLink', '--limited')).token as string;
  const revoked = await ok('token', 'create', '--email', 'owner@example.com', '--team', made.teamId);
  await ok('token', 'revoke', revoked.id as string);
  await ok('limits', 'set', '--team-links', '500', '--per-hour', '500', '--reports-to-flag', '1');
  await ok('block', 'add', 'Evil.Example');
  await ok('block', 'add', 'worse.example');

  const store: Store = openSqliteStore(dbPath);
  try {
    const teamCreatedAt = new Date(team.createdAt as string);
    const create = (name: string | null, note: string | null = null, destination = 'https://example.com/') =>
      store.links.create({ teamId: made.teamId, teamCreatedAt, destination, name, note }, ROOMY, new Date());
    const links = [];
    for (let i = 0; i < 12; i++) links.push(await create(i % 3 === 0 ? `name-${i}` : null, i % 4 === 0 ? `note ${i} ✓` : null, `https://example.com/${i}`));
    // A rename leaves the old name kept by the team; a deletion retires the name and keeps the code issued.
    made.keptName = links[3]!.name!;
    await store.links.rename(links[3]!.id, 'renamed-3', ROOMY, new Date());
    made.retiredName = links[6]!.name!;
    made.deletedCode = links[6]!.code;
    await store.links.delete(links[6]!.id, ROOMY, new Date());
    await store.links.setDestination(links[1]!.id, 'https://example.org/moved', ROOMY, new Date());
    made.movedCode = links[1]!.code;
    await store.links.setNote(links[2]!.id, 'a note', new Date());
    // Every option, the flag and the tags' rows among them.
    await store.links.setOptions(
      links[4]!.id,
      { expiresAt: '2030-01-01T00:00:00.000Z', maxClicks: 9, passwordHash: 'scrypt$copied', tags: ['copied', 'tags'], forwardQuery: true },
      ROOMY,
      new Date(),
    );
    made.disabledCode = links[5]!.code;
    await store.clicks.add(new Map([
      [links[0]!.id, new Map([['2026-01-01', 3], ['2026-01-02', 40_000_000_000]])],
      [links[1]!.id, new Map([['2026-01-01', 1]])],
    ]));
    // Click analytics: a facet, a not-counted class and a visitor (with the team's sums), and today's visitor key.
    const today = new Date().toISOString().slice(0, 10);
    await store.analytics.visitorKey(today);
    await store.analytics.add({
      facets: [{ linkId: links[0]!.id, day: today, facet: 'source', value: 'qr', count: 2 }],
      uncounted: [{ linkId: links[0]!.id, day: today, class: 'preview', count: 1 }],
      visitors: [{ linkId: links[0]!.id, day: today, sketch: visitorSketch(1) }],
    });
    const rule = { reportsToFlag: 1, establishedAfterHours: 72 };
    await store.moderation.report(links[4]!.id, owner.id as string, 'spam', rule, new Date());
    await store.moderation.askForReview(links[4]!.id, owner.id as string, 'it is fine', new Date());
    const claim = await store.idempotency.begin({ personId: owner.id as string, operation: 'createLink', key: 'k1' }, 'body-hash', new Date());
    if (claim.kind === 'new') await store.idempotency.finish({ personId: owner.id as string, operation: 'createLink', key: 'k1' }, claim.claim, 200, '{"ok":true}');
    await store.webSessions.add(randomBytes(32), { personId: owner.id as string, csrfSecret: 'csrf', expiresAt: new Date(Date.now() + 3_600_000).toISOString() }, new Date());
    await store.settings.cursorSecret();
    // An invitation to someone with no account yet, made by a member (invited_by refers to people).
    await store.invitations.invite(made.teamId, 'later@example.com', owner.id as string, new Date());

    const redirect = 'http://127.0.0.1:33418/callback';
    const client = await store.oauth.addClient(
      { id: 'oc_desk', secretHash: randomBytes(32), name: 'Desk', redirectUris: [redirect], metadata: { client_name: 'Desk' } },
      new Date(),
    );
    await store.oauth.saveMetadataDocument(
      { id: 'https://assistant.example/client.json', name: 'Assistant', redirectUris: [redirect], metadata: {}, freshUntil: new Date().toISOString() },
      new Date(),
    );
    const codeHash = randomBytes(32);
    const grantId = await store.oauth.saveCode({
      codeHash, personId: owner.id as string, clientId: client.id, scopes: ['links'], redirectUri: redirect,
      codeChallenge: 'challenge', resource: 'https://links.example/mcp', expiresAt: new Date(Date.now() + 600_000).toISOString(),
    }, new Date());
    await store.oauth.useCode(codeHash, new Date());
    await store.oauth.saveTokens({
      grantId, family: 'family-1', scopes: ['links'], resource: 'https://links.example/mcp', accessHash: randomBytes(32),
      accessExpiresAt: new Date(Date.now() + 3_600_000).toISOString(), refreshHash: randomBytes(32),
      refreshExpiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    }, new Date());
    // Rate limits as processes share them: a call counted, and a sign-in failure in a row; they carry over too. (The
    // file's limiter itself: the store's counts in memory while its process is alone on the file.)
    const shared = sqliteRates(dbPath);
    await shared.take('calls:person:copied', 600, 60_000, Date.now());
    await shared.startAttempt(['signin:copied@example.com'], { freeFailures: 5, firstWaitMs: 1000, maxWaitMs: 900_000, quietMs: 900_000 }, Date.now());
    shared.close();
    // A team's own domain, verified on the operator's word, and one removed (kept so its name stays off PUBLIC_URL).
    await store.domains.add({ teamId: made.teamId, domain: 'go.copied.example', token: 'copied-token', proof: 'operator' }, 'operator', 5, new Date());
    await store.domains.add({ teamId: made.teamId, domain: 'gone.copied.example', token: 'gone-token', proof: 'dns' }, 'operator', 5, new Date());
    await store.domains.remove('gone.copied.example', 'operator');
    // The lease of the daily re-check, as a process holding it leaves it.
    await store.leases.acquire('unsafe-recheck', 'process-1', new Date(Date.now() + 3_600_000), new Date());
    // What MCP 2025-11-25 sessions share across processes: an ended session, and a question answered for another.
    await store.mcpSessions.end(randomBytes(32), new Date(Date.now() + 86_400_000), new Date());
    const asked = { sessionHash: randomBytes(32), questionId: 'question-1', personId: owner.id as string, expiresAt: new Date(Date.now() + 600_000) };
    await store.mcpSessions.ask(asked, 5, new Date());
    await store.mcpSessions.answer(asked.sessionHash, 'question-1', '{"jsonrpc":"2.0","id":"question-1","result":{}}', new Date());
    // The owner's identity at a single sign-on provider.
    await store.oidcIdentities.link({ issuer: 'https://id.example.com', subject: 'owner-at-provider', personId: owner.id as string }, new Date());
    // A message waiting in the outbox, and an email change waiting for its link.
    await store.mailOutbox.enqueue({ to: 'copied@example.com', subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' }, new Date());
    // A webhook endpoint with a delivery waiting (its secret copied as it is: signing needs it).
    await store.webhooks.add({ id: 'whk_copied', teamId: made.teamId, url: 'https://hooks.example.com/copied', events: ['link.created'], secret: 'whsec_Y29waWVk', createdAt: new Date().toISOString() }, 10);
    await store.webhooks.enqueue({ eventId: 'msg_copied', teamId: made.teamId, type: 'webhook.test', payload: '{"type":"webhook.test"}', at: new Date() }, 'whk_copied');
    await store.emailChanges.issue({ personId: owner.id as string, email: 'moved@example.com', tokenHash: randomBytes(32), expiresAt: new Date(Date.now() + 3_600_000) }, new Date());
  } finally {
    await store.close();
  }
  await ok('link', 'disable', made.disabledCode);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-copy-'));
  dbPath = join(dir, 'shortlinks.db');
  await fillDatabase();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('shortlinks copy-database', () => {
  it('has something in every table to copy', () => {
    const counts = sqliteCounts(dbPath);
    expect(Object.entries(counts).filter(([, n]) => n === 0).map(([table]) => table)).toEqual([]);
  });

  it('copies every table into an empty PostgreSQL database, prints the counts, and never the password', async () => {
    const target = await freshTarget();
    const run = await cli({}, 'copy-database', '--to', target, '--json');
    expect(run.stderr).toBe(`database: ${dbPath}\n`);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ tables: sqliteCounts(dbPath), to: nameOf(target) });
    expect(run.stdout + run.stderr).not.toContain(DB_PASSWORD);

    await withPostgres(target, async (db) => {
      for (const table of sqliteTables(dbPath)) {
        const { rows } = await db.pool.query(`SELECT * FROM ${table}`);
        expect(normalRows(rows), table).toEqual(sqliteRows(dbPath, table));
      }
    });
  });

  it('prints a table of counts without --json', async () => {
    const target = await freshTarget();
    const run = await cli({}, 'copy-database', '--to', target);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`database: ${dbPath}`);
    expect(lines[1]).toBe(`copied to ${nameOf(target)}; rows in each table, the same in both databases:`);
    const counts = Object.entries(sqliteCounts(dbPath)).sort(([a], [b]) => a.localeCompare(b));
    expect(lines.slice(2).map((line) => line.trim().split(/\s+/))).toEqual(counts.map(([t, n]) => [t, String(n)]));
    expect(run.stdout + run.stderr).not.toContain(DB_PASSWORD);
  });

  it('leaves the copy ready to go on: new links numbered after the copied ones, issued codes never again', async () => {
    const target = await freshTarget();
    expect((await cli({}, 'copy-database', '--to', target)).code).toBe(0);
    await withPostgres(target, async (db) => {
      const before = (await db.pool.query('SELECT max(seq) AS seq FROM links')).rows[0].seq as number;
      // The next code drawn is the deleted link's: the copied codes table must make the store draw another.
      const random = new ScriptedRandom();
      random.drawNext(made.deletedCode);
      const changes = await PgChanges.start(target, db.pool);
      try {
        const links = pgLinks(db.pool, random, new LinkIds(random), pgOperations(db.pool, changes));
        const team = (await db.pool.query('SELECT created_at FROM teams WHERE id = $1', [made.teamId])).rows[0];
        const link = await links.create(
          { teamId: made.teamId, teamCreatedAt: new Date(team.created_at), destination: 'https://example.net/', name: null, note: null },
          ROOMY,
          new Date(),
        );
        expect(link.seq).toBeGreaterThan(before);
        expect(link.code).not.toBe(made.deletedCode);
        const { rows } = await db.pool.query('SELECT name, team_id, link_id, retired FROM names WHERE name = ANY($1) ORDER BY name', [
          [made.keptName, made.retiredName],
        ]);
        expect(rows).toEqual(
          [
            { name: made.keptName, team_id: made.teamId, link_id: null, retired: false },
            { name: made.retiredName, team_id: made.teamId, link_id: null, retired: true },
          ].sort((a, b) => a.name.localeCompare(b.name)),
        );
        const count = (await db.pool.query('SELECT link_count FROM teams WHERE id = $1', [made.teamId])).rows[0].link_count;
        expect(count).toBe((await db.pool.query('SELECT count(*) AS n FROM links WHERE team_id = $1', [made.teamId])).rows[0].n);
      } finally {
        await changes.close();
      }
    });
  });

  it('refuses a database that is not empty, and changes nothing there (exit 1)', async () => {
    const target = await freshTarget();
    expect((await cli({}, 'copy-database', '--to', target)).code).toBe(0);
    const tables = sqliteTables(dbPath);
    const before = await withPostgres(target, (db) => postgresCounts(db, tables));
    const again = await cli({}, 'copy-database', '--to', target);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^shortlinks: the PostgreSQL database is not empty \([a-z_, ]+ hold rows\); copy-database fills only an empty one; nothing was copied to \S+\n$/);
    expect(again.stderr).not.toContain(DB_PASSWORD);
    expect(await withPostgres(target, (db) => postgresCounts(db, tables))).toEqual(before);
  });

  it('rolls everything back when a count differs, naming what differs (exit 1)', async () => {
    // A copy of the file whose stored link count of a team is off: the copy counts the links itself, and differs.
    const drifted = alteredCopy('drifted.db', (db) => db.prepare('UPDATE teams SET link_count = link_count + 5 WHERE id = ?').run(made.teamId));
    const target = await freshTarget();
    const run = await runCliWith({ env: { DATABASE_PATH: drifted, DATABASE_URL: undefined } }, 'copy-database', '--to', target);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^shortlinks: teams\\.link_count differs for id ${made.teamId}: \\d+ in SQLite, \\d+ in PostgreSQL; nothing was copied to \\S+\\n$`));
    const counts = await withPostgres(target, (pg) => postgresCounts(pg, sqliteTables(drifted)));
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  });

  it('names the table of a row PostgreSQL cannot hold (text with U+0000, written into the file by hand) and copies nothing', async () => {
    const tampered = alteredCopy('tampered.db', (db) => db.prepare('UPDATE teams SET name = ? WHERE id = ?').run('Nul\0Team', made.teamId));
    const target = await freshTarget();
    const run = await runCliWith({ env: { DATABASE_PATH: tampered, DATABASE_URL: undefined } }, 'copy-database', '--to', target);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `shortlinks: table teams holds a row PostgreSQL refuses (Text may not contain the NUL character (U+0000)); nothing was copied to ${nameOf(target)}\n`,
    );
    const counts = await withPostgres(target, (pg) => postgresCounts(pg, sqliteTables(tampered)));
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  });

  it('leaves a copy the real server serves: redirects, and the copied token works', async () => {
    const target = await freshTarget();
    expect((await cli({}, 'copy-database', '--to', target)).code).toBe(0);
    const server = await startServerProcess({ dbPath: join(dir, 'unused.db'), env: { DATABASE_URL: target } });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const redirect = await fetch(`${base}/${made.movedCode}`, { redirect: 'manual' });
      expect([redirect.status, redirect.headers.get('location')]).toEqual([302, 'https://example.org/moved']);
      const got = await fetch(`${base}/v1/getLink`, {
        method: 'POST',
        headers: { authorization: `Bearer ${made.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ code: made.movedCode }),
      });
      expect(got.status).toBe(200);
      expect(await got.json()).toMatchObject({ code: made.movedCode, destination: 'https://example.org/moved' });
      expect(existsSync(join(dir, 'unused.db'))).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('refuses without --to, with a URL that is not postgres://, or with DATABASE_URL set (exit 2), echoing no URL', async () => {
    const missing = await cli({}, 'copy-database');
    expect([missing.code, missing.stderr]).toEqual([2, 'shortlinks: missing --to\n']);

    const mysql = await cli({}, 'copy-database', '--to', `mysql://root:${DB_PASSWORD}@localhost/links`);
    expect(mysql.code).toBe(2);
    expect(mysql.stderr).toMatch(/^shortlinks: --to must be a postgres:\/\/ URL naming a database/);
    const noDatabase = await cli({}, 'copy-database', '--to', `postgres://root:${DB_PASSWORD}@localhost`);
    expect(noDatabase.code).toBe(2);

    const live = await cli({ DATABASE_URL: `postgres://u:${DB_PASSWORD}@localhost/live` }, 'copy-database', '--to', await freshTarget());
    expect(live.code).toBe(2);
    expect(live.stderr).toBe('shortlinks: copy-database copies the SQLite database at DATABASE_PATH; run it without DATABASE_URL set\n');
    for (const run of [mysql, noDatabase, live]) expect(run.stdout + run.stderr).not.toContain(DB_PASSWORD);
  });

  it('refuses a missing SQLite file, creating none, and a server it cannot reach, without the password (exit 1)', async () => {
    const nowhere = join(dir, 'none', 'missing.db');
    const missing = await runCliWith({ env: { DATABASE_PATH: nowhere, DATABASE_URL: undefined } }, 'copy-database', '--to', await freshTarget());
    expect([missing.code, missing.stderr]).toEqual([1, `shortlinks: no SQLite database at ${nowhere}\n`]);
    expect(existsSync(nowhere)).toBe(false);

    const unreachable = await cli({}, 'copy-database', '--to', `postgres://someone:${DB_PASSWORD}@127.0.0.1:1/shortlinks`);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^shortlinks: could not copy to 127\.0\.0\.1:1\/shortlinks: [^\n]+\n$/);
    expect(unreachable.stderr).not.toContain(DB_PASSWORD);
    const inQuery = await cli({}, 'copy-database', '--to', `postgres://someone@127.0.0.1:1/shortlinks?password=${DB_PASSWORD}`);
    expect(inQuery.code).toBe(1);
    expect(inQuery.stderr).not.toContain(DB_PASSWORD);
  });
});

/**
 * How many times the big team's row was updated, as PostgreSQL's statistics have it. A backend hands its counts
 * over when its transaction has ended and it is idle or gone, so this waits for them to arrive (all at once: they
 * were made in one transaction).
 */
async function teamUpdates(db: PgDatabase): Promise<number> {
  for (const deadline = Date.now() + 10_000; ; ) {
    const { rows } = await db.pool.query(`SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'teams'`);
    const updates = Number(rows[0]?.n_tup_upd ?? 0);
    if (updates > 0 || Date.now() > deadline) return updates;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('shortlinks copy-database on a large database, written to while it copies', () => {
  // 20 batches of links, spread over three of the search index's buckets (8,192 links each). The copy's speed over
  // 100,000 links is measured by the bench (BENCH_ONLY=copy), not here, where a wall clock would measure the load
  // of the machine running the tests as much as the copy.
  const LINKS = 20_000;
  let bigPath: string;

  beforeAll(() => {
    bigPath = join(dir, 'big.db');
    seedBigSqlite(bigPath, LINKS);
  }, 120_000);

  it(`copies ${LINKS.toLocaleString('en')} links from one consistent snapshot while new links are added`, async () => {
    const target = await freshTarget();
    // A writer adds links (each one raising its team's link_count by trigger) throughout the copy. Were tables read
    // at different moments, teams.link_count would not match the links copied, and the copy would refuse.
    const writer = openSqlite(bigPath);
    const insert = writer.prepare(`INSERT INTO links (id, team_id, code, destination, state, created_at)
      VALUES (?, 'team_big', ?, 'https://example.com/new', 'active', '2026-01-02T00:00:00.000Z')`);
    let written = 0;
    const timer = setInterval(() => insert.run(`link_new_${written}`, `N${written++}`), 2);
    let run: Run;
    try {
      run = await cli({ DATABASE_PATH: bigPath }, 'copy-database', '--to', target, '--json');
    } finally {
      clearInterval(timer);
      writer.close();
    }
    expect(run.stderr).toBe(`database: ${bigPath}\n`);
    expect(run.code).toBe(0);
    const { tables } = JSON.parse(run.stdout) as { tables: Record<string, number> };
    expect(written).toBeGreaterThan(0);
    expect(tables.links).toBeGreaterThanOrEqual(LINKS);
    expect(tables.links).toBeLessThanOrEqual(LINKS + written);
    expect(tables.clicks).toBe(LINKS / 2);
    await withPostgres(target, async (db) => {
      const { rows } = await db.pool.query(`SELECT link_count FROM teams WHERE id = 'team_big'`);
      expect(rows[0].link_count).toBe(tables.links);
      // The team's row is updated once per INSERT into links (the count's trigger runs per statement), so its
      // updates count the statements the links took: batches of 1,000, not a statement (or a trigger run) per link.
      expect(await teamUpdates(db)).toBe(Math.ceil(tables.links / 1_000));
    });
  }, 120_000);
});
