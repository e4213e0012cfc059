import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCliWith } from '../helpers/cli.js';
import { databaseEnv } from '../helpers/database-env.js';
import type { TestServer } from '../helpers/server.js';
import { startWebhookReceiver, startWebhookServer, type WebhookReceiver, type WebhookServer } from '../helpers/webhook-receiver.js';

/**
 * The operator's `shortlinks webhook add|list|remove|resume|test` on a real server's database (issue 26): the address
 * checked as a destination is (through the test's DNS stand-in), the secret printed once, and a test event sent by
 * the server to a real receiver, which verifies it with the Standard Webhooks library.
 */
let hooks: WebhookServer;
let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  hooks = await startWebhookServer();
  server = hooks.server;
});
afterAll(() => hooks.stop());
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(() => receiver.close());

const cli = (...args: string[]) => runCliWith({ env: { ...databaseEnv(server.dbPath), DNS_SERVERS: hooks.dns.servers.join(',') } }, 'webhook', ...args);

describe('shortlinks webhook', () => {
  it('adds an endpoint, printing its secret once; lists, tests, resumes and removes it', async () => {
    const alice = await server.person();
    const url = hooks.hookUrl(receiver);
    const added = await cli('add', '--team', alice.teamId, '--url', url, '--events', 'link.deleted,link.created', '--json');
    expect(added.code).toBe(0);
    const endpoint = JSON.parse(added.stdout);
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^whk_/), teamId: alice.teamId, url, events: ['link.created', 'link.deleted'], secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      state: 'active', pausedReason: null, failingSince: null, createdAt: expect.any(String),
    });

    const listed = await cli('list', '--team', alice.teamId);
    expect(listed.stdout.split('\n').slice(1)).toEqual([`${endpoint.id} ${alice.teamId} ${url} link.created,link.deleted active`, '']);
    expect(listed.stdout).not.toContain(endpoint.secret);
    expect(JSON.parse((await cli('list', '--team', alice.teamId, '--json')).stdout).webhooks[0]).not.toHaveProperty('secret');

    const tested = await cli('test', '--id', endpoint.id);
    expect(tested.stdout.split('\n')[1]).toMatch(/^queued msg_[0-9a-f]{32}$/);
    // The CLI queued it at the real time; the server's clock is a test's, a week before.
    server.clock.current = new Date(Date.now() + 1_000);
    await server.app.webhooks.deliverNow();
    expect(receiver.verified(endpoint.secret)).toEqual([{ type: 'webhook.test', timestamp: expect.any(String), data: { teamId: alice.teamId, endpointId: endpoint.id } }]);

    await server.app.ctx.store.webhooks.pause(endpoint.id, 'Failing for a day.');
    expect((await cli('list')).stdout).toContain(`${endpoint.id} ${alice.teamId} ${url} link.created,link.deleted paused: Failing for a day.`);
    expect((await cli('resume', '--id', endpoint.id)).stdout.split('\n')[1]).toBe(`resumed ${endpoint.id}`);
    expect(await server.app.ctx.store.webhooks.get(endpoint.id)).toMatchObject({ state: 'active' });

    expect((await cli('remove', '--id', endpoint.id)).stdout.split('\n')[1]).toBe(`removed ${endpoint.id} from ${alice.teamId}`);
    expect(await server.app.ctx.store.webhooks.ofTeam(alice.teamId)).toEqual([]);
  });

  it('refuses an unknown event (exit 2), a refused address, an unknown team or endpoint (exit 1), adding nothing', async () => {
    const alice = await server.person();
    const url = hooks.hookUrl(receiver);
    const refusals = [
      [await cli('add', '--team', alice.teamId, '--url', url, '--events', 'link.made'), 2, /^shortlinks: Unknown event "link\.made": the events are link\.created, /],
      [await cli('add', '--team', alice.teamId, '--url', 'https://bit.ly/x', '--events', 'link.created'), 1, /^shortlinks: .*link shortener/],
      [await cli('add', '--team', 'team_nosuchteam', '--url', url, '--events', 'link.created'), 1, /^shortlinks: No such team\. \(/],
      [await cli('remove', '--id', 'whk_nosuchendpoint'), 1, /^shortlinks: No such webhook endpoint\. \(/],
      [await cli('add', '--team', alice.teamId, '--events', 'link.created'), 2, /^shortlinks: missing --url$/],
    ] as const;
    for (const [run, code, message] of refusals) {
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code, stdout: '' });
      expect(run.stderr.trim()).toMatch(message);
    }
    expect(await server.app.ctx.store.webhooks.ofTeam(alice.teamId)).toEqual([]);
  });
});
