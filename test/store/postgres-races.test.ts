import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { cryptoRandom } from '../../src/domain/random.js';
import { openDatabase } from '../../src/store/postgres/database.js';
import { postgresPorts } from '../helpers/both-adapters.js';
import { newMigratedTestDatabase } from '../helpers/shared-postgres.js';

/**
 * What only the PostgreSQL adapter must prove: several processes (here: several pools on one database) calling at
 * once still get exactly one claim, one spend, one secret; and what it keeps in memory is dropped when told.
 */

const now = new Date('2026-11-21T12:00:00.000Z');
const hash = (text: string) => createHash('sha256').update(text).digest();

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).reverse().map((each) => each.close()));
});

/** `count` processes' worth of stores on one fresh database: each its own pool. */
async function processes(count: number, url?: string) {
  const at = url ?? (await newMigratedTestDatabase());
  const made = [];
  for (let index = 0; index < count; index++) {
    const database = await openDatabase(at);
    const ports = postgresPorts(database.pool, cryptoRandom);
    opened.push(database, { close: () => ports.tokens.close() });
    made.push({ ...ports, pool: database.pool });
  }
  return made;
}

async function personAndClient(store: Awaited<ReturnType<typeof processes>>[number]) {
  const person = await store.people.add({ email: 'ann@example.com', passwordHash: null, agreedTerms: true }, now);
  await store.oauth.addClient({ id: 'oc_one', secretHash: null, name: null, redirectUris: ['https://one.example/cb'], metadata: {} }, now);
  return person;
}

