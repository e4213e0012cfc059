import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/auth/personal-token.js';
import { cryptoRandom } from '../../src/domain/random.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * Link options on two server processes started apart on one SQLite file, on the real clock (docs/behaviour.md,
 * "Link options"): a click cap reached with clicks on both ends the link on both, and an end date ends it on both.
 */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
let dir: string;
let token: string;
let team: string;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-options-'));
  const dbPath = join(dir, 'links.db');
  const store = openSqliteStore(dbPath);
  const now = new Date();
  const person = await store.people.add({ email: 'alice@example.com', passwordHash: null, agreedTerms: true }, now);
  team = (await store.teams.add({ name: 'Alice', ownerId: person.id }, now)).id;
  ({ token } = await issueToken(store, cryptoRandom, { personId: person.id, teamId: team, scopes: null, limited: false }, now));
  await store.close();
  [a, b] = await Promise.all([startServerProcess({ dbPath }), startServerProcess({ dbPath })]);
});
afterAll(async () => {
  await Promise.all([a, b].map((server) => server?.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const urlOf = (server: ServerProcess) => `http://127.0.0.1:${server.port}`;
const visit = async (server: ServerProcess, code: string) =>
  (await fetch(`${urlOf(server)}/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } })).status;

async function link(options: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${urlOf(a)}/v1/createLink`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ team, destination: 'https://example.com/', ...options }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { code: string }).code;
}

describe('two processes started apart on one SQLite file', () => {
  it('end a link whose cap their clicks reached together, each within a few seconds of the last click', async () => {
    const code = await link({ maxClicks: 3 });
    expect(await visit(b, code)).toBe(302);
    expect(await visit(a, code)).toBe(302);
    expect(await visit(a, code)).toBe(302);
    // a counted two of the three itself; b learns of them once they are written (each second) and its total is
    // read again (in the background, at most once a second): until then it may let a click or two more through.
    await expect.poll(() => visit(a, code), { timeout: 10_000, interval: 200 }).toBe(410);
    await expect.poll(() => visit(b, code), { timeout: 10_000, interval: 200 }).toBe(410);
  });

  it('end a link at its end on both', async () => {
    const ends = new Date(Date.now() + 2_000);
    const code = await link({ expiresAt: ends.toISOString() });
    expect([await visit(a, code), await visit(b, code)]).toEqual([302, 302]);
    await new Promise((resolve) => setTimeout(resolve, ends.getTime() - Date.now() + 50));
    expect([await visit(a, code), await visit(b, code)]).toEqual([410, 410]);
  });
});
