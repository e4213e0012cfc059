import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';

/**
 * Random bodies at every operation: no answer is a 5xx, and a 4xx changes nothing that is data (links, names,
 * codes, limits' event log, reports, reviews).
 */
let server: TestServer;
let alice: Actor;
let code: string;
let reader: Database.Database;

const TABLES = ['links', 'names', 'codes', 'link_events', 'reports', 'reviews', 'clicks'];

function fingerprint(): string {
  const hash = createHash('sha256');
  for (const table of TABLES) hash.update(JSON.stringify(reader.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()));
  return hash.digest('hex');
}

beforeAll(async () => {
  server = await startServer();
  await server.setLimits({ perHour: 100_000, perDay: 100_000, firstWeekPerDay: 100_000, maxLinksPerTeam: 100_000, callsPerMinute: 100_000 });
  alice = await server.person();
  const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, alice.token);
  code = made.body.code;
  reader = new Database(server.dbPath, { readonly: true });
});
afterAll(async () => {
  reader.close();
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
};

function value(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constant(alice.teamId),
    fc.constant(code),
    fc.constant(null),
    fc.constantFrom('active', 'flagged', 'disabled', 'https://example.com/x', 'http://10.0.0.1/', 'api', 'ok-name'),
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
          const before = fingerprint();
          const raw = typeof input === 'object' && input !== null && 'raw' in input ? String((input as { raw: string }).raw) : JSON.stringify(input);
          const reply = await call(server, operation, raw, alice.token);
          expect(reply.status).toBeLessThan(500);
          if (reply.status >= 400) {
            expect(reply.body.status).toBe(reply.status);
            expect(typeof reply.body.code).toBe('string');
            expect(fingerprint()).toBe(before);
          }
        }),
        { numRuns: 80 },
      );
    });
  }
});
