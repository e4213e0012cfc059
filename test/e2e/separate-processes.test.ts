import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/auth/personal-token.js';
import { cryptoRandom } from '../../src/domain/random.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * Two server processes started apart on one SQLite file, with no WORKERS: a second `npm start`, or the overlap of
 * a rolling restart (issue 21). They share one calls-per-minute budget, as workers do; a process alone on the file
 * still counts in its memory, writing nothing for it (docs/behaviour.md, "Rate limits").
 */
const BUDGET = 20;
let dir: string;
let dbPath: string;
let token: string;
const servers: ServerProcess[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-apart-'));
  dbPath = join(dir, 'links.db');
  const store = openSqliteStore(dbPath);
  const now = new Date();
  await store.settings.setLimits({ callsPerMinute: BUDGET });
  const person = await store.people.add({ email: 'alice@example.com', passwordHash: null, agreedTerms: true }, now);
  const team = await store.teams.add({ name: 'Alice', ownerId: person.id }, now);
  ({ token } = await issueToken(store, cryptoRandom, { personId: person.id, teamId: team.id, scopes: null, limited: false }, now));
  await store.close();
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const urlOf = (server: ServerProcess) => `http://127.0.0.1:${server.port}`;

/** `count` listTeams calls, to each server in turn: each reply's status, Retry-After and body. */
async function calls(over: ServerProcess[], count: number) {
  const replies = [];
  for (let i = 0; i < count; i++) {
    const server = over[i % over.length]!;
    const res = await fetch(`${urlOf(server)}/v1/listTeams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    replies.push({ server, status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> });
  }
  return replies;
}

/** The spec's 429 (section 7), exactly, with the seconds its Retry-After names. */
function expectRateLimited(reply: Awaited<ReturnType<typeof calls>>[number]): void {
  const wait = Number(reply.retryAfter);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);
  expect(reply.body).toEqual({
    type: `${urlOf(reply.server)}/docs/errors#rate_limited`,
    title: 'Rate limited',
    status: 429,
    code: 'rate_limited',
    detail: `Too many calls; wait ${wait} seconds.`,
    field: null,
  });
}

/** Rows of the file's table, read apart from the servers. */
function rowsOf(table: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('separately started processes on one SQLite file', () => {
  it('share one calls-per-minute budget: of 30 calls alternating between them, exactly 20 pass', async () => {
    servers.push(...(await Promise.all([startServerProcess({ dbPath }), startServerProcess({ dbPath })])));
    const replies = await calls(servers, 30);
    expect(replies.map((reply) => reply.status)).toEqual([...Array(BUDGET).fill(200), ...Array(30 - BUDGET).fill(429)]);
    for (const reply of replies.slice(BUDGET)) expectRateLimited(reply);
    // Both count in the file now: each of the 20 calls is a row there.
    expect(rowsOf('rate_events')).toBe(BUDGET);
  });

  it('share it across a rolling restart: the newcomer goes on from the calls the old process counted alone', async () => {
    const old = await startServerProcess({ dbPath });
    servers.push(old);
    expect((await calls([old], 15)).map((reply) => reply.status)).toEqual(Array(15).fill(200));
    expect(rowsOf('rate_events')).toBe(0);
    const next = await startServerProcess({ dbPath });
    servers.push(next);
    const replies = await calls([next, old], 10);
    expect(replies.map((reply) => reply.status)).toEqual([...Array(5).fill(200), ...Array(5).fill(429)]);
    for (const reply of replies.slice(5)) expectRateLimited(reply);
  });

  it('leave a process alone on the file answering as before, counting in its memory', async () => {
    const [alone] = await Promise.all([startServerProcess({ dbPath })]);
    servers.push(alone!);
    const replies = await calls([alone!], BUDGET + 2);
    expect(replies.map((reply) => reply.status)).toEqual([...Array(BUDGET).fill(200), 429, 429]);
    expectRateLimited(replies.at(-1)!);
    expect(rowsOf('rate_events')).toBe(0);
    expect(rowsOf('rate_processes')).toBe(1);
  });
});
