import { renameSync, rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HEALTH_TIMEOUT_MS } from '../../src/http/health.js';
import { databaseEnv } from '../helpers/database-env.js';
import { call, expectProblem, startServer, type Reply, type TestServer } from '../helpers/server.js';

/**
 * GET /healthz (and /health, its older name): 200 {"status":"ok"} while the process can serve, 503
 * service_unavailable (problem+json) while its database cannot. Runs on both stores; the database is made
 * unreachable for real: the SQLite file is moved away or deleted under the running server, PostgreSQL refuses
 * the service's connections or holds a lock the check must wait for.
 */
const postgres = process.env.SHORTLINKS_TEST_STORE === 'postgres';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

async function get(path: string, method = 'GET'): Promise<Reply> {
  const res = await fetch(`${server.url}${path}`, { method, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

function expectOk(reply: Reply): void {
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(reply.headers.get('cache-control')).toBe('no-store');
  expect(reply.body).toEqual({ status: 'ok' });
}

function expectUnavailable(reply: Reply): void {
  expectProblem(server, reply, 503, 'service_unavailable');
  expect(reply.body.detail).toBe('The service cannot reach its database.');
}

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} while the database answers, at /healthz and /health alike', async () => {
    expectOk(await get('/healthz'));
    expectOk(await get('/health'));
    expectOk(await get('/healthz?probe=1'));
  });

  it('answers HEAD with the same status and headers, and other methods 405 with Allow', async () => {
    const head = await get('/healthz', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBeUndefined();
    const post = await get('/healthz', 'POST');
    expectProblem(server, post, 405, 'method_not_allowed');
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('is never a link: the name healthz is refused with 400 reserved_name, and /healthz never redirects', async () => {
    const alice = await server.person();
    const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, alice.token);
    expect(made.status).toBe(200);
    const create = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/', name: 'healthz' }, alice.token);
    expectProblem(server, create, 400, 'reserved_name', 'name');
    const rename = await call(server, 'renameLink', { code: made.body.code, name: 'healthz' }, alice.token);
    expectProblem(server, rename, 400, 'reserved_name', 'name');
    const many = await call(server, 'createLinks', { team: alice.teamId, links: [{ destination: 'https://example.com/', name: 'healthz' }] }, alice.token);
    expect(many.status).toBe(200);
    expect(many.body.results[0]).toMatchObject({ status: 400, code: 'reserved_name' });
    // A browser's visit is answered by the health check, not looked up as a link.
    const visit = await fetch(`${server.url}/healthz`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 Chrome/131.0' } });
    expect(visit.status).toBe(200);
    expect(visit.headers.get('location')).toBeNull();
    expect(await visit.json()).toEqual({ status: 'ok' });
  });
});

describe.runIf(!postgres)('GET /healthz on SQLite', () => {
  it('answers 503 while the database file is moved away from DATABASE_PATH, and 200 once it is back', async () => {
    const moved = `${server.dbPath}.moved`;
    renameSync(server.dbPath, moved);
    try {
      expectUnavailable(await get('/healthz'));
      expectUnavailable(await get('/health'));
    } finally {
      renameSync(moved, server.dbPath);
    }
    expectOk(await get('/healthz'));
  });

  it('answers 503 once the database file is deleted', async () => {
    const other = await startServer();
    try {
      rmSync(other.dbPath);
      const res = await fetch(`${other.url}/healthz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 503, code: 'service_unavailable', detail: 'The service cannot reach its database.' });
    } finally {
      await other.stop();
    }
  });
});

describe.runIf(postgres)('GET /healthz on PostgreSQL', () => {
  /** The test's database: its name, and a superuser connection to the cluster (never to that database). */
  let name: string;
  let admin: pg.Client;

  beforeAll(async () => {
    name = new URL(databaseEnv(server.dbPath).DATABASE_URL!).pathname.slice(1);
    admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
    await admin.end();
  });

  it('answers 503 while the database refuses connections, and 200 once it takes them again', async () => {
    await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    expectUnavailable(await get('/healthz'));
    expectUnavailable(await get('/healthz'));
    await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
    expectOk(await untilOk());
  });

  it('answers 503 within its timeout while the database does not answer, and 200 once it does', async () => {
    const blocker = new pg.Client({ connectionString: databaseEnv(server.dbPath).DATABASE_URL });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE schema_migrations IN ACCESS EXCLUSIVE MODE');
      const started = performance.now();
      // Probes arriving together share the one check, and all get its answer in time.
      const replies = await Promise.all([get('/healthz'), get('/healthz'), get('/health')]);
      const took = performance.now() - started;
      for (const reply of replies) expectUnavailable(reply);
      expect(took).toBeGreaterThanOrEqual(HEALTH_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(HEALTH_TIMEOUT_MS + 1000);
      await blocker.query('COMMIT');
      expectOk(await untilOk());
    } finally {
      await blocker.end();
    }
  });
});

/** /healthz until it answers 200 (a connection the database dropped may fail one more check), at most 5 s. */
async function untilOk(): Promise<Reply> {
  const deadline = Date.now() + 5000;
  let reply = await get('/healthz');
  while (reply.status !== 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    reply = await get('/healthz');
  }
  return reply;
}
