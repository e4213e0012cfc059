import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/auth/personal-token.js';
import { cryptoRandom } from '../../src/domain/random.js';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { cachedRead } from '../../src/store/sqlite/read-cache.js';
import type { Store } from '../../src/store/ports.js';

/** The hot path's cached reads answer exactly what the database holds: each test changes it and reads at once. */
let dir: string;
let path: string;
const now = new Date('2026-11-21T12:00:00Z');
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-read-cache-'));
  path = join(dir, 'store.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('cachedRead', () => {
  let db: Db;
  let other: Db;
  let reads: number;
  let valueOf: (key: string) => { value: string } | null;

  beforeEach(() => {
    db = openDatabase(path);
    db.exec('CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT); CREATE TABLE unrelated (x)');
    db.prepare("INSERT INTO kv VALUES ('a', 'one')").run();
    other = new Database(path);
    reads = 0;
    const select = db.prepare('SELECT value FROM kv WHERE key = ?');
    valueOf = cachedRead(db, 100, (key: string) => key, (key: string) => {
      reads += 1;
      return (select.get(key) as { value: string } | undefined) ?? null;
    });
  });
  afterEach(() => {
    other.close();
    db.close();
  });

  it('answers from memory while nothing is written, unknown keys included', () => {
    expect(valueOf('a')).toEqual({ value: 'one' });
    expect(valueOf('a')).toEqual({ value: 'one' });
    expect(valueOf('b')).toBeNull();
    expect(valueOf('b')).toBeNull();
    expect(reads).toBe(2);
  });

  it('reads again after any row this connection writes, in any table', () => {
    valueOf('a');
    db.prepare('INSERT INTO unrelated VALUES (1)').run();
    valueOf('a');
    db.prepare("UPDATE kv SET value = 'two' WHERE key = 'a'").run();
    expect(valueOf('a')).toEqual({ value: 'two' });
    expect(reads).toBe(3);
  });

  it("sees another connection's commit from the next turn of the event loop", async () => {
    valueOf('a');
    other.prepare("UPDATE kv SET value = 'two' WHERE key = 'a'").run();
    await nextTurn();
    expect(valueOf('a')).toEqual({ value: 'two' });
  });

  it("sees another connection's commit in the next task, even in the same turn as a timer that read before it", async () => {
    // A request read from its socket after another process committed must see the commit, though a timer of the
    // same turn of the event loop (run before sockets are read) asked SQLite just before that commit.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const client = connect((server.address() as { port: number }).port, '127.0.0.1');
    const socket = await accepted;
    valueOf('a');
    const seen = new Promise((resolve) => socket.once('data', () => resolve(valueOf('a'))));
    setTimeout(() => {
      client.write('x'); // on loopback, ready to read in this turn's poll phase
      valueOf('a');
      other.prepare("UPDATE kv SET value = 'two' WHERE key = 'a'").run();
    }, 0);
    try {
      expect(await seen).toEqual({ value: 'two' });
    } finally {
      client.destroy();
      server.close();
    }
  });

  it('reads inside a transaction from the database and keeps nothing of one rolled back', () => {
    valueOf('a');
    expect(() =>
      db.transaction(() => {
        db.prepare("UPDATE kv SET value = 'two' WHERE key = 'a'").run();
        expect(valueOf('a')).toEqual({ value: 'two' });
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(valueOf('a')).toEqual({ value: 'one' });
  });

  it('hands out frozen values, so no caller can change what the next one is told', () => {
    const value = valueOf('a')!;
    expect(() => Object.assign(value, { value: 'changed' })).toThrow(TypeError);
    expect(valueOf('a')).toEqual({ value: 'one' });
  });
});

describe('the store reads the API makes on every call', () => {
  let store: Store;
  let other: Store;

  beforeEach(() => {
    store = openSqliteStore(path);
    other = openSqliteStore(path);
  });
  afterEach(() => {
    other.close();
    store.close();
  });

  /** A member of a team someone else owns: the operator may remove them (a team keeps its only owner). */
  async function actor() {
    const add = (email: string) => store.people.add({ email, passwordHash: null, agreedTerms: true }, now);
    const owner = await add(`o${Math.random()}@example.com`);
    const person = await add(`p${Math.random()}@example.com`);
    const team = await store.teams.add({ name: 'T', ownerId: owner.id }, now);
    await store.teams.addMember(team.id, person.id, now);
    const { record } = await issueToken(store, cryptoRandom, { personId: person.id, teamId: team.id, scopes: null, limited: false }, now);
    return { personId: person.id, teamId: team.id, tokenId: record.id };
  }

  it('a token revoked here or by another process shows revoked on the next read', async () => {
    const a = await actor();
    const b = await actor();
    expect((await store.tokens.grant(a.tokenId))!.revokedAt).toBeNull();
    expect((await store.tokens.grant(b.tokenId))!.revokedAt).toBeNull();
    await store.tokens.revoke(a.tokenId, now);
    expect((await store.tokens.grant(a.tokenId))!.revokedAt).toBe(now.toISOString());
    expect((await store.tokens.grant(b.tokenId))!.revokedAt).toBeNull();
    await other.tokens.revoke(b.tokenId, now);
    await nextTurn();
    expect((await store.tokens.grant(b.tokenId))!.revokedAt).toBe(now.toISOString());
  });

  it("a membership ended here or by another process ends the token's grant and the member check", async () => {
    const a = await actor();
    expect(await store.teams.isMember(a.teamId, a.personId)).toBe(true);
    expect((await store.tokens.grant(a.tokenId))!.personInTeam).toBe(true);
    expect(await store.teams.removeMember(a.teamId, a.personId, 'operator')).toBe('removed');
    expect(await store.teams.isMember(a.teamId, a.personId)).toBe(false);
    expect((await store.tokens.grant(a.tokenId))!.personInTeam).toBe(false);
    await other.teams.addMember(a.teamId, a.personId, now);
    await nextTurn();
    expect(await store.teams.isMember(a.teamId, a.personId)).toBe(true);
    expect((await store.tokens.grant(a.tokenId))!.personInTeam).toBe(true);
  });

  it('a link changed here or by another process reads changed', async () => {
    const a = await actor();
    const limits = await store.settings.limits();
    const link = await store.links.create({ teamId: a.teamId, teamCreatedAt: now, destination: 'https://a.example.com/', name: null, note: null }, limits, now);
    expect((await store.links.findByCode(link.code))!.note).toBeNull();
    await store.links.setNote(link.id, 'changed', now);
    expect((await store.links.findByCode(link.code))!.note).toBe('changed');
    await other.links.setState(link.code, 'disabled', now);
    await nextTurn();
    expect((await store.links.findByCode(link.code))!.state).toBe('disabled');
  });
});
