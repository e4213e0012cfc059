import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cryptoRandom } from '../../src/domain/random.js';
import { MAX_TEAM_WEBHOOKS, type WebhookEvent } from '../../src/domain/webhooks.js';
import { addWebhook } from '../../src/webhooks/manage.js';
import type { TestServer } from '../helpers/server.js';
import { memberWithTeam, WebVisitor, type WebPage } from '../helpers/web-forms.js';
import { startWebhookReceiver, startWebhookServer, type WebhookReceiver, type WebhookServer } from '../helpers/webhook-receiver.js';

/**
 * A team's Webhooks page (issue 26, docs/behaviour.md "Webhooks") over real HTTP, as a browser without JavaScript
 * uses it: owners add an endpoint (its secret shown once), send a test event, resume a paused one and remove one
 * (asked first); members are refused (403), strangers find nothing (404). Deliveries go to a real receiver on
 * loopback (named `hooks.test` through the test's DNS stand-in; private destinations allowed), which verifies them
 * with the Standard Webhooks library; the sender runs when a test asks (app.webhooks.deliverNow).
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

const store = () => server.app.ctx.store;
const EVENTS = 'link.created, link.changed, link.deleted, link.state_changed, clicks.daily';

/** Text as the page shows it: the entities the escaping wrote read back. */
const shown = (text: string | undefined) =>
  text?.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
/** The message beside the field (or the fieldset) whose id is `id`. */
const errorOf = (page: WebPage, id: string) => shown(new RegExp(`<p class="error" id="${id}-error">([^<]*)</p>`).exec(page.body)?.[1]);
const alertOf = (page: WebPage) => shown(/<p class="alert" role="alert">([^<]*)<\/p>/.exec(page.body)?.[1]);
const noticeOf = (page: WebPage) => shown(/<p class="notice" role="status">([^<]*)<\/p>/.exec(page.body)?.[1]);
const secretOf = (page: WebPage) => /<input id="new-secret" class="secret" type="text" readonly value="(whsec_[^"]+)"/.exec(page.body)?.[1];
const csrfOf = (page: WebPage) => /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;

/** A new person with a team of their own, which they own. */
function owner(): Promise<{ visitor: WebVisitor; team: string }> {
  return memberWithTeam(server.url, `webhooks${++people}@example.com`, 'Crew');
}