describe('PostgreSQL stores under concurrent calls from several processes', () => {
  it('gives exactly one of two simultaneous begins with a key the claim', async () => {
    const [a, b] = await processes(2);
    for (let round = 0; round < 20; round++) {
      const key = { personId: 'person_a', operation: 'createLink', key: `k${round}` };
      const answers = await Promise.all([a!.idempotency.begin(key, 'body', now), b!.idempotency.begin(key, 'body', now)]);
      expect(answers.map((answer) => answer.kind).sort()).toEqual(['in_use', 'new']);
    }
  });

  it('lets exactly one process take over a stale claim', async () => {
    const [a, b, c] = await processes(3);
    const key = { personId: 'person_a', operation: 'createLink', key: 'stale' };
    await a!.idempotency.begin(key, 'body', now);
    const later = new Date(now.getTime() + 10 * 60_000);
    const answers = await Promise.all([b!.idempotency.begin(key, 'body', later), c!.idempotency.begin(key, 'body', later)]);
    expect(answers.map((answer) => answer.kind).sort()).toEqual(['in_use', 'new']);
  });

  it('spends an authorization code and a refresh token exactly once', async () => {
    const stores = await processes(4);
    const person = await personAndClient(stores[0]!);
    const grantId = await stores[0]!.oauth.saveCode(
      {
        codeHash: hash('code'), personId: person.id, clientId: 'oc_one', scopes: ['links:read'], redirectUri: 'https://one.example/cb',
        codeChallenge: 'c', resource: 'https://links.example/mcp', expiresAt: new Date(now.getTime() + 600_000).toISOString(),
      },
      now,
    );
    await stores[0]!.oauth.saveTokens(
      {
        grantId, family: 'f', scopes: ['links:read'], resource: 'https://links.example/mcp', accessHash: hash('access'),
        accessExpiresAt: new Date(now.getTime() + 3_600_000).toISOString(), refreshHash: hash('refresh'),
        refreshExpiresAt: new Date(now.getTime() + 86_400_000).toISOString(),
      },
      now,
    );
    const codes = await Promise.all(stores.flatMap((store) => [store.oauth.useCode(hash('code'), now), store.oauth.useCode(hash('code'), now)]));
    expect(codes.filter(Boolean)).toHaveLength(1);
    const refreshes = await Promise.all(stores.map((store) => store.oauth.useRefreshToken(hash('refresh'), now)));
    expect(refreshes.filter(Boolean)).toHaveLength(1);
  });

  it('spends a set-password link once when two forms arrive together', async () => {
    const [a, b] = await processes(2);
    const person = await a!.people.add({ email: 'ann@example.com', passwordHash: null, agreedTerms: true }, now);
    await a!.passwordLinks.issue({ personId: person.id, tokenHash: hash('link'), expiresAt: new Date(now.getTime() + 3_600_000), reset: false }, now);
    const states = await Promise.all([a!.passwordLinks.use(hash('link'), 'from a', now), b!.passwordLinks.use(hash('link'), 'from b', now)]);
    expect(states.map((state) => state.kind).sort()).toEqual(['used', 'valid']);
    const winner = states[0]!.kind === 'valid' ? 'from a' : 'from b';
    expect((await a!.people.withPasswordHash('ann@example.com'))?.passwordHash).toBe(winner);
  });

  it('agrees on one cursor secret when processes start together, and keeps it', async () => {
    const stores = await processes(4);
    const secrets = await Promise.all(stores.map((store) => store.settings.cursorSecret()));
    for (const secret of secrets) expect(secret.equals(secrets[0]!)).toBe(true);
    const [later] = await processes(1, await urlOf(stores[0]!.pool));
    expect((await later!.settings.cursorSecret()).equals(secrets[0]!)).toBe(true);
  });

  it('keeps limits and the blocklist in memory until forget(), and drops them on its own writes', async () => {
    const [a, b] = await processes(2);
    expect((await a!.settings.limits()).perHour).toBe(20);
    expect(await a!.settings.blockedDomains()).toEqual(new Set());
    await b!.settings.setLimits({ perHour: 3 });
    await b!.settings.block('bad.example', now);
    // Another process's change is not seen until the store's listener says so.
    expect((await a!.settings.limits()).perHour).toBe(20);
    a!.settings.forget();
    expect((await a!.settings.limits()).perHour).toBe(3);
    expect(await a!.settings.blockedDomains()).toEqual(new Set(['bad.example']));
    // Its own writes are seen at once.
    await a!.settings.unblock('bad.example');
    expect(await a!.settings.blockedDomains()).toEqual(new Set());
    await a!.settings.setLimits({ perDay: 4 });
    expect(await a!.settings.limits()).toMatchObject({ perHour: 3, perDay: 4 });
  });

  it('merges limit changes two processes make at once', async () => {
    const [a, b] = await processes(2);
    await Promise.all([a!.settings.setLimits({ perHour: 3 }), b!.settings.setLimits({ perDay: 4 })]);
    a!.settings.forget();
    expect(await a!.settings.limits()).toMatchObject({ perHour: 3, perDay: 4 });
  });

  it('counts clicks while another process deletes one of the links, without failing the batch', async () => {
    const [a] = await processes(1);
    const person = await a!.people.add({ email: 'ann@example.com', passwordHash: null, agreedTerms: true }, now);
    const team = await a!.teams.add({ name: 'T', ownerId: person.id }, now);
    for (const id of ['link_kept', 'link_gone']) {
      await a!.pool.query(
        "INSERT INTO links (id, team_id, code, destination, state, created_at) VALUES ($1, $2, $1, 'https://example.com/', 'active', $3)",
        [id, team.id, now.toISOString()],
      );
    }
    // The other process holds the deletion open while the batch starts, and commits after it waits on the link.
    const other = new pg.Client({ connectionString: await urlOf(a!.pool) });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query("DELETE FROM links WHERE id = 'link_gone'");
      const batch = a!.clicks.add(new Map([['link_kept', new Map([['2026-11-21', 2]])], ['link_gone', new Map([['2026-11-21', 5]])]]));
      await waitForLockWait(a!.pool);
      await other.query('COMMIT');
      await batch;
    } finally {
      await other.end();
    }
    expect(await a!.clicks.daily('link_kept', '2026-11-21', '2026-11-21')).toEqual([{ day: '2026-11-21', clicks: 2 }]);
    expect(await a!.clicks.daily('link_gone', '2026-11-21', '2026-11-21')).toEqual([]);
  });

  it('pages teams and orders members in byte order in a database whose locale sorts otherwise', async () => {
    const url = await localeDatabase();
    const [a] = await processes(1, url);
    const owner = await a!.people.add({ email: 'owner@example.com', passwordHash: null, agreedTerms: true }, now);
    for (const name of ['beta', 'Beta', 'alpha', 'Alpha']) await a!.teams.add({ name, ownerId: owner.id }, now);
    const first = await a!.teams.listForPerson(owner.id, { limit: 2, after: null });
    const last = first.at(-1)!;
    const second = await a!.teams.listForPerson(owner.id, { limit: 2, after: [last.name, last.id] });
    expect([...first, ...second].map((team) => team.name)).toEqual(['Alpha', 'Beta', 'alpha', 'beta']);
    // Members as SQLite's NOCASE column sorts them: ASCII case folded, then bytes (. before _ before letters).
    for (const email of ['ab@example.com', 'A_c@example.com', 'a.b@example.com']) {
      const member = await a!.people.add({ email, passwordHash: null, agreedTerms: true }, now);
      await a!.teams.addMember(first[0]!.id, member.id, now);
    }
    const members = await a!.teams.members(first[0]!.id);
    expect(members.map((member) => member.email)).toEqual(['owner@example.com', 'a.b@example.com', 'A_c@example.com', 'ab@example.com']);
    // The locale itself would have said otherwise, so this database does test the ordering.
    const sorted = async (by: string, values: string[]) =>
      (await a!.pool.query(`SELECT v FROM unnest($1::text[]) AS v ORDER BY ${by}`, [values])).rows.map((row: { v: string }) => row.v);
    expect(await sorted('v', ['Alpha', 'Beta', 'alpha', 'beta'])).not.toEqual(['Alpha', 'Beta', 'alpha', 'beta']);
    const emails = ['a.b@example.com', 'A_c@example.com', 'ab@example.com'];
    expect(await sorted('lower(v)', emails)).not.toEqual(emails);
  });
});

/** The URL a pool connects to. */
async function urlOf(pool: pg.Pool): Promise<string> {
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${(await pool.query<{ name: string }>('SELECT current_database() AS name')).rows[0]!.name}`;
  return url.toString();
}

/** A fresh database sorting text by the ICU English locale (a before B), not byte order. */
async function localeDatabase(): Promise<string> {
  const name = `test_icu_${Date.now()}_${Math.floor(Math.random() * 1e9)}`;
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en' LOCALE 'C.UTF-8'`);
  } finally {
    await client.end();
  }
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

/** Resolves once a connection of the database waits on a row lock. */
async function waitForLockWait(pool: pg.Pool): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await pool.query(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the batch never waited on the deleted link');
}
