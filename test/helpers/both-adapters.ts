import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Random } from '../../src/domain/random.js';
import type { Store } from '../../src/store/ports.js';
import { openDatabase as openPostgres, type PgPool } from '../../src/store/postgres/database.js';
import { pgClicks } from '../../src/store/postgres/clicks.js';
import { pgIdempotency } from '../../src/store/postgres/idempotency.js';
import { pgInvitations } from '../../src/store/postgres/invitations.js';
import { pgOAuth } from '../../src/store/postgres/oauth.js';
import { pgPasswordLinks } from '../../src/store/postgres/password-links.js';
import { pgPeople } from '../../src/store/postgres/people.js';
import { pgSettings } from '../../src/store/postgres/settings.js';
import { pgTeams } from '../../src/store/postgres/teams.js';
import { pgTokens } from '../../src/store/postgres/tokens.js';
import { pgWebSessions } from '../../src/store/postgres/web-sessions.js';
import { transaction } from '../../src/store/postgres/query.js';
import { openDatabase as openSqlite } from '../../src/store/sqlite/database.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { newMigratedTestDatabase } from './shared-postgres.js';

/** The ports the PostgreSQL adapter has beside links and moderation (which its index.ts adds). */
export type PortsUnderTest = Pick<
  Store,
  'people' | 'teams' | 'tokens' | 'clicks' | 'settings' | 'idempotency' | 'webSessions' | 'passwordLinks' | 'oauth' | 'invitations'
>;

/** One adapter, with what a scenario needs beyond the ports: links to count clicks for, and a row count. */
export interface Side {
  store: PortsUnderTest;
  /** A link row of the team, written directly (the links port is not part of this comparison). */
  addLink(id: string, teamId: string, code: string): Promise<void>;
  deleteLink(id: string): Promise<void>;
  count(table: string): Promise<number>;
  /** Writes the tokens' pending last-used times (the store's close does it too). */
  flushTouches(): Promise<void>;
}

/**
 * The same stream of bytes on every call, so both adapters draw the same ids and their answers can be compared
 * whole.
 */
export function seededRandom(): Random {
  let counter = 0;
  return {
    bytes(n) {
      const chunks: Buffer[] = [];
      for (let length = 0; length < n; length += 32) chunks.push(createHash('sha256').update(`seed ${counter++}`).digest());
      return Buffer.concat(chunks).subarray(0, n);
    },
  };
}

/** The PostgreSQL factories assembled into the ports under test, on a migrated pool. */
export function postgresPorts(pool: PgPool, random: Random) {
  return {
    people: pgPeople(pool, random),
    teams: pgTeams(pool, random),
    tokens: pgTokens(pool, random),
    clicks: pgClicks(pool),
    // Nothing else writes the settings in these tests: there is nothing to catch up with or tell.
    settings: pgSettings(pool, { announced: (db, _kind, work) => transaction(db, work) }),
    idempotency: pgIdempotency(pool),
    webSessions: pgWebSessions(pool),
    passwordLinks: pgPasswordLinks(pool),
    invitations: pgInvitations(pool),
    oauth: pgOAuth(pool, random),
  };
}

async function sqliteSide<T>(scenario: (side: Side) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-both-'));
  const path = join(dir, 'store.db');
  const store = openSqliteStore(path, seededRandom());
  // A second connection for the fixture rows, as the operator CLI would write beside the server.
  const db = openSqlite(path);
  try {
    return await scenario({
      store,
      addLink: async (id, teamId, code) =>
        void db
          .prepare("INSERT INTO links (id, team_id, code, destination, state, created_at) VALUES (?, ?, ?, 'https://example.com/', 'active', '2026-01-01T00:00:00.000Z')")
          .run(id, teamId, code),
      deleteLink: async (id) => void db.prepare('DELETE FROM links WHERE id = ?').run(id),
      count: async (table) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number,
      flushTouches: () => (store.tokens as PortsUnderTest['tokens'] & { close(): Promise<void> }).close(),
    });
  } finally {
    db.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresSide<T>(scenario: (side: Side) => Promise<T>): Promise<T> {
  const database = await openPostgres(await newMigratedTestDatabase());
  const { pool } = database;
  const store = postgresPorts(pool, seededRandom());
  try {
    return await scenario({
      store,
      addLink: async (id, teamId, code) =>
        void (await pool.query(
          "INSERT INTO links (id, team_id, code, destination, state, created_at) VALUES ($1, $2, $3, 'https://example.com/', 'active', '2026-01-01T00:00:00.000Z')",
          [id, teamId, code],
        )),
      deleteLink: async (id) => void (await pool.query('DELETE FROM links WHERE id = $1', [id])),
      count: async (table) => Number((await pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n),
      flushTouches: () => store.tokens.close(),
    });
  } finally {
    await store.tokens.close();
    await database.close();
  }
}

/**
 * Runs a scenario against a fresh SQLite store and a fresh PostgreSQL database, each drawing the same random
 * bytes, and answers both results for the test to compare (they should be equal to the letter).
 */
export async function onBoth<T>(scenario: (side: Side) => Promise<T>): Promise<{ sqlite: T; postgres: T }> {
  const [sqlite, postgres] = await Promise.all([sqliteSide(scenario), postgresSide(scenario)]);
  return { sqlite, postgres };
}

/** What a call answered, or the code of what it threw: so that failures are compared too. */
export async function outcome<T>(call: Promise<T>): Promise<T | { threw: unknown }> {
  try {
    return await call;
  } catch (error) {
    return { threw: (error as { code?: unknown }).code ?? (error as Error).message };
  }
}
