import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cryptoRandom } from '../../src/domain/random.js';
import { addWebhook } from '../../src/webhooks/manage.js';
import type { TestServer } from '../helpers/server.js';
import { memberWithTeam, WebVisitor, type WebPage } from '../helpers/web-forms.js';
import { startWebhookReceiver, startWebhookServer, type WebhookReceiver, type WebhookServer } from '../helpers/webhook-receiver.js';

/**
 * A team's Webhooks page (issue 26) over real HTTP, as a browser without JavaScript uses it: owners add an endpoint
 * (its secret shown once), send a test event, resume a paused one and remove one; members are refused; deliveries go
 * to a real receiver on loopback, which verifies them with the Standard Webhooks library.
 */
let hooks: WebhookServer;
let server: TestServer;
let receiver: WebhookReceiver;
let people = 0;

beforeAll(async () => {
  hooks = await startWebhookServer();
  server = hooks.server;
  await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
});
afterAll(() => hooks.stop());
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(() => receiver.close());

const unescaped = (text: string | undefined) => text?.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
const errorOf = (page: WebPage, id: string) => unescaped(new RegExp(`<p class="error" id="${id}-error">([^<]*)</p>`).exec(page.body)?.[1]);
const secretOf = (page: WebPage) => /id="new-secret" type="text" readonly value="(whsec_[^"]+)"/.exec(page.body)?.[1];
const noticeOf = (page: WebPage) => /<p class="notice" role="status">([^<]*)<\/p>/.exec(page.body)?.[1];

async function owner() {
  return memberWithTeam(server.url, `webhooks${++people}@example.com`, 'Crew');
}

/** Posts a form of the team's Webhooks page, as the browser would from that page. */
const post = (who: WebVisitor, team: string, path: string, fields: Record<string, string> = {}) => who.submit(`/teams/${team}/webhooks`, `/teams/${team}/webhooks${path}`, fields);

