import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/domain/webhooks.js';
import { cryptoRandom } from '../../src/domain/random.js';
import { BROWSERS } from '../analytics/user-agents.js';
import { addWebhook, resumeWebhook, sendTestEvent } from '../../src/webhooks/manage.js';
import { call, type Actor, type TestServer } from '../helpers/server.js';
import { startWebhookReceiver, startWebhookServer, type WebhookReceiver, type WebhookServer } from '../helpers/webhook-receiver.js';

/**
 * Webhook deliveries from the real server (issue 26, docs/behaviour.md "Webhooks") to a real receiver on loopback
 * (allowed by the operator's private-destinations setting): signed as Standard Webhooks has it and verified by the
 * specification's own library, retried on failure, paused after a day of failures, never redirected, never
 * reading more than a little of an answer, and connecting only where the service's resolver said the name points.
 * The sender runs when a test asks (app.webhooks.deliverNow) rather than on its one-second schedule.
 */
let hooks: WebhookServer;
let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  hooks = await startWebhookServer({ WEBHOOK_TIMEOUT_MS: '1000' });
  server = hooks.server;
});
afterAll(() => hooks.stop());
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver.close();
  await server.app.ctx.store.settings.setServiceSettings({ destinations: 'private' });
});

const ALL: WebhookEvent[] = ['link.created', 'link.changed', 'link.deleted', 'link.state_changed'];
const deps = () => ({ store: server.app.ctx.store, destinations: server.app.ctx.destinations, random: cryptoRandom, clock: server.clock });
const deliver = () => server.app.webhooks.deliverNow();
const recent = async (id: string) => server.app.ctx.store.webhooks.recent(id, 10);
/** What a refused call threw, as the surfaces show it. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { status: number; code: string; field: string | null; detail: string }) => ({ status: error.status, code: error.code, field: error.field, detail: error.detail }),
  );

const named = () => hooks.hookUrl(receiver);

async function hooked(url = named(), events: WebhookEvent[] = ALL): Promise<{ alice: Actor; hook: Awaited<ReturnType<typeof addWebhook>> }> {
  const alice = await server.person();
  const hook = await addWebhook(deps(), { teamId: alice.teamId, url, events }, 'operator');
  return { alice, hook };
}

describe('webhook deliveries', () => {
  it("tells the endpoint of each change, signed so that the Standard Webhooks library verifies it, the link with its addresses", async () => {
    const { alice, hook } = await hooked();
    const made = (await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/a', name: `hooked-${Date.now()}` }, alice.token)).body;
    await call(server, 'setNote', { code: made.code, note: 'Now with a note' }, alice.token);
    await call(server, 'deleteLink', { code: made.code }, alice.token);
    expect(await deliver()).toBe(3);
    const events = receiver.verified(hook.secret) as Array<{ type: string; timestamp: string; data: Record<string, unknown> }>;
    expect(events.map((event) => event.type)).toEqual(['link.created', 'link.changed', 'link.deleted']);
    const { hasPassword, ...link } = { ...made, hasPassword: false };
    expect(events[0]).toEqual({ type: 'link.created', timestamp: made.createdAt, data: { link: { ...link, teamId: alice.teamId, hasPassword } } });
    expect(events[1]!.data).toMatchObject({ changed: ['note'], link: { code: made.code, note: 'Now with a note', shortUrl: made.shortUrl } });
    const [first] = receiver.received;
    expect(first!.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': expect.stringMatching(/^msg_[0-9a-f]{32}$/) });
    expect(Math.abs(Number(first!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(3);
    expect((await recent(hook.id)).map((delivery) => [delivery.state, delivery.attempts, delivery.lastStatus])).toEqual([
      ['delivered', 1, 204], ['delivered', 1, 204], ['delivered', 1, 204],
    ]);
    // Nothing is sent twice.
    expect(await deliver()).toBe(0);
    expect(receiver.received).toHaveLength(3);
  });

  it('tries a failed delivery again on the schedule, with the same id, until the receiver recovers', async () => {
    const { alice, hook } = await hooked();
    receiver.answer = (_req, res) => void res.writeHead(503, { 'content-type': 'text/plain' }).end('Down for maintenance');
    await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/retry' }, alice.token);
    expect(await deliver()).toBe(1);
    expect(await recent(hook.id)).toMatchObject([{ state: 'pending', attempts: 1, lastStatus: 503, lastError: 'answered 503: Down for maintenance' }]);
    expect((await server.app.ctx.store.webhooks.get(hook.id))!.failingSince).not.toBeNull();
    // Not before its time: five seconds after the first attempt.
    expect(await deliver()).toBe(0);
    server.clock.advance(5_000);
    receiver.answer = (_req, res) => void res.writeHead(200).end();
    expect(await deliver()).toBe(1);
    expect(await recent(hook.id)).toMatchObject([{ state: 'delivered', attempts: 2, lastStatus: 200, lastError: null }]);
    expect((await server.app.ctx.store.webhooks.get(hook.id))!.failingSince).toBeNull();
    const [firstTry, secondTry] = receiver.received;
    expect(secondTry!.headers['webhook-id']).toBe(firstTry!.headers['webhook-id']);
    expect(secondTry!.body).toBe(firstTry!.body);
  });

  it('pauses an endpoint that has failed for a day, says why, and sends again once resumed', async () => {
    const { alice, hook } = await hooked();
    receiver.answer = (_req, res) => void res.writeHead(500).end();
    await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/paused' }, alice.token);
    const waits = [0, 5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
    for (const wait of waits) {
      server.clock.advance(wait);
      await deliver();
      if ((await server.app.ctx.store.webhooks.get(hook.id))!.state === 'paused') break;
    }
    const paused = (await server.app.ctx.store.webhooks.get(hook.id))!;
    // The eighth attempt, the last, comes 27 h 35 min after the first: past a day, so the endpoint is paused.
    expect(receiver.received).toHaveLength(8);
    expect(paused).toMatchObject({ state: 'paused', pausedReason: `No delivery has succeeded since ${paused.failingSince}; the last attempt answered 500.` });
    expect(await recent(hook.id)).toMatchObject([{ state: 'failed', attempts: 8, lastStatus: 500 }]);
    // Paused: nothing is queued for it, nor sent.
    await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/while-paused' }, alice.token);
    expect(await deliver()).toBe(0);
    expect(await recent(hook.id)).toHaveLength(1);
    receiver.answer = (_req, res) => void res.writeHead(204).end();
    expect(await resumeWebhook(deps(), hook.id, 'operator')).toMatchObject({ state: 'active', pausedReason: null, failingSince: null });
    await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/resumed' }, alice.token);
    expect(await deliver()).toBe(1);
    expect((await recent(hook.id))[0]).toMatchObject({ state: 'delivered', attempts: 1 });
  });

  it('follows no redirect, reads at most a little of an answer, and gives up on one that does not come in time', async () => {
    const { hook } = await hooked();
    receiver.answer = (_req, res) => void res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
    await sendTestEvent(deps(), hook.id, 'operator');
    await deliver();
    expect((await recent(hook.id))[0]).toMatchObject({ lastStatus: 302, lastError: 'answered 302' });
    expect(receiver.received).toHaveLength(1);

    receiver.answer = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.write('x'.repeat(64 * 1024));
      // Never ended: the sender stops reading after its first kilobyte, without waiting for the rest.
    };
    server.clock.advance(5_000);
    const started = performance.now();
    await deliver();
    expect(performance.now() - started).toBeLessThan(900);
    expect((await recent(hook.id))[0]!.lastError).toBe(`answered 500: ${'x'.repeat(200)}`);

    receiver.answer = () => undefined;
    server.clock.advance(5 * 60_000);
    await deliver();
    expect((await recent(hook.id))[0]).toMatchObject({ attempts: 3, lastStatus: null, lastError: 'no answer within 1 s' });
  });

  it('connects only to the address the resolver gave and the rules allow: a private one once private destinations are off', async () => {
    const { hook } = await hooked();
    await sendTestEvent(deps(), hook.id, 'operator');
    await deliver();
    expect(receiver.verified(hook.secret)).toEqual([{ type: 'webhook.test', timestamp: expect.any(String), data: { teamId: hook.teamId, endpointId: hook.id } }]);
    expect(receiver.received[0]!.headers.host).toBe(new URL(named()).host);

    await server.app.ctx.store.settings.setServiceSettings({ destinations: 'public' });
    server.clock.advance(1_000);
    await sendTestEvent(deps(), hook.id, 'operator');
    await deliver();
    expect(receiver.received).toHaveLength(1);
    expect((await recent(hook.id))[0]).toMatchObject({ state: 'pending', lastStatus: null, lastError: 'hooks.test resolves to a private-network address' });
  });

  it("tells a clicks.daily endpoint yesterday's clicks per link once, whatever the number of looks", async () => {
    const { alice, hook } = await hooked(named(), ['clicks.daily']);
    const made = (await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/counted' }, alice.token)).body;
    const yesterday = server.clock.now().toISOString().slice(0, 10);
    for (let i = 0; i < 2; i++) {
      const visit = await fetch(`${server.url}/${made.code}`, { redirect: 'manual', headers: { 'user-agent': BROWSERS.chromeWindows } });
      expect(visit.status).toBe(302);
    }
    // Written within a second (ANALYTICS_WRITE_MS), then the day is over.
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    server.clock.advance(24 * 3_600_000);
    await server.app.webhooks.dailyClicksNow();
    await server.app.webhooks.dailyClicksNow();
    // Earlier tests' deliveries still due may go too, to their receivers, closed by now: only this one's counts here.
    await deliver();
    expect(await recent(hook.id)).toMatchObject([{ type: 'clicks.daily', state: 'delivered' }]);
    expect(receiver.verified(hook.secret)).toEqual([
      {
        type: 'clicks.daily',
        timestamp: server.clock.now().toISOString(),
        data: { teamId: alice.teamId, date: yesterday, links: [{ code: made.code, name: null, shortLink: made.shortUrl, clicks: 2, visitors: 1 }] },
      },
    ]);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(`msg_clicks_${yesterday}_${hook.id}`);
  });

  it('refuses an endpoint whose address breaks the destination rules, as createLink refuses a destination', async () => {
    const alice = await server.person();
    await server.app.ctx.store.settings.setServiceSettings({ destinations: 'public' });
    expect(await refusal(addWebhook(deps(), { teamId: alice.teamId, url: named(), events: ['link.created'] }, 'operator'))).toMatchObject({ status: 400, code: 'invalid_destination', field: 'url' });
    expect(await refusal(addWebhook(deps(), { teamId: alice.teamId, url: 'https://bit.ly/hooks', events: ['link.created'] }, 'operator'))).toMatchObject({ status: 400, code: 'shortener_destination', field: 'url' });
    expect(await refusal(addWebhook(deps(), { teamId: alice.teamId, url: 'https://hooks.test/x', events: ['link.created'] }, 'operator'))).toMatchObject({ status: 400, code: 'private_destination', field: 'url' });
    expect(await refusal(addWebhook(deps(), { teamId: alice.teamId, url: 'https://example.com/x', events: ['link.made'] }, 'operator'))).toMatchObject({
      status: 400, code: 'bad_request', field: 'events', detail: 'Unknown event "link.made": the events are link.created, link.changed, link.deleted, link.state_changed, clicks.daily.',
    });
    expect(await refusal(addWebhook(deps(), { teamId: alice.teamId, url: 'https://example.com/x', events: [] }, { personId: 'person_stranger' }))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await server.app.ctx.store.webhooks.ofTeam(alice.teamId)).toEqual([]);
  });
});
