import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cryptoRandom } from '../../src/domain/random.js';
import { addWebhook } from '../../src/webhooks/manage.js';
import { databaseEnv } from '../helpers/database-env.js';
import { call, type TestServer } from '../helpers/server.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startWebhookReceiver, startWebhookServer, type WebhookReceiver, type WebhookServer } from '../helpers/webhook-receiver.js';

/**
 * Webhook deliveries across real server processes on one database (issue 26): an event written with its change
 * survives a SIGKILL before it was sent and arrives once from the next process; two processes sending at once send
 * each event once. The test's own server (in this process) only sets up and never sends (its poll is ten minutes).
 */
let hooks: WebhookServer;
let server: TestServer;
let receiver: WebhookReceiver;
const processes: ServerProcess[] = [];

beforeAll(async () => {
  hooks = await startWebhookServer();
  server = hooks.server;
  await server.setLimits({ maxLinksPerTeam: 1_000, perHour: 1_000, perDay: 1_000, firstWeekPerDay: 1_000 });
});
afterAll(() => hooks.stop());
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.stop()));
  await receiver.close();
});

/** A server process on the test's database, sending its webhooks every `pollMs`. */
async function serverProcess(pollMs: number): Promise<ServerProcess> {
  const started = await startServerProcess({ dbPath: server.dbPath, env: { ...databaseEnv(server.dbPath), DNS_SERVERS: hooks.dns.servers.join(','), WEBHOOK_POLL_MS: String(pollMs) } });
  processes.push(started);
  return started;
}

async function hookedTeam() {
  const alice = await server.person();
  const deps = { store: server.app.ctx.store, destinations: server.app.ctx.destinations, random: cryptoRandom, clock: server.clock };
  const hook = await addWebhook(deps, { teamId: alice.teamId, url: hooks.hookUrl(receiver), events: ['link.created'] }, 'operator');
  return { alice, hook };
}

/** Waits `ms`, for what must not happen (a second delivery) to have had its chance. */
const quiet = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook deliveries across processes', () => {
  it('a change committed just before its process is killed (SIGKILL) is told once, by the next process', async () => {
    const { alice, hook } = await hookedTeam();
    const doomed = await serverProcess(600_000);
    const made = await fetch(`http://127.0.0.1:${doomed.port}/v1/createLink`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` },
      body: JSON.stringify({ team: alice.teamId, destination: 'https://example.com/survives' }),
    });
    expect(made.status).toBe(200);
    const { code } = (await made.json()) as { code: string };
    doomed.child.kill('SIGKILL');
    await new Promise((resolve) => doomed.child.once('exit', resolve));
    expect(receiver.received).toEqual([]);

    await serverProcess(200);
    await receiver.waitFor(1);
    await quiet(1_000);
    const events = receiver.verified(hook.secret) as Array<{ type: string; data: { link: { code: string } } }>;
    expect(events.map((event) => [event.type, event.data.link.code])).toEqual([['link.created', code]]);
  });

  it('two processes sending at once send each event once', async () => {
    const { alice, hook } = await hookedTeam();
    await Promise.all([serverProcess(100), serverProcess(100)]);
    const codes: string[] = [];
    for (let i = 0; i < 30; i++) {
      codes.push((await call(server, 'createLink', { team: alice.teamId, destination: `https://example.com/both/${i}` }, alice.token)).body.code);
    }
    await receiver.waitFor(30);
    await quiet(1_000);
    const events = receiver.verified(hook.secret) as Array<{ data: { link: { code: string } } }>;
    expect(events.map((event) => event.data.link.code).sort()).toEqual([...codes].sort());
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(30);
    expect((await server.app.ctx.store.webhooks.recent(hook.id, 50)).every((delivery) => delivery.state === 'delivered' && delivery.attempts === 1)).toBe(true);
  });
});
