import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/auth/personal-token.js';
import { cryptoRandom } from '../../src/domain/random.js';
import { TRUST_MS } from '../../src/store/postgres/changes.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/ports.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { newMigratedTestDatabase } from '../helpers/shared-postgres.js';

/**
 * Two server processes started separately on one PostgreSQL database. A redirect asks no round trip to catch up:
 * a write is answered once every live process told its caches (store/postgres/changes.ts). So a link changed
 * through one is answered changed by the other on its very next redirect; and a process frozen (SIGSTOP) holds a
 * write up for at most TRUST_MS, after which, woken, it trusts nothing it kept and answers the change too.
 */
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0' };
let dir: string;
let store: Store;
let one: ServerProcess;
let two: ServerProcess;
let token: string;
let team: string;

const base = (server: ServerProcess) => `http://127.0.0.1:${server.port}`;

async function api(server: ServerProcess, operation: string, body: unknown) {
  const res = await fetch(`${base(server)}/v1/${operation}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function visit(server: ServerProcess, code: string): Promise<string | null> {
  const res = await fetch(`${base(server)}/${code}`, { headers: BROWSER, redirect: 'manual' });
  await res.text();
  return res.headers.get('location');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-frozen-'));
  const url = await newMigratedTestDatabase();
  store = await openPostgresStore(url);
  const now = new Date();
  const person = await store.people.add({ email: 'frozen@example.com', passwordHash: null, agreedTerms: true }, now);
  team = (await store.teams.add({ name: 'Frozen', ownerId: person.id }, now)).id;
  token = (await issueToken(store, cryptoRandom, { personId: person.id, teamId: team, scopes: null, limited: false }, now)).token;
  // Closed, so only the two servers are live processes on the database.
  await store.close();
  [one, two] = await Promise.all(
    ['one', 'two'].map((name) => startServerProcess({ dbPath: join(dir, `${name}.db`), env: { DATABASE_URL: url } })),
  );
}, 60_000);

afterAll(async () => {
  for (const server of [one, two]) if (server?.child.pid) process.kill(server.child.pid, 'SIGCONT');
  await Promise.all([one?.stop(), two?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('two server processes on one PostgreSQL database', () => {
  it('answer a link changed through one changed by the other on its very next redirect, every time', async () => {
    const made = await api(one, 'createLink', { team, destination: 'https://example.com/0' });
    expect(made.status).toBe(200);
    const code: string = made.json.code;
    for (let round = 1; round <= 10; round++) {
      // Both keep the link (their redirect caches), so only news of the change can make them answer it.
      const [from, to] = round % 2 === 0 ? [one, two] : [two, one];
      for (const server of [one, two]) expect(await visit(server, code)).toBe(`https://example.com/${round - 1}`);
      expect(await visit(to, code)).toBe(`https://example.com/${round - 1}`);
      expect((await api(from, 'setDestination', { code, destination: `https://example.com/${round}` })).status).toBe(200);
      expect(await visit(to, code)).toBe(`https://example.com/${round}`);
    }
  });

  it('holds a write up for at most TRUST_MS while the other is frozen; woken, that one answers the change', async () => {
    const made = await api(one, 'createLink', { team, destination: 'https://example.com/before' });
    const code: string = made.json.code;
    expect(await visit(two, code)).toBe('https://example.com/before');
    expect(await visit(two, code)).toBe('https://example.com/before');
    // Frozen once it wrote those visits' clicks (every second), not in the middle of that transaction, whose row
    // locks would hold the write up (lock_timeout, 503) whatever the news does.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    process.kill(two.child.pid!, 'SIGSTOP');
    try {
      const started = performance.now();
      expect((await api(one, 'setDestination', { code, destination: 'https://example.com/after' })).status).toBe(200);
      const took = performance.now() - started;
      // Not longer than TRUST_MS (the room above it is for a loaded machine's request and answer, not for waiting).
      expect(took).toBeLessThan(TRUST_MS + 1_500);
      // Another write, while it stays frozen, waits again no longer.
      const again = performance.now();
      expect((await api(one, 'setDestination', { code, destination: 'https://example.com/later' })).status).toBe(200);
      expect(performance.now() - again).toBeLessThan(TRUST_MS + 1_500);
    } finally {
      process.kill(two.child.pid!, 'SIGCONT');
    }
    expect(await visit(two, code)).toBe('https://example.com/later');
    expect(await visit(one, code)).toBe('https://example.com/later');
  });
});
