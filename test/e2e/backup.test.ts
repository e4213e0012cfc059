import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorSetUp, runCli, runCliWith } from '../helpers/cli.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * `shortlinks backup FILE` against the real server process: a consistent copy of the SQLite file taken while
 * links are being made, which a second server started on it (the restore) serves whole.
 */
let dir: string;
let dbPath: string;
let token: string;
let team: string;
const servers: ServerProcess[] = [];

async function createLink(server: ServerProcess, n: number): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ team, destination: `https://example.com/${n}` });
  const res = await fetch(`http://127.0.0.1:${server.port}/v1/createLink`, { method: 'POST', headers, body });
  expect(res.status).toBe(200);
  return ((await res.json()) as { code: string }).code;
}

/** Every link code of the team, page by page. */
async function allCodes(server: ServerProcess): Promise<string[]> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const codes: string[] = [];
  let after: string | null = null;
  do {
    const res = await fetch(`http://127.0.0.1:${server.port}/v1/listLinks`, { method: 'POST', headers, body: JSON.stringify({ team, limit: 100, after }) });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: Array<{ code: string }>; next: string | null };
    codes.push(...page.data.map((link) => link.code));
    after = page.next;
  } while (after !== null);
  return codes;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-backup-'));
  dbPath = join(dir, 'live.db');
  ({ team, token } = await operatorSetUp(dbPath, 'backup@example.com'));
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('shortlinks backup FILE', () => {
  it('copies the database while links are being made; a server started on the copy has every link made before', async () => {
    const live = await startServerProcess({ dbPath });
    servers.push(live);
    const before: string[] = [];
    for (let i = 0; i < 60; i++) before.push(await createLink(live, i));

    // Four writers making links all through the backup.
    const during: string[] = [];
    let writing = true;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; writing; i++) during.push(await createLink(live, 1000 * (w + 1) + i));
    });
    const copy = join(dir, 'copy.db');
    const run = await runCli(dbPath, 'backup', copy, '--json');
    const madeWhileCopying = during.length;
    writing = false;
    await Promise.all(writers);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(`database: ${dbPath}\n`);
    const result = JSON.parse(run.stdout);
    expect(result).toEqual({ file: copy, bytes: expect.any(Number), links: expect.any(Number) });
    // The backup really ran under load: links were made while it did.
    expect(madeWhileCopying).toBeGreaterThan(0);

    // One consistent file: it passes the integrity check, and nothing is left beside it.
    expect(readdirSync(dir).filter((name) => name.startsWith('copy') || name.includes('partial'))).toEqual(['copy.db']);
    const db = new Database(copy, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }

    // The restore: a second server on the copy finds every link made before the backup began, and no link the
    // live database does not have.
    const restored = await startServerProcess({ dbPath: copy });
    servers.push(restored);
    const codes = await allCodes(restored);
    expect(codes).toEqual(expect.arrayContaining(before));
    expect([...before, ...during]).toEqual(expect.arrayContaining(codes));
    expect(codes).toHaveLength(result.links);
    expect(result.links).toBeGreaterThanOrEqual(before.length);
    expect(result.links).toBeLessThanOrEqual(before.length + during.length);
  });

  it('says what it did in a line without --json', async () => {
    const copy = join(dir, 'plain.db');
    const run = await runCli(dbPath, 'backup', copy);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^database: ${dbPath}\\nbacked up to ${copy}: \\d+ links, \\d+ bytes; the copy passed PRAGMA integrity_check\\. Restore it by starting the server with DATABASE_PATH=${copy}\\n$`),
    );
  });

  it('never overwrites a file, and writes nothing when it refuses', async () => {
    const existing = join(dir, 'existing.db');
    writeFileSync(existing, 'keep me');
    const run = await runCli(dbPath, 'backup', existing);
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `shortlinks: ${existing} exists already; name a new file\n` });
    expect(readdirSync(dir).filter((name) => name.includes('partial'))).toEqual([]);
  });

  it('refuses without a database, without FILE, in a missing folder, and on PostgreSQL, pointing to pg_dump', async () => {
    const nowhere = join(dir, 'none.db');
    const missing = await runCliWith({ env: { DATABASE_PATH: nowhere } }, 'backup', join(dir, 'x.db'));
    expect(missing).toMatchObject({ code: 1, stderr: `shortlinks: no SQLite database at ${nowhere}\n` });
    expect(existsSync(nowhere)).toBe(false);

    expect(await runCli(dbPath, 'backup')).toMatchObject({ code: 2, stderr: 'shortlinks: backup needs FILE\n' });
    const folder = join(dir, 'no-such-folder');
    expect(await runCli(dbPath, 'backup', join(folder, 'x.db'))).toMatchObject({ code: 1, stderr: `shortlinks: no folder ${folder}\n` });

    const postgres = await runCliWith({ env: { DATABASE_PATH: dbPath, DATABASE_URL: 'postgres://user:secret@db.internal:5432/links' } }, 'backup', join(dir, 'pg.db'));
    expect(postgres).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'shortlinks: backup copies the SQLite database at DATABASE_PATH, and DATABASE_URL is set: back PostgreSQL up with pg_dump (see the README)\n',
    });
    expect(existsSync(join(dir, 'pg.db'))).toBe(false);
  });

  it('refuses a SQLite file that is not a shortlinks database', async () => {
    const other = join(dir, 'other.db');
    const made = new Database(other);
    made.exec('CREATE TABLE notes (text TEXT)');
    made.close();
    const run = await runCliWith({ env: { DATABASE_PATH: other } }, 'backup', join(dir, 'other-copy.db'));
    expect(run).toMatchObject({ code: 1, stderr: `shortlinks: ${other} is not a shortlinks database (it has no links table); nothing was written\n` });
    expect(existsSync(join(dir, 'other-copy.db'))).toBe(false);
  });
});
