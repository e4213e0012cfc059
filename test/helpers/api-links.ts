import Database from 'better-sqlite3';
import pg from 'pg';
import { databaseEnv } from './database-env.js';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { call, startServer, type Actor, type Reply, type TestServer } from './server.js';

/**
 * What the end-to-end tests of the link operations (test/e2e/api-<operation>.test.ts) share: one real server per
 * file with a real SQLite file, and helpers speaking the HTTP API.
 *
 * The server, its clock and its limits are shared by the whole file: every test makes its own person and team,
 * moves the clock forward by seconds at most (linkClicks relies on "today" being 2026-11-21), and any test that
 * lowers a limit has it put back by afterEach.
 */

/** The file's server, set by useLinksServer's beforeAll (an ESM live binding: read it inside tests). */
export let server: TestServer;
export const BLOCKED_DOMAIN = 'blocked-site.com';

/** Starts the file's server before its tests, with BLOCKED_DOMAIN blocked; puts the limits back after each test. */
export function useLinksServer(): void {
  beforeAll(async () => {
    server = await startServer();
    await server.app.ctx.store.settings.block(BLOCKED_DOMAIN, new Date());
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await server.setLimits({ ...DEFAULT_LIMITS });
  });
}

let unique = 0;
/** A short link name no other test uses (names are one namespace for the whole service). */
export function freshName(prefix = 'nm'): string {
  return `${prefix}-${process.pid}-${++unique}`;
}

export function expectOk(reply: Reply): void {
  expect({ status: reply.status, body: reply.body }).toMatchObject({ status: 200 });
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
}

export interface Link {
  id: string;
  code: string;
  name: string | null;
  destination: string;
  note: string | null;
  state: 'active' | 'flagged' | 'disabled';
  createdAt: string;
  changedAt: string | null;
  shortUrl: string;
  nameUrl: string | null;
  expiresAt: string | null;
  maxClicks: number | null;
  hasPassword: boolean;
  tags: string[];
  forwardQuery: boolean;
}

/** A Link's fields in order: the spec's eight, then the service's additions (docs/behaviour.md, "Link options"). */
export const LINK_FIELDS = [
  'id', 'code', 'name', 'destination', 'note', 'state', 'createdAt', 'changedAt',
  'shortUrl', 'nameUrl', 'expiresAt', 'maxClicks', 'hasPassword', 'tags', 'forwardQuery',
];

/** A new link's options when none were sent. */
export const NO_OPTIONS = { expiresAt: null, maxClicks: null, hasPassword: false, tags: [], forwardQuery: true } as const;

export function expectLinkShape(link: Link): void {
  expect(Object.keys(link)).toEqual(LINK_FIELDS);
  expect(link.id).toMatch(/^link_/);
  expect(link.code).toMatch(/^[A-Za-z0-9]{7}$/);
  expect(link.code).toMatch(/[A-Z]/);
  expect(Number.isNaN(Date.parse(link.createdAt))).toBe(false);
}

export async function createLink(
  actor: Actor,
  fields: { destination?: string; name?: string | null; note?: string | null } = {},
  team = actor.teamId,
  token = actor.token,
): Promise<Link> {
  const reply = await call(server, 'createLink', { team, destination: 'https://example.com/page', ...fields }, token);
  expectOk(reply);
  return reply.body as Link;
}

export async function getLink(actor: Actor, code: string, token = actor.token): Promise<Reply> {
  return call(server, 'getLink', { code }, token);
}

export async function setState(code: string, state: 'active' | 'flagged' | 'disabled'): Promise<void> {
  const changed = await server.app.ctx.store.links.setState(code, state, server.clock.now());
  expect(changed?.state).toBe(state);
}

/** Another team the actor belongs to (owner). */
export async function extraTeam(actor: Actor, name: string): Promise<string> {
  const team = await server.app.ctx.store.teams.add({ name, ownerId: actor.personId }, server.clock.now());
  return team.id;
}

export async function readCodes(): Promise<string[]> {
  const { DATABASE_URL } = databaseEnv(server.dbPath);
  if (DATABASE_URL !== undefined) {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      return (await client.query<{ code: string }>('SELECT code FROM codes')).rows.map((row) => row.code);
    } finally {
      await client.end();
    }
  }
  const db = new Database(server.dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT code FROM codes').pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** Follows `next` to the end; returns every page. */
export async function allPages(operation: string, body: Record<string, unknown>, token: string): Promise<Reply[]> {
  const pages: Reply[] = [];
  let after: string | null = null;
  for (let i = 0; i < 50; i++) {
    const reply = await call(server, operation, { ...body, after }, token);
    expectOk(reply);
    pages.push(reply);
    after = reply.body.next;
    if (after === null) return pages;
    expect(typeof after).toBe('string');
  }
  throw new Error('paging did not end');
}