describe("a team's Webhooks page", () => {
  it('lets an owner add an endpoint, showing its secret once; events then reach the receiver, signed with it', async () => {
    const { visitor, team } = await owner();
    expect((await visitor.request('GET', `/teams/${team}`)).body).toContain(`href="/teams/${team}/webhooks"`);
    const added = await visitor.request('POST', `/teams/${team}/webhooks`, {
      _csrf: /name="_csrf" value="([^"]+)"/.exec((await visitor.request('GET', `/teams/${team}/webhooks`)).body)![1]!,
      url: hooks.hookUrl(receiver),
    });
    // Without events: refused beside the fieldset, nothing added.
    expect([added.status, errorOf(added, 'f-events')]).toEqual([400, 'Choose at least one event: link.created, link.changed, link.deleted, link.state_changed, clicks.daily.']);

    const form = new URLSearchParams({ _csrf: /name="_csrf" value="([^"]+)"/.exec(added.body)![1]!, url: hooks.hookUrl(receiver) });
    form.append('events', 'link.created');
    form.append('events', 'link.deleted');
    const res = await fetch(`${server.url}/teams/${team}/webhooks`, { method: 'POST', redirect: 'manual', headers: { cookie: visitor.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    const page = { status: res.status, headers: res.headers, body: await res.text(), location: null };
    expect(page.status).toBe(200);
    const secret = secretOf(page)!;
    expect(secret).toMatch(/^whsec_/);
    const [endpoint] = await server.app.ctx.store.webhooks.ofTeam(team);
    expect(endpoint).toMatchObject({ url: hooks.hookUrl(receiver), events: ['link.created', 'link.deleted'], secret });
    // Shown once: not on the page again.
    expect((await visitor.request('GET', `/teams/${team}/webhooks`)).body).not.toContain(secret);

    expect(noticeOf(await post(visitor, team, `/${endpoint!.id}/test`))).toBeUndefined();
    const after = await visitor.request('GET', `/teams/${team}/webhooks?done=test_sent`);
    expect(noticeOf(after)).toBe('A test event is on its way; its delivery shows below within a few seconds.');
    await server.app.webhooks.deliverNow();
    expect(receiver.verified(secret)).toEqual([{ type: 'webhook.test', timestamp: expect.any(String), data: { teamId: team, endpointId: endpoint!.id } }]);
    const shown = await visitor.request('GET', `/teams/${team}/webhooks`);
    expect(shown.body).toMatch(/<td data-label="Event">webhook\.test<\/td>.*<td data-label="State">delivered<\/td><td data-label="Attempts">1<\/td><td data-label="Last answer" class="wrap">answered 204<\/td>/);
  });

  it('says why a paused endpoint is paused and resumes it; removes one after asking', async () => {
    const { visitor, team } = await owner();
    const endpoint = await addedFor(team);
    await server.app.ctx.store.webhooks.pause(endpoint.id, 'No delivery has succeeded since yesterday.');
    expect((await visitor.request('GET', `/teams/${team}/webhooks`)).body).toContain('Paused: No delivery has succeeded since yesterday. Nothing is sent to it until it is resumed.');
    const resumed = await post(visitor, team, `/${endpoint.id}/resume`);
    expect([resumed.status, resumed.location]).toEqual([303, `/teams/${team}/webhooks?done=resumed`]);
    expect(await server.app.ctx.store.webhooks.get(endpoint.id)).toMatchObject({ state: 'active', pausedReason: null });

    const asked = await visitor.request('GET', `/teams/${team}/webhooks/${endpoint.id}/remove`);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('Remove the endpoint');
    const removed = await visitor.submit(`/teams/${team}/webhooks/${endpoint.id}/remove`, `/teams/${team}/webhooks/${endpoint.id}/remove`, {});
    expect([removed.status, removed.location]).toEqual([303, `/teams/${team}/webhooks?done=removed`]);
    expect(await server.app.ctx.store.webhooks.ofTeam(team)).toEqual([]);
  });

  it('refuses a bad address beside its field with its own status, and another team\'s endpoint is not found here', async () => {
    const { visitor, team } = await owner();
    const bad = await post(visitor, team, '', { url: 'https://bit.ly/hook', events: 'link.created' });
    expect(bad.status).toBe(400);
    expect(errorOf(bad, 'f-url')).toMatch(/link shortener/);
    const theirs = await addedFor((await owner()).team);
    expect((await post(visitor, team, `/${theirs.id}/test`)).status).toBe(404);
    expect((await visitor.request('GET', `/teams/${team}/webhooks/${theirs.id}/remove`)).status).toBe(404);
    expect(await server.app.ctx.store.webhooks.ofTeam(team)).toEqual([]);
  });

  it('refuses members who are not owners (403) and strangers (404); a form without its CSRF field is 403', async () => {
    const { visitor, team } = await owner();
    const endpoint = await addedFor(team);
    const member = await memberWithTeam(server.url, `webhooks${++people}@example.com`, 'Own');
    await server.app.ctx.store.teams.addMember(team, (await server.app.ctx.store.people.findByEmail(`webhooks${people}@example.com`))!.id, server.clock.now());
    const page = await member.visitor.request('GET', `/teams/${team}/webhooks`);
    expect(page.status).toBe(403);
    expect(page.body).not.toContain(endpoint.url);
    expect((await member.visitor.submit(`/teams/${team}`, `/teams/${team}/webhooks/${endpoint.id}/test`, {})).status).toBe(403);
    const stranger = (await owner()).visitor;
    expect((await stranger.request('GET', `/teams/${team}/webhooks`)).status).toBe(404);
    expect((await visitor.request('POST', `/teams/${team}/webhooks/${endpoint.id}/remove`, {})).status).toBe(403);
    expect(await server.app.ctx.store.webhooks.ofTeam(team)).toHaveLength(1);
  });
});

/** An endpoint the operator added to the team. */
async function addedFor(team: string) {
  const deps = { store: server.app.ctx.store, destinations: server.app.ctx.destinations, random: cryptoRandom, clock: server.clock };
  return addWebhook(deps, { teamId: team, url: hooks.hookUrl(receiver), events: ['link.created'] }, 'operator');
}
