import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cryptoRandom } from '../../src/domain/random.js';
import { MAX_TEAM_WEBHOOKS } from '../../src/domain/webhooks.js';
import { addWebhook } from '../../src/webhooks/manage.js';
import { runCliWith } from '../helpers/cli.js';
import { databaseEnv } from '../helpers/database-env.js';
import type { TestServer } from '../helpers/server.js';
import { startWebhookReceiver, startWebhookServer, type WebhookReceiver, type WebhookServer } from '../helpers/webhook-receiver.js';

/**
 * The operator's `shortlinks webhook add|list|remove|resume|test` on a real server's database (issue 26,
 * docs/behaviour.md "Webhooks"): the address checked as a destination is (through the test's DNS stand-in, by which
 * `hooks.test` is loopback, allowed by the private-destinations setting), the secret printed once and never listed,
 * and a test event sent by the server to a real receiver, which verifies it with the Standard Webhooks library.
 */
let hooks: WebhookServer;
let server: TestServer;
let receiver: WebhookReceiver;
/** The line naming the database, as every command prints it (first on stdout, or on stderr with --json). */
let where: string;

beforeAll(async () => {
  hooks = await startWebhookServer();
  server = hooks.server;
  where = (await cli('list')).stdout.split('\n')[0]!;
  expect(where).toMatch(/^database: /);
});
afterAll(() => hooks.stop());
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(() => receiver.close());

function cli(...args: string[]) {
  return runCliWith({ env: { ...databaseEnv(server.dbPath), DNS_SERVERS: hooks.dns.servers.join(',') } }, 'webhook', ...args);
}

const EVENTS = 'link.created, link.changed, link.deleted, link.state_changed, clicks.daily';
const endpointsOf = (team: string) => server.app.ctx.store.webhooks.ofTeam(team);

describe('shortlinks webhook add', () => {
  it('adds the endpoint with --json: the whole endpoint, its secret this once, the events in their own order', async () => {
    const alice = await server.person();
    const url = hooks.hookUrl(receiver);
    const run = await cli('add', '--team', alice.teamId, '--url', url, '--events', 'link.deleted,link.created', '--json');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: `${where}\n` });
    const [stored] = await endpointsOf(alice.teamId);
    expect(stored).toEqual({
      id: expect.stringMatching(/^whk_/), teamId: alice.teamId, url, events: ['link.created', 'link.deleted'], secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      state: 'active', pausedReason: null, failingSince: null, createdAt: expect.any(String),
    });
    expect(JSON.parse(run.stdout)).toEqual(stored);
  });

  it('prints the endpoint and its secret, saying it is shown once', async () => {
    const alice = await server.person();
    const url = hooks.hookUrl(receiver);
    const run = await cli('add', '--team', alice.teamId, '--url', url, '--events', 'clicks.daily');
    const [stored] = await endpointsOf(alice.teamId);
    expect(run).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `${where}\nadded ${stored!.id} ${alice.teamId} ${url} clicks.daily active\nsecret ${stored!.secret} (shown once; keep it now: receivers verify each delivery with it)\n`,
    });
  });

  it('refuses an unknown event as a bad command line (exit 2), adding nothing', async () => {
    const alice = await server.person();
    const run = await cli('add', '--team', alice.teamId, '--url', hooks.hookUrl(receiver), '--events', 'link.created,link.made');
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `shortlinks: Unknown event "link.made": the events are ${EVENTS}.\n` });
    expect(await endpointsOf(alice.teamId)).toEqual([]);
  });

  it('refuses no events at all (exit 2) and a missing flag (exit 2)', async () => {
    const alice = await server.person();
    expect(await cli('add', '--team', alice.teamId, '--url', hooks.hookUrl(receiver), '--events', ',')).toMatchObject({
      code: 2, stdout: '', stderr: `shortlinks: Choose at least one event: ${EVENTS}.\n`,
    });
    expect(await cli('add', '--team', alice.teamId, '--events', 'link.created')).toMatchObject({ code: 2, stdout: '', stderr: 'shortlinks: missing --url\n' });
  });

  it('refuses an unknown team (exit 1), naming the database', async () => {
    const run = await cli('add', '--team', 'team_nosuchteam', '--url', hooks.hookUrl(receiver), '--events', 'link.created');
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `shortlinks: No such team. (${where})\n` });
  });

  it('refuses an address the destination rules refuse (exit 1), with their message', async () => {
    const alice = await server.person();
    const run = await cli('add', '--team', alice.teamId, '--url', 'https://bit.ly/hook', '--events', 'link.created');
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: 'shortlinks: The destination is a link of another link shortener; use the address it leads to instead.\n' });
    expect(await endpointsOf(alice.teamId)).toEqual([]);
  });

  it(`refuses an endpoint beyond the team's ${MAX_TEAM_WEBHOOKS} (exit 1)`, async () => {
    const alice = await server.person();
    const deps = { store: server.app.ctx.store, destinations: server.app.ctx.destinations, random: cryptoRandom, clock: server.clock };
    for (let i = 0; i < MAX_TEAM_WEBHOOKS; i++) await addWebhook(deps, { teamId: alice.teamId, url: `${hooks.hookUrl(receiver)}/${i}`, events: ['link.created'] }, 'operator');
    const run = await cli('add', '--team', alice.teamId, '--url', hooks.hookUrl(receiver), '--events', 'link.created');
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `shortlinks: A team has at most ${MAX_TEAM_WEBHOOKS} webhook endpoints. (${where})\n` });
    expect(await endpointsOf(alice.teamId)).toHaveLength(MAX_TEAM_WEBHOOKS);
  });
});

