import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/auth/personal-token.js';
import { cryptoRandom } from '../../src/domain/random.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { ORDINARY_SHARE } from '../../src/store/postgres/database.js';
import type { Store } from '../../src/store/ports.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { newMigratedTestDatabase } from '../helpers/shared-postgres.js';
import { startSlowProxy, type SlowProxy } from '../helpers/slow-proxy.js';

/**
 * A server process whose PostgreSQL hangs, and one whose ordinary connections are all held by calls waiting on a
 * row lock. The first 503 used to come 7-12 s after a request arrived (the catching up's 2 s, then a statement's
 * 10 s or a connection's 5 s on top), and a team's calls waiting on a lock held every connection of the process,
 * so redirects and reads of other teams stalled with them. Now a request that gets no answer from PostgreSQL
 * answers 503 within the documented 5 s, a call waiting on a lock gives up after 3 s, and a share of the
 * connections is kept for redirects and token checks (docs/behaviour.md, "Several machines (PostgreSQL)").
 */
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0' };
const OUTAGE = { code: 'service_unavailable', detail: 'The database cannot be reached right now; retry in a few seconds.' };
/**
 * The documented bounds, with room for a loaded machine. A creation that waited for a connection (up to 5 s) and then
 * on the lock (3 s) answers within 8 s; a clean-clone CI run on a loaded 2-core runner took 9.6 s, so 3 s of room.
 */
const FIRST_503_MS = 5_000 + 1_500;
const LOCKED_503_MS = 5_000 + 3_000 + 3_000;
let dir: string;
let other: Store;
/** Holds the row lock in an open transaction; `watcher` looks on (within a transaction, pg_stat_activity stands still). */
let locker: pg.Client;
let watcher: pg.Client;
let proxy: SlowProxy;
let server: ServerProcess;
let url: string;
const teams: Array<{ id: string; token: string; code: string }> = [];

const api = async (token: string, operation: string, body: unknown) => {
  const started = performance.now();
  const res = await fetch(`${url}/v1/${operation}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json(), ms: performance.now() - started };
};

/** Polls until `count` statements of the server wait on a lock: every ordinary connection is then held. */
async function waitingOnLocks(count: number): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    const { rows } = await watcher.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0]!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`fewer than ${count} statements came to wait on the lock`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-stalls-'));
  const database = new URL(await newMigratedTestDatabase());
  other = await openPostgresStore(database.href);
  locker = new pg.Client({ connectionString: database.href });
  watcher = new pg.Client({ connectionString: database.href });
  await Promise.all([locker.connect(), watcher.connect()]);
  proxy = await startSlowProxy({ host: database.hostname, port: Number(database.port) }, 0);
  const through = new URL(database.href);
  through.host = proxy.address;
  server = await startServerProcess({ dbPath: join(dir, 'unused.db'), env: { DATABASE_URL: through.href } });
  url = `http://127.0.0.1:${server.port}`;
  const now = new Date();
  await other.settings.setLimits({ firstWeekPerDay: 1_000, perHour: 1_000, perDay: 1_000, maxLinksPerTeam: 1_000, callsPerMinute: 1_000 });
  for (const name of ['Locked', 'Other']) {
    const person = await other.people.add({ email: `${name.toLowerCase()}@example.com`, passwordHash: null, agreedTerms: true }, now);
    const id = (await other.teams.add({ name, ownerId: person.id }, now)).id;
    const { token } = await issueToken(other, cryptoRandom, { personId: person.id, teamId: id, scopes: null, limited: false }, now);
    const made = await api(token, 'createLink', { team: id, destination: `https://example.com/${name}` });
    expect(made.status).toBe(200);
    teams.push({ id, token, code: made.body.code });
  }
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await locker?.end();
  await watcher?.end();
  await other?.close();
  await proxy?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a server whose PostgreSQL hangs or whose connections are held', () => {
  it('answers its first request 503 with Retry-After within 5 s once PostgreSQL stops answering', async () => {
    const [, { token, code }] = teams;
    proxy.stall(true);
    try {
      const stuck = await api(token!, 'getLink', { code });
      expect([stuck.status, stuck.retryAfter]).toEqual([503, '5']);
      expect(stuck.body).toMatchObject(OUTAGE);
      expect(stuck.ms).toBeLessThan(FIRST_503_MS);
      const visit = performance.now();
      const redirect = await fetch(`${url}/${code}`, { headers: BROWSER, redirect: 'manual' });
      expect([redirect.status, redirect.headers.get('retry-after')]).toEqual([503, '5']);
      await redirect.text();
      expect(performance.now() - visit).toBeLessThan(FIRST_503_MS);
    } finally {
      proxy.stall(false);
    }
    // The process finds PostgreSQL answering again on its own (stall-guard.ts probes it).
    for (const deadline = Date.now() + 15_000; (await api(token!, 'getLink', { code })).status !== 200; ) {
      if (Date.now() > deadline) throw new Error('the server did not answer again after PostgreSQL did');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 30_000);

  it("serves redirects and other teams promptly while one team's calls wait on a row lock, which they give up with 503", async () => {
    const [locked, free] = teams;
    await locker.query('BEGIN');
    try {
      await locker.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [locked!.id]);
      // More creations than the ordinary share holds: every ordinary connection waits on the team's row, the rest
      // wait for a connection.
      const blocked = Array.from({ length: ORDINARY_SHARE + 3 }, (_, i) =>
        api(locked!.token, 'createLink', { team: locked!.id, destination: `https://example.com/blocked/${i}` }),
      );
      await waitingOnLocks(ORDINARY_SHARE);
      const visit = performance.now();
      const redirect = await fetch(`${url}/${free!.code}`, { headers: BROWSER, redirect: 'manual' });
      expect([redirect.status, redirect.headers.get('location')]).toEqual([302, 'https://example.com/Other']);
      expect(performance.now() - visit).toBeLessThan(1_000);
      const read = await api(free!.token, 'getLink', { code: free!.code });
      expect([read.status, read.body.code]).toEqual([200, free!.code]);
      expect(read.ms).toBeLessThan(1_000);
      for (const answer of await Promise.all(blocked)) {
        expect([answer.status, answer.retryAfter]).toEqual([503, '5']);
        expect(answer.body).toMatchObject(OUTAGE);
        expect(answer.ms).toBeLessThan(LOCKED_503_MS);
      }
    } finally {
      await locker.query('ROLLBACK');
    }
    expect((await api(locked!.token, 'createLink', { team: locked!.id, destination: 'https://example.com/after' })).status).toBe(200);
    expect(server.exitCode()).toBeNull();
  }, 30_000);
});