/** Someone the owner invited into the team, who accepted: a member, not an owner. */
async function memberOf(owns: WebVisitor, team: string): Promise<WebVisitor> {
  const email = `webhooks${++people}@example.com`;
  const visitor = new WebVisitor(server.url);
  expect((await visitor.signUp(email)).status).toBe(303);
  expect((await visitor.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);
  expect((await owns.submit(`/teams/${team}`, `/teams/${team}/members`, { email })).status).toBe(303);
  expect((await visitor.submit('/teams', `/teams/${team}/accept`, {})).status).toBe(303);
  return visitor;
}

const page = (who: WebVisitor, team: string, query = '') => who.request('GET', `/teams/${team}/webhooks${query}`);
/** A form of the team's Webhooks page (`path` after `/webhooks`), posted as the browser would from that page. */
const post = (who: WebVisitor, team: string, path: string, fields: Record<string, string> = {}) => who.submit(`/teams/${team}/webhooks`, `/teams/${team}/webhooks${path}`, fields);

/** The add form, posted with the page's CSRF field: the address and one `events` field per box ticked. */
async function add(who: WebVisitor, team: string, url: string, events: readonly string[]): Promise<WebPage> {
  const form = new URLSearchParams({ _csrf: csrfOf(await page(who, team)), url });
  for (const event of events) form.append('events', event);
  const res = await fetch(`${server.url}/teams/${team}/webhooks`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: who.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  return { status: res.status, headers: res.headers, body: await res.text(), location: res.headers.get('location') };
}

/** An endpoint the operator added to the team, to the test's receiver. */
function addedFor(team: string, events: WebhookEvent[] = ['link.created'], url = hooks.hookUrl(receiver)) {
  const deps = { store: store(), destinations: server.app.ctx.destinations, random: cryptoRandom, clock: server.clock };
  return addWebhook(deps, { teamId: team, url, events }, 'operator');
}

describe("a team's Webhooks page: adding an endpoint", () => {
  it('shows the secret once, in a labelled read-only field with how to verify; link events then reach the receiver signed with it', async () => {
    const { visitor, team } = await owner();
    const empty = await page(visitor, team);
    expect(empty.status).toBe(200);
    expect(empty.body).toContain('<h2>Endpoints</h2>\n<p>None yet.</p>');
    expect(empty.body).toContain('<fieldset><legend>Events to send</legend>');

    const url = hooks.hookUrl(receiver);
    const added = await add(visitor, team, url, ['link.created', 'link.deleted']);
    expect([added.status, added.location]).toEqual([200, null]);
    const [endpoint] = await store().webhooks.ofTeam(team);
    expect(endpoint).toMatchObject({ url, events: ['link.created', 'link.deleted'], state: 'active' });
    expect(secretOf(added)).toBe(endpoint!.secret);
    expect(added.body).toContain(`<label for="new-secret">Signing secret for ${url}</label>`);
    expect(added.body).toContain('Shown this once: keep it now.');
    expect(added.body).toContain('<code>new Webhook(secret).verify(body, headers)</code>');
    // The form is empty again, for another endpoint.
    expect(added.body).toContain('<input id="f-url" name="url" type="url" value=""');

    // Never again: not on a reload, not in any address.
    const again = await page(visitor, team);
    expect(again.status).toBe(200);
    expect(again.body).not.toContain(endpoint!.secret);
    expect(again.body).not.toContain('new-secret');
    expect(again.body).toContain(`<h3 id="${endpoint!.id}-title" style="margin-top:0" class="wrap">${url}</h3>`);
    expect(again.body).toContain('<p>Events: link.created, link.deleted · active</p>');

    const made = await visitor.submit('/app', '/app/links', { team, destination: 'https://example.com/hooked' });
    expect(made.status).toBe(303);
    const code = /^\/app\?made=([A-Za-z0-9]{7})$/.exec(made.location!)![1]!;
    expect(await server.app.webhooks.deliverNow()).toBe(1);
    const [event] = receiver.verified(endpoint!.secret) as Array<{ type: string; data: { link: Record<string, unknown> } }>;
    expect(event).toMatchObject({ type: 'link.created', timestamp: server.clock.now().toISOString() });
    expect(event!.data.link).toMatchObject({ code, teamId: team, destination: 'https://example.com/hooked', shortUrl: `${server.url}/${code}`, hasPassword: false });
  });

  it('refuses an address the destination rules refuse, beside the field, with its status; the form keeps what was typed', async () => {
    const { visitor, team } = await owner();
    const shortener = await add(visitor, team, 'https://bit.ly/hook', ['link.created']);
    expect([shortener.status, errorOf(shortener, 'f-url')]).toEqual([400, 'The destination is a link of another link shortener; use the address it leads to instead.']);
    expect(shortener.body).toContain('value="https://bit.ly/hook" required aria-invalid="true"');
    expect(shortener.body).toMatch(/<input type="checkbox" id="f-event-link-created" name="events" value="link\.created" checked>/);
    expect(secretOf(shortener)).toBeUndefined();

    const notAnAddress = await add(visitor, team, 'not an address', ['link.created']);
    expect(notAnAddress.status).toBe(400);
    expect(errorOf(notAnAddress, 'f-url')).toBe('The destination is not a valid web address.');

    // Where the operator allows public destinations only, a name that resolves to loopback is refused.
    await store().settings.setServiceSettings({ destinations: 'public' });
    const loopback = await add(visitor, team, 'https://hooks.test/hook', ['link.created']).finally(() => store().settings.setServiceSettings({ destinations: 'private' }));
    expect([loopback.status, errorOf(loopback, 'f-url')]).toEqual([400, 'The destination is a local or private-network name, which is not reachable from the internet.']);
    expect(await store().webhooks.ofTeam(team)).toEqual([]);
  });

  it('refuses no events, or one that is none, beside the events (400)', async () => {
    const { visitor, team } = await owner();
    const none = await add(visitor, team, hooks.hookUrl(receiver), []);
    expect([none.status, errorOf(none, 'f-events')]).toEqual([400, `Choose at least one event: ${EVENTS}.`]);
    expect(none.body).toContain('<fieldset aria-describedby="f-events-error"><legend>Events to send</legend>');
    expect(none.body).toContain(`value="${hooks.hookUrl(receiver)}"`);
    const unknown = await add(visitor, team, hooks.hookUrl(receiver), ['link.made']);
    expect([unknown.status, errorOf(unknown, 'f-events')]).toEqual([400, `Unknown event "link.made": the events are ${EVENTS}.`]);
    expect(await store().webhooks.ofTeam(team)).toEqual([]);
  });

  it(`refuses an endpoint beyond the team's ${MAX_TEAM_WEBHOOKS} (409), beside the address`, async () => {
    const { visitor, team } = await owner();
    for (let i = 0; i < MAX_TEAM_WEBHOOKS; i++) await addedFor(team, ['link.created'], `${hooks.hookUrl(receiver)}/${i}`);
    const full = await add(visitor, team, hooks.hookUrl(receiver), ['link.created']);
    expect([full.status, errorOf(full, 'f-url')]).toEqual([409, `A team has at most ${MAX_TEAM_WEBHOOKS} webhook endpoints.`]);
    expect(await store().webhooks.ofTeam(team)).toHaveLength(MAX_TEAM_WEBHOOKS);
  });
});

describe("a team's Webhooks page: an endpoint's buttons", () => {
  it('sends a test event, and the deliveries table shows how each delivery went', async () => {
    const { visitor, team } = await owner();
    const endpoint = await addedFor(team);
    const sent = await post(visitor, team, `/${endpoint.id}/test`);
    expect([sent.status, sent.location]).toEqual([303, `/teams/${team}/webhooks?done=test_sent`]);
    expect(noticeOf(await page(visitor, team, '?done=test_sent'))).toBe('A test event is on its way; its delivery shows below within a few seconds.');
    const waiting = await page(visitor, team);
    expect(waiting.body).toContain(`<caption>Latest deliveries to ${endpoint.url}</caption>`);
    expect(waiting.body).toContain('<td data-label="Event">webhook.test</td><td data-label="State">pending</td><td data-label="Attempts">0</td><td data-label="Last answer" class="wrap"></td>');

    expect(await server.app.webhooks.deliverNow()).toBe(1);
    expect(receiver.verified(endpoint.secret)).toEqual([{ type: 'webhook.test', timestamp: server.clock.now().toISOString(), data: { teamId: team, endpointId: endpoint.id } }]);
    const delivered = await page(visitor, team);
    expect(delivered.body).toContain(
      `<tr><td data-label="At"><time datetime="${server.clock.now().toISOString()}">`,
    );
    expect(delivered.body).toContain('<td data-label="Event">webhook.test</td><td data-label="State">delivered</td><td data-label="Attempts">1</td><td data-label="Last answer" class="wrap">answered 204</td>');

    // A receiver that fails: the status and its first words, the delivery waiting for its retry.
    receiver.answer = (_req, res) => void res.writeHead(503, { 'content-type': 'text/plain' }).end('Down for maintenance');
    expect((await post(visitor, team, `/${endpoint.id}/test`)).status).toBe(303);
    expect(await server.app.webhooks.deliverNow()).toBe(1);
    expect((await page(visitor, team)).body).toContain(
      '<td data-label="Event">webhook.test</td><td data-label="State">pending</td><td data-label="Attempts">1</td><td data-label="Last answer" class="wrap">answered 503: Down for maintenance</td>',
    );
  });

  it('says why a paused endpoint is paused; Resume makes it active again', async () => {
    const { visitor, team } = await owner();
    const endpoint = await addedFor(team);
    await store().webhooks.pause(endpoint.id, 'No delivery has succeeded since 2026-11-20T12:00:00.000Z; the last attempt answered 500.');
    const paused = await page(visitor, team);
    expect(paused.body).toContain('<p>Events: link.created · paused</p>');
    expect(paused.body).toContain('<p class="alert">Paused: No delivery has succeeded since 2026-11-20T12:00:00.000Z; the last attempt answered 500. Nothing is sent to it until it is resumed.</p>');
    expect(paused.body).toContain(`<form class="inline" method="post" action="/teams/${team}/webhooks/${endpoint.id}/resume">`);

    const resumed = await post(visitor, team, `/${endpoint.id}/resume`);
    expect([resumed.status, resumed.location]).toEqual([303, `/teams/${team}/webhooks?done=resumed`]);
    expect(await store().webhooks.get(endpoint.id)).toMatchObject({ state: 'active', pausedReason: null });
    const after = await page(visitor, team, '?done=resumed');
    expect(noticeOf(after)).toBe('The endpoint is active again.');
    expect(after.body).not.toContain('/resume"');
  });

  it('asks before removing an endpoint, then removes it and its deliveries', async () => {
    const { visitor, team } = await owner();
    const endpoint = await addedFor(team);
    expect((await page(visitor, team)).body).toContain(`<a href="/teams/${team}/webhooks/${endpoint.id}/remove" aria-label="Remove ${endpoint.url}…">Remove…</a>`);
    const asked = await visitor.request('GET', `/teams/${team}/webhooks/${endpoint.id}/remove`);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain(`<h1>Remove the webhook to ${endpoint.url}?</h1>`);
    expect(asked.body).toContain(`<form method="post" action="/teams/${team}/webhooks/${endpoint.id}/remove">`);
    expect(asked.body).toContain(`<button type="submit" class="danger">Remove the endpoint</button>\n<a href="/teams/${team}/webhooks" style="margin-left:1rem">Keep it</a>`);
    expect(await store().webhooks.get(endpoint.id)).not.toBeNull();

    const removed = await visitor.submit(`/teams/${team}/webhooks/${endpoint.id}/remove`, `/teams/${team}/webhooks/${endpoint.id}/remove`, {});
    expect([removed.status, removed.location]).toEqual([303, `/teams/${team}/webhooks?done=removed`]);
    expect(noticeOf(await page(visitor, team, '?done=removed'))).toBe('The endpoint was removed: nothing more is sent to it.');
    expect(await store().webhooks.ofTeam(team)).toEqual([]);
    expect((await visitor.request('GET', `/teams/${team}/webhooks/${endpoint.id}/remove`)).status).toBe(404);
  });
});

describe("a team's Webhooks page: who may use it", () => {
  it("finds no endpoint of another team on this team's addresses (404), even for someone who owns both", async () => {
    const { visitor, team } = await owner();
    const other = await visitor.makeTeam('Other');
    const otherTeam = /^\/teams\/(team_[A-Za-z0-9]+)/.exec(other.location!)![1]!;
    const theirs = await addedFor(otherTeam);
    expect((await visitor.request('GET', `/teams/${team}/webhooks/${theirs.id}/remove`)).status).toBe(404);
    for (const action of ['test', 'resume', 'remove']) {
      expect((await post(visitor, team, `/${theirs.id}/${action}`)).status, action).toBe(404);
    }
    expect(await store().webhooks.get(theirs.id)).toEqual(theirs);
    expect(await store().webhooks.recent(theirs.id, 10)).toEqual([]);
  });

  it('refuses members who are not owners (403) on the page and every form, showing them no endpoint', async () => {
    const { visitor, team } = await owner();
    const endpoint = await addedFor(team);
    const member = await memberOf(visitor, team);
    const refused = await page(member, team);
    expect([refused.status, alertOf(refused)]).toEqual([403, "Only the team's owners manage its webhooks."]);
    expect(refused.body).not.toContain(endpoint.url);
    expect(refused.body).not.toContain('whsec_');
    expect(refused.body).not.toContain('<form method="post" action');

    // The team page holds a form, so the member has a CSRF field to send.
    const csrf = csrfOf(await member.request('GET', `/teams/${team}`));
    const posts: Array<[string, Record<string, string>]> = [
      ['', { url: hooks.hookUrl(receiver), events: 'link.created' }],
      [`/${endpoint.id}/test`, {}],
      [`/${endpoint.id}/resume`, {}],
      [`/${endpoint.id}/remove`, {}],
    ];
    for (const [path, fields] of posts) {
      const answer = await member.request('POST', `/teams/${team}/webhooks${path}`, { _csrf: csrf, ...fields });
      expect([answer.status, alertOf(answer)], path).toEqual([403, "Only the team's owners manage its webhooks."]);
      expect(answer.body).not.toContain('whsec_');
    }
    expect((await member.request('GET', `/teams/${team}/webhooks/${endpoint.id}/remove`)).status).toBe(403);
    expect(await store().webhooks.ofTeam(team)).toEqual([endpoint]);
    expect(await store().webhooks.recent(endpoint.id, 10)).toEqual([]);
  });

  it('finds no team for a stranger (404), on the page and its forms', async () => {
    const { team } = await owner();
    const endpoint = await addedFor(team);
    const { visitor: stranger } = await owner();
    expect((await page(stranger, team)).status).toBe(404);
    const csrf = csrfOf(await stranger.request('GET', '/teams'));
    for (const path of ['', `/${endpoint.id}/test`, `/${endpoint.id}/remove`]) {
      expect((await stranger.request('POST', `/teams/${team}/webhooks${path}`, { _csrf: csrf, url: 'https://example.com/', events: 'link.created' })).status, path).toBe(404);
    }
    expect(await store().webhooks.ofTeam(team)).toEqual([endpoint]);
  });

  it('refuses a form without its CSRF field (403), changing nothing', async () => {
    const { visitor, team } = await owner();
    const endpoint = await addedFor(team);
    expect((await visitor.request('POST', `/teams/${team}/webhooks`, { url: hooks.hookUrl(receiver), events: 'link.created' })).status).toBe(403);
    expect((await visitor.request('POST', `/teams/${team}/webhooks/${endpoint.id}/remove`, {})).status).toBe(403);
    expect(await store().webhooks.ofTeam(team)).toEqual([endpoint]);
  });
});