describe('shortlinks webhook list, remove, resume and test', () => {
  /** An endpoint added through the CLI, as --json printed it. */
  async function added(team: string, events = 'link.created,link.deleted') {
    return JSON.parse((await cli('add', '--team', team, '--url', hooks.hookUrl(receiver), '--events', events, '--json')).stdout) as { id: string; url: string; secret: string };
  }

  it("lists a team's endpoints, or every team's, with their state and why one is paused; never a secret", async () => {
    const alice = await server.person();
    const bob = await server.person();
    const first = await added(alice.teamId);
    const second = await added(bob.teamId, 'clicks.daily');
    await server.app.ctx.store.webhooks.pause(second.id, 'Failing for a day.');

    const listed = await cli('list', '--team', alice.teamId);
    expect(listed).toMatchObject({ code: 0, stderr: '', stdout: `${where}\n${first.id} ${alice.teamId} ${first.url} link.created,link.deleted active\n` });
    const all = (await cli('list')).stdout.split('\n');
    expect(all).toContain(`${first.id} ${alice.teamId} ${first.url} link.created,link.deleted active`);
    expect(all).toContain(`${second.id} ${bob.teamId} ${second.url} clicks.daily paused: Failing for a day.`);
    expect(all.join('\n')).not.toMatch(/whsec_/);

    const json = await cli('list', '--team', bob.teamId, '--json');
    expect(json.stderr).toBe(`${where}\n`);
    expect(JSON.parse(json.stdout)).toEqual({
      webhooks: [{ id: second.id, teamId: bob.teamId, url: second.url, events: ['clicks.daily'], state: 'paused', pausedReason: 'Failing for a day.', failingSince: null, createdAt: expect.any(String) }],
    });
    expect(await cli('list', '--team', 'team_nosuchteam')).toMatchObject({ code: 0, stdout: `${where}\nno webhooks\n` });
  });

  it('queues a webhook.test event, which the server sends signed with the secret add printed', async () => {
    const alice = await server.person();
    const endpoint = await added(alice.teamId);
    const tested = await cli('test', '--id', endpoint.id);
    expect(tested.code).toBe(0);
    const [shown, queued, end] = tested.stdout.split('\n');
    expect([shown, end]).toEqual([where, '']);
    expect(queued).toMatch(/^queued msg_[0-9a-f]{32}$/);
    // The CLI queued it at the real time; the server's clock is a test's, a week before.
    server.clock.current = new Date(Date.now() + 1_000);
    expect(await server.app.webhooks.deliverNow()).toBe(1);
    expect(receiver.verified(endpoint.secret)).toEqual([{ type: 'webhook.test', timestamp: expect.any(String), data: { teamId: alice.teamId, endpointId: endpoint.id } }]);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(queued!.slice('queued '.length));
  });

  it('resumes a paused endpoint', async () => {
    const alice = await server.person();
    const endpoint = await added(alice.teamId);
    await server.app.ctx.store.webhooks.pause(endpoint.id, 'Failing for a day.');
    expect(await cli('resume', '--id', endpoint.id)).toMatchObject({ code: 0, stderr: '', stdout: `${where}\nresumed ${endpoint.id}\n` });
    expect(await server.app.ctx.store.webhooks.get(endpoint.id)).toMatchObject({ state: 'active', pausedReason: null });
  });

  it('removes an endpoint; then, as any unknown one, it is not found (exit 1)', async () => {
    const alice = await server.person();
    const endpoint = await added(alice.teamId);
    expect(await cli('remove', '--id', endpoint.id)).toMatchObject({ code: 0, stderr: '', stdout: `${where}\nremoved ${endpoint.id} from ${alice.teamId}\n` });
    expect(await endpointsOf(alice.teamId)).toEqual([]);
    for (const command of ['remove', 'resume', 'test']) {
      expect(await cli(command, '--id', endpoint.id)).toMatchObject({ code: 1, stdout: '', stderr: `shortlinks: No such webhook endpoint. (${where})\n` });
    }
    expect(await cli('remove')).toMatchObject({ code: 2, stdout: '', stderr: 'shortlinks: missing --id\n' });
  });
});
