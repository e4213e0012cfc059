import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/support/password.js';
import { issueToken } from '../../src/auth/personal-token.js';
import { cryptoRandom } from '../../src/domain/random.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { LinkRecord, Store } from '../../src/store/ports.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { newMigratedTestDatabase } from '../helpers/shared-postgres.js';
import { startSlowProxy, type SlowProxy } from '../helpers/slow-proxy.js';

/**
 * A server whose database answers, and whose notifications arrive, 150 ms late (a slow proxy between them), and
 * another process changing what it has cached. A request sent after the change was answered must see it: the
 * writer is answered only once the server acknowledged the late notification (store/postgres/changes.ts), so the
 * server never answers from a cache the notification has not yet emptied. Without that wait, every check fails.
 */
const LATE_MS = 150;
let other: Store;
let proxy: SlowProxy;
let server: TestServer;
let link: LinkRecord;
let token: { token: string; record: { id: string } };

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0' };
const visit = async () => (await fetch(`${server.url}/${link.code}`, { headers: BROWSER, redirect: 'manual' })).headers.get('location');
const getLink = async () => {
  const res = await fetch(`${server.url}/v1/getLink`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ code: link.code }),
  });
  await res.text();
  return { status: res.status, policy: res.headers.get('ratelimit-policy') };
};

beforeAll(async () => {
  const url = new URL(await newMigratedTestDatabase());
  other = await openPostgresStore(url.href);
  proxy = await startSlowProxy({ host: url.hostname, port: Number(url.port) }, LATE_MS);
  const late = new URL(url.href);
  late.host = proxy.address;
  server = await startServer({ env: { DATABASE_URL: late.href } });
  const now = server.clock.now();
  const person = await other.people.add({ email: 'late@example.com', passwordHash: await hashPassword('a good long password'), agreedTerms: true }, now);
  const team = await other.teams.add({ name: 'Late', ownerId: person.id }, now);
  link = await other.links.create(
    { teamId: team.id, teamCreatedAt: new Date(team.createdAt), destination: 'https://old.example.com/', name: null, note: null },
    await other.settings.limits(),
    now,
  );
  token = await issueToken(other, cryptoRandom, { personId: person.id, teamId: team.id, scopes: null, limited: false }, now);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await other?.close();
  await proxy?.stop();
});

describe('a server whose notifications arrive late', () => {
  it('redirects to a destination another process changed, on the first visit after the change', async () => {
    // Read and kept by the server once the news of the link's making has come (it is late too).
    await new Promise((resolve) => setTimeout(resolve, 2 * LATE_MS));
    expect(await visit()).toBe('https://old.example.com/');
    expect(await visit()).toBe('https://old.example.com/');
    await other.links.setDestination(link.id, 'https://new.example.com/', await other.settings.limits(), server.clock.now());
    expect(await visit()).toBe('https://new.example.com/');
  });

  it('counts calls against limits another process set, on the first call after the change', async () => {
    expect((await getLink()).policy).toBe('"minute";q=600;w=60');
    await other.settings.setLimits({ callsPerMinute: 7 });
    expect((await getLink()).policy).toBe('"minute";q=7;w=60');
  });

  it('refuses a token another process revoked, on the first call after the revocation', async () => {
    expect((await getLink()).status).toBe(200);
    expect(await other.tokens.revoke(token.record.id, server.clock.now())).toBe(true);
    expect((await getLink()).status).toBe(401);
  });
});
