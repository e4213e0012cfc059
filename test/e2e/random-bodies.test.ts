import Database from 'better-sqlite3';
import pg from 'pg';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';
import { databaseEnv } from '../helpers/database-env.js';

/**
 * Random bodies at every operation: no answer is a 5xx, and a 4xx changes nothing that is data (links, names,
 * codes, limits' event log, reports, reviews).
 */
let server: TestServer;
let alice: Actor;
let code: string;
/** Reads a table's rows from whichever database the server keeps (SQLite, or PostgreSQL in the postgres project). */
let reader: { rows(table: string): Promise<unknown[]>; close(): Promise<void> };

const TABLES = ['links', 'names', 'codes', 'link_events', 'reports', 'reviews', 'clicks'];

async function fingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const table of TABLES) hash.update(JSON.stringify(await reader.rows(table)));
  return hash.digest('hex');
}

async function openReader(): Promise<typeof reader> {
  const { DATABASE_URL } = databaseEnv(server.dbPath);
  if (DATABASE_URL === undefined) {
    const db = new Database(server.dbPath, { readonly: true });
    return { rows: async (table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all(), close: async () => void db.close() };
  }
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  return { rows: async (table) => (await client.query(`SELECT * FROM ${table} ORDER BY 1`)).rows, close: () => client.end() };
}

beforeAll(async () => {
  server = await startServer();
  await server.setLimits({ perHour: 100_000, perDay: 100_000, firstWeekPerDay: 100_000, maxLinksPerTeam: 100_000, callsPerMinute: 100_000 });
  alice = await server.person();
  const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, alice.token);
  code = made.body.code;
  reader = await openReader();
});
afterAll(async () => {
  await reader.close();
  await server.stop();
});

const PARAMS: Record<string, string[]> = {
  listTeams: ['limit', 'after'],
  createLink: ['team', 'destination', 'name', 'note'],
  createLinks: ['team', 'links'],
  listLinks: ['team', 'state', 'q', 'limit', 'after'],
  getLink: ['code'],
  setDestination: ['code', 'destination'],
  setNote: ['code', 'note'],
  renameLink: ['code', 'name'],
  deleteLink: ['code'],
  linkClicks: ['code'],
  clickBreakdown: ['code', 'team', 'by', 'days'],
};

function value(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constant(alice.teamId),
    fc.constant(code),
    fc.constant(null),
    fc.constantFrom('active', 'flagged', 'disabled', 'https://example.com/x', 'http://10.0.0.1/', 'api', 'ok-name', 'country', 'link'),
    fc.webUrl(),
    fc.string({ maxLength: 60 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  );
}

function body(operation: string): fc.Arbitrary<unknown> {
  const params = PARAMS[operation]!;
  const known = fc.record(Object.fromEntries(params.map((p) => [p, value()])), { requiredKeys: [] });
  const withExtra = fc.tuple(known, fc.string({ minLength: 1, maxLength: 10 }), value()).map(([b, k, v]) => ({ ...b, [k]: v }));
  return fc.oneof({ weight: 4, arbitrary: known }, withExtra, fc.jsonValue({ maxDepth: 3 }), fc.string().map((s) => ({ raw: s })));
}

describe('random bodies at every operation', () => {
  for (const operation of Object.keys(PARAMS)) {
    it(`${operation}: never a 5xx, and a 4xx changes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(body(operation), async (input) => {
          const before = await fingerprint();
          const raw = typeof input === 'object' && input !== null && 'raw' in input ? String((input as { raw: string }).raw) : JSON.stringify(input);
          const reply = await call(server, operation, raw, alice.token);
          expect(reply.status).toBeLessThan(500);
          if (reply.status >= 400) {
            expect(reply.body.status).toBe(reply.status);
            expect(typeof reply.body.code).toBe('string');
            expect(await fingerprint()).toBe(before);
          }
        }),
        { numRuns: 80 },
      );
    });
  }
});

describe('a NUL character in any parameter', () => {
  // PostgreSQL text cannot hold U+0000 at all, so there it is the case most likely to escape as a 500.
  for (const [operation, params] of Object.entries(PARAMS)) {
    it(`${operation}: answered without a 5xx, changing nothing when refused`, async () => {
      for (const param of params) {
        for (const nul of ['\u0000', `${code}\u0000`, `ok\u0000name`, `https://example.com/\u0000`]) {
          const before = await fingerprint();
          const reply = await call(server, operation, { team: alice.teamId, code, [param]: nul }, alice.token);
          expect(reply.status, `${param}: ${JSON.stringify(nul)}`).toBeLessThan(500);
          if (reply.status >= 400) expect(await fingerprint()).toBe(before);
        }
      }
    });
  }
});
