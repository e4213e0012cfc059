import { expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App, type AppOptions } from '../../src/app.js';
import { issueToken } from '../../src/auth/personal-token.js';
import { loadConfig } from '../../src/config.js';
import { startDnsServer } from './dns-server.js';
import { cryptoRandom } from '../../src/domain/random.js';
import type { Limits } from '../../src/domain/limits.js';
import { TestClock } from './clock.js';
import { testDatabase } from './database-env.js';
import { freePort } from './free-port.js';

// Kept here too for the tests that import it with the server; it lives in clock.ts so the fast tool tests can
// use it without loading the whole app.
export { TestClock };

export interface TestServer {
  app: App;
  url: string;
  dbPath: string;
  clock: TestClock;
  stop(): Promise<void>;
  /**
   * A person who agreed to the terms, with a team and a personal token for it; made just now, so not established
   * unless `addedByOperator` (as the CLI's `person add` makes people).
   */
  person(options?: { agreed?: boolean; teamName?: string; scopes?: string[] | null; limited?: boolean; addedByOperator?: boolean }): Promise<Actor>;
  /** Another token for an existing person and team. */
  token(personId: string, teamId: string, options?: { scopes?: string[] | null; limited?: boolean }): Promise<string>;
  setLimits(changes: Partial<Limits>): Promise<void>;
}

export interface Actor {
  personId: string;
  email: string;
  teamId: string;
  token: string;
}

// Kept in a file of its own so the bench can use it without loading vitest.
export { freePort } from './free-port.js';

let people = 0;

/**
 * Starts the real server on a loopback port with a fresh SQLite file (or PostgreSQL database, see vitest.config.ts). Its destination checks ask a DNS server of
 * its own on loopback, where every name resolves to a public address (tests of the DNS rule bring their own).
 */
export async function startServer(options: AppOptions & { env?: Record<string, string> } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-test-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dbPath = join(dir, 'test.db');
  const dns = await startDnsServer({}, { a: ['93.184.216.34'] });
  // The postgres project of vitest.config.ts runs the same tests against a fresh PostgreSQL database.
  const database = await testDatabase(dbPath);
  // Requests a test left running (an open stream, a body never finished) get 1 s at stop(), not the default 10.
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    ...database,
    DNS_SERVERS: dns.servers.join(','),
    SHUTDOWN_TIMEOUT_MS: '1000',
    // No request log in the test runner's output (a test that reads the log starts a server process).
    LOG_LEVEL: 'silent',
    // Click analytics written each second, as the daily counts are, so a test reads them after a second's wait.
    ANALYTICS_WRITE_MS: '1000',
  };
  const config = loadConfig({ ...env, ...options.env });
  const clock = options.clock instanceof TestClock ? options.clock : new TestClock();
  const app = await createApp(config, { ...options, clock });
  await app.listen();
  const store = app.ctx.store;

  const token: TestServer['token'] = async (personId, teamId, { scopes = null, limited = false } = {}) =>
    (await issueToken(store, cryptoRandom, { personId, teamId, scopes, limited }, clock.now())).token;

  return {
    app,
    url,
    dbPath,
    clock,
    async stop() {
      await app.close();
      await dns.close();
      rmSync(dir, { recursive: true, force: true });
    },
    async person({ agreed = true, teamName = 'Team', scopes = null, limited = false, addedByOperator = false } = {}) {
      const email = `person${++people}@example.com`;
      const person = await store.people.add({ email, passwordHash: null, agreedTerms: agreed, addedByOperator }, clock.now());
      const team = await store.teams.add({ name: teamName, ownerId: person.id }, clock.now());
      return { personId: person.id, email, teamId: team.id, token: await token(person.id, team.id, { scopes, limited }) };
    },
    token,
    async setLimits(changes) {
      await store.settings.setLimits(changes);
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

/** `POST /v1/<operation>` with a JSON body (or raw text), as a script would. */
export async function call(
  server: TestServer,
  operation: string,
  body: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(`${server.url}/v1/${operation}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** The problem body the API answers for an error code (type is the docs' address). */
export function problem(server: TestServer, status: number, code: string, field: string | null = null) {
  return {
    type: `${server.url}/docs/errors#${code}`,
    status,
    code,
    field,
  };
}

/** Asserts an error answer: status, problem+json, the problem's code and field, a title and a detail sentence. */
export function expectProblem(server: TestServer, reply: Reply, status: number, code: string, field: string | null = null): void {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(reply.body).toMatchObject(problem(server, status, code, field));
  expect(reply.body.title).toEqual(expect.any(String));
  expect(reply.body.detail).toEqual(expect.any(String));
  expect(reply.body.detail.length).toBeGreaterThan(0);
}
