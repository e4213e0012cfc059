import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { migrations } from '../../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/ports.js';
import { olderDatabase } from '../helpers/older-database.js';

let dir: string;
let path: string;
let store: Store;
const now = new Date('2026-11-21T12:00:00Z');
const limits = { ...DEFAULT_LIMITS, perHour: 1000, perDay: 1000, firstWeekPerDay: 1000 };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-store-'));
  path = join(dir, 'nested', 'store.db');
  store = openSqliteStore(path);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function team() {
  const person = await store.people.add({ email: `p${Math.random()}@example.com`, passwordHash: null, agreedTerms: true }, now);
  return store.teams.add({ name: 'T', ownerId: person.id }, now);
}

describe('the SQLite store', () => {
  it('makes the folder, runs in WAL mode with foreign keys on, and records the schema version', async () => {
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    db.close();
  });

  it('opens an existing file again without re-running migrations, keeping its data', async () => {
    const t = await team();
    store.close();
    store = openSqliteStore(path);
    expect(await store.teams.get(t.id)).toEqual(t);
  });

  it('keeps the cursor secret across restarts', async () => {
    const secret = await store.settings.cursorSecret();
    store.close();
    store = openSqliteStore(path);
    expect((await store.settings.cursorSecret()).equals(secret)).toBe(true);
    expect(secret).toHaveLength(32);
  });

  it('rolls back a create that fails half-way (no code, name or event left behind)', async () => {
    const t = await team();
    await store.links.create({ teamId: t.id, teamCreatedAt: now, destination: 'https://a.example.com/', name: 'taken', note: null }, limits, now);
    const db = new Database(path, { readonly: true });
    const count = () => db.prepare('SELECT (SELECT count(*) FROM codes) + (SELECT count(*) FROM link_events) AS n').get();
    const before = count();
    await expect(
      store.links.create({ teamId: t.id, teamCreatedAt: now, destination: 'https://b.example.com/', name: 'taken', note: null }, limits, now),
    ).rejects.toMatchObject({ code: 'name_taken' });
    expect(count()).toEqual(before);
    db.close();
  });

  it('never issues a code twice, deleted links included', async () => {
    const t = await team();
    const link = await store.links.create({ teamId: t.id, teamCreatedAt: now, destination: 'https://a.example.com/', name: null, note: null }, limits, now);
    await store.links.delete(link.id, limits, now);
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT code FROM codes').pluck().all()).toContain(link.code);
    db.close();
  });

  it('sees limits set by another connection (the CLI) on the next read', async () => {
    expect((await store.settings.limits()).callsPerMinute).toBe(600);
    const other = openSqliteStore(path);
    await other.settings.setLimits({ callsPerMinute: 5 });
    other.close();
    // The next request is a callback of its own: a look at the database is shared within one callback only.
    await new Promise((resolve) => setImmediate(resolve));
    expect((await store.settings.limits()).callsPerMinute).toBe(5);
  });

  it('drops clicks for a link deleted before they were written', async () => {
    const t = await team();
    const link = await store.links.create({ teamId: t.id, teamCreatedAt: now, destination: 'https://a.example.com/', name: null, note: null }, limits, now);
    await store.links.delete(link.id, limits, now);
    await store.clicks.add(new Map([[link.id, new Map([['2026-11-21', 4]])]]));
    expect(await store.clicks.daily(link.id, '2026-11-01', '2026-11-30')).toEqual([]);
  });
});

describe('migration 9', () => {
  it('keeps an operator\'s team link limit, stored as teamLinks before, as maxLinksPerTeam', async () => {
    store.close();
    // As a database made by an earlier version holds it: the limits as set, under the old key.
    const older = join(dir, 'older.db');
    const db = olderDatabase(older, 8);
    db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('limits', ?)").run(JSON.stringify({ teamLinks: 40, perHour: 7 }));
    db.close();

    store = openSqliteStore(older);
    expect(await store.settings.limits()).toEqual({ ...DEFAULT_LIMITS, maxLinksPerTeam: 40, perHour: 7 });
    const reopened = new Database(older, { readonly: true });
    const stored = JSON.parse(reopened.prepare("SELECT value FROM settings WHERE key = 'limits'").pluck().get() as string);
    reopened.close();
    expect(stored).toEqual({ maxLinksPerTeam: 40, perHour: 7 });
  });
});

describe('MCP sessions', () => {
  const one = Buffer.alloc(32, 1);
  const two = Buffer.alloc(32, 2);
  const later = (ms: number) => new Date(now.getTime() + ms);

  it('remembers ended sessions until they would have expired anyway', async () => {
    await store.mcpSessions.end(one, later(60_000), now);
    expect(await store.mcpSessions.ended(one)).toBe(true);
    expect(await store.mcpSessions.ended(two)).toBe(false);
    // Ending another one after the first expired forgets the first.
    await store.mcpSessions.end(two, later(120_000), later(60_000));
    expect(await store.mcpSessions.ended(one)).toBe(false);
    expect(await store.mcpSessions.ended(two)).toBe(true);
  });
});
