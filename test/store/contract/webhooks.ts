import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../src/domain/webhooks.js';
import type { LinkRecord, Team, WebhookEndpoint } from '../../../src/store/ports.js';
import { at, MINUTE, ROOMY, storeUnderTest, T0, type OpenStore } from './fixtures.js';

/** Webhook endpoints and their outbox (ports/webhooks.ts): the link operations write events with their change. */
export function webhooks(open: OpenStore): void {
  describe('webhooks', () => {
    const s = storeUnderTest(open);
    let endpoints = 0;

    async function endpoint(team: Team, events: WebhookEvent[] = ['link.created', 'link.changed', 'link.deleted', 'link.state_changed'], createdAt = T0) {
      const added = await s.store.webhooks.add(
        { id: `whk_${++endpoints}`, teamId: team.id, url: `https://hooks.example.com/${endpoints}`, events, secret: 'whsec_c2VjcmV0', createdAt: createdAt.toISOString() },
        10,
      );
      return added as WebhookEndpoint;
    }

    /** Every delivery of the endpoint, oldest first, as type and the body's link code and detail. */
    async function told(of: WebhookEndpoint) {
      const deliveries = (await s.store.webhooks.recent(of.id, 100)).reverse();
      return deliveries.map((delivery) => {
        const body = JSON.parse(delivery.payload) as { type: string; data: { link: LinkRecord & { hasPassword: boolean }; changed?: string[]; previousState?: string } };
        const { link, ...detail } = body.data;
        return { type: body.type, code: link.code, ...detail };
      });
    }

    it('adds endpoints up to the limit, refuses one for a team that is gone, lists and removes them', async () => {
      const team = await s.team();
      const first = await endpoint(team, ['link.created']);
      expect(first).toEqual({
        id: first.id, teamId: team.id, url: first.url, events: ['link.created'], secret: 'whsec_c2VjcmV0', state: 'active', pausedReason: null,
        failingSince: null, createdAt: T0.toISOString(),
      });
      const second = await endpoint(team, ['link.deleted', 'clicks.daily'], at(MINUTE));
      expect(await s.store.webhooks.add({ ...first, id: 'whk_over' }, 2)).toBe('team_webhooks_full');
      expect(await s.store.webhooks.add({ ...first, id: 'whk_gone', teamId: 'team_gone' }, 10)).toBe('no_team');
      expect(await s.store.webhooks.ofTeam(team.id)).toEqual([first, second]);
      expect(await s.store.webhooks.get(second.id)).toEqual(second);
      expect(await s.store.webhooks.subscribed('clicks.daily')).toEqual([second]);
      expect(await s.store.webhooks.remove(first.id)).toBe(true);
      expect(await s.store.webhooks.remove(first.id)).toBe(false);
      expect(await s.store.webhooks.all()).toEqual([second]);
    });

    it("writes each link change's event with the change, for the team's endpoints that asked for it", async () => {
      const team = await s.team();
      const everything = await endpoint(team);
      const createdOnly = await endpoint(team, ['link.created']);
      const other = await endpoint(await s.team());
      const link = await s.link(team, { destination: 'https://example.com/a', passwordHash: 'secret-hash' });
      await s.store.links.setDestination(link.id, 'https://example.com/b', ROOMY, at(MINUTE));
      await s.store.links.setOptions(link.id, { maxClicks: 5, tags: ['x'] }, ROOMY, at(2 * MINUTE));
      await s.store.links.rename(link.id, 'webhooked', ROOMY, at(3 * MINUTE));
      await s.store.links.setNote(link.id, 'A note', at(4 * MINUTE));
      await s.store.links.setState(link.code, 'disabled', at(5 * MINUTE));
      await s.store.links.setState(link.code, 'disabled', at(6 * MINUTE));
      await s.store.links.delete(link.id, ROOMY, at(7 * MINUTE));
      expect(await told(everything)).toEqual([
        { type: 'link.created', code: link.code },
        { type: 'link.changed', code: link.code, changed: ['destination'] },
        { type: 'link.changed', code: link.code, changed: ['maxClicks', 'tags'] },
        { type: 'link.changed', code: link.code, changed: ['name'] },
        { type: 'link.changed', code: link.code, changed: ['note'] },
        { type: 'link.state_changed', code: link.code, previousState: 'active' },
        { type: 'link.deleted', code: link.code },
      ]);
      expect(await told(createdOnly)).toEqual([{ type: 'link.created', code: link.code }]);
      expect(await told(other)).toEqual([]);
      const [created] = (await s.store.webhooks.recent(createdOnly.id, 1));
      const body = JSON.parse(created!.payload);
      // The link as the API shows it, less its addresses (the sender adds them), and never its password's hash.
      expect(body).toEqual({
        type: 'link.created',
        timestamp: T0.toISOString(),
        data: { link: { id: link.id, teamId: team.id, code: link.code, name: null, destination: 'https://example.com/a', note: null, state: 'active', createdAt: link.createdAt, changedAt: null, expiresAt: null, maxClicks: null, hasPassword: true, tags: [], forwardQuery: false } },
      });
      expect(created!.payload).not.toContain('secret-hash');
    });

    it('writes nothing for a change refused or made by a dry run, nor for a paused endpoint', async () => {
      const team = await s.team();
      const hook = await endpoint(team);
      const limits = { ...ROOMY, maxLinksPerTeam: 1 };
      await s.store.links.importMany([{ teamId: team.id, teamCreatedAt: new Date(team.createdAt), destination: 'https://example.com/dry', name: null, note: null, nameIfFree: false }], limits, T0, true);
      await s.link(team, {}, T0, limits);
      await expect(s.link(team, {}, T0, limits)).rejects.toMatchObject({ code: 'team_full' });
      expect((await told(hook)).map((event) => event.type)).toEqual(['link.created']);
      expect(await s.store.webhooks.pause(hook.id, 'Failing for a day.')).toBe(true);
      expect(await s.store.webhooks.pause(hook.id, 'Again.')).toBe(false);
      await s.link(await s.team(), {});
      expect(await s.store.webhooks.get(hook.id)).toMatchObject({ state: 'paused', pausedReason: 'Failing for a day.' });
    });

    it('claims due deliveries once, oldest first, and takes back a claim that ran out; a paused endpoint waits', async () => {
      const team = await s.team();
      const hook = await endpoint(team);
      const [one, two] = [await s.link(team, {}, T0), await s.link(team, {}, at(1))];
      const claimed = await s.store.webhooks.claim('a', 10, at(MINUTE), at(2));
      expect(claimed.map((delivery) => [JSON.parse(delivery.payload).data.link.code, delivery.attempts, delivery.url, delivery.secret])).toEqual([
        [one.code, 1, hook.url, hook.secret],
        [two.code, 1, hook.url, hook.secret],
      ]);
      expect(await s.store.webhooks.claim('b', 10, at(2 * MINUTE), at(3))).toEqual([]);
      // The first sender died: past its claim, another takes them, an attempt more each (one claim's worth at a time).
      const again = [...(await s.store.webhooks.claim('b', 1, at(3 * MINUTE), at(MINUTE))), ...(await s.store.webhooks.claim('b', 1, at(3 * MINUTE), at(MINUTE)))];
      expect(again.map((delivery) => [delivery.eventId, delivery.attempts]).sort()).toEqual(claimed.map((delivery) => [delivery.eventId, 2]).sort());
      // The first sender's late report changes nothing: the delivery is no longer its.
      expect(await s.store.webhooks.delivered(claimed[0]!, 'a', 200, at(MINUTE))).toBe(false);
      await s.store.webhooks.pause(hook.id, 'Paused.');
      expect(await s.store.webhooks.claim('c', 10, at(10 * MINUTE), at(5 * MINUTE))).toEqual([]);
      await s.store.webhooks.resume(hook.id);
      expect((await s.store.webhooks.claim('c', 10, at(10 * MINUTE), at(5 * MINUTE))).map((d) => d.eventId).sort()).toEqual(claimed.map((d) => d.eventId).sort());
    });

    it('records a delivery, a retry and a giving up, and counts an endpoint failing from its first failure after a success', async () => {
      const team = await s.team();
      const hook = await endpoint(team);
      await s.link(team, {}, T0);
      await s.link(team, {}, at(1));
      const [first, second] = await s.store.webhooks.claim('a', 10, at(MINUTE), at(2));
      expect(await s.store.webhooks.failed(first!, 'a', { status: 500, error: 'answered 500', retryAt: at(5_000) }, at(3))).toEqual({ failingSince: at(3).toISOString() });
      expect(await s.store.webhooks.failed(second!, 'a', { status: null, error: 'ECONNREFUSED', retryAt: null }, at(4))).toEqual({ failingSince: at(3).toISOString() });
      expect((await s.store.webhooks.recent(hook.id, 10)).map(({ state, attempts, lastStatus, lastError }) => ({ state, attempts, lastStatus, lastError }))).toEqual([
        { state: 'failed', attempts: 1, lastStatus: null, lastError: 'ECONNREFUSED' },
        { state: 'pending', attempts: 1, lastStatus: 500, lastError: 'answered 500' },
      ]);
      expect(await s.store.webhooks.claim('a', 10, at(MINUTE), at(4_999))).toEqual([]);
      const [retried] = await s.store.webhooks.claim('a', 10, at(MINUTE), at(5_000));
      expect(retried).toMatchObject({ eventId: first!.eventId, attempts: 2 });
      expect(await s.store.webhooks.delivered(retried!, 'a', 204, at(6_000))).toBe(true);
      expect(await s.store.webhooks.get(hook.id)).toMatchObject({ failingSince: null });
      expect((await s.store.webhooks.recent(hook.id, 10))[1]).toMatchObject({ state: 'delivered', lastStatus: 204, lastError: null, lastAttemptAt: at(6_000).toISOString() });
      expect(await s.store.webhooks.prune(at(6_001), 10)).toBe(2);
      expect(await s.store.webhooks.recent(hook.id, 10)).toEqual([]);
    });

    it('queues a test event for one endpoint, and an event told twice (the same id) once', async () => {
      const team = await s.team();
      const [hook, other] = [await endpoint(team, ['clicks.daily']), await endpoint(team, ['clicks.daily'])];
      const event = { eventId: 'msg_1', teamId: team.id, type: 'webhook.test' as const, payload: '{"type":"webhook.test"}', at: T0 };
      await s.store.webhooks.enqueue(event, hook.id);
      await s.store.webhooks.enqueue(event, hook.id);
      expect((await s.store.webhooks.recent(hook.id, 10)).map((delivery) => delivery.eventId)).toEqual(['msg_1']);
      expect(await s.store.webhooks.recent(other.id, 10)).toEqual([]);
      // Removing the endpoint removes its deliveries; removing the team, its endpoints.
      await s.store.webhooks.remove(hook.id);
      expect(await s.store.webhooks.recent(hook.id, 10)).toEqual([]);
    });
  });
}
