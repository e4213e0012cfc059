import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer, type Entry } from '../helpers/dns-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { memberWithTeam, WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * The Domains section of a team's page (issue 25) over real HTTP, as a browser without JavaScript uses it: owners
 * add a domain, check its TXT record now, choose the primary one, set its root and remove it; members only see.
 * The service's lookups (TXT proofs and the root address's destination check) go to a DNS stand-in of the test's,
 * where a record is published by adding it to `names` while the server runs; every other name resolves public.
 */
const names: Record<string, Entry> = {};
let dns: DnsServer;
let server: TestServer;
let people = 0;

beforeAll(async () => {
  dns = await startDnsServer(names, { a: ['93.184.216.34'] });
  server = await startServer({ env: { DNS_SERVERS: dns.servers.join(',') } });
  await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
});
afterAll(async () => {
  await server.stop();
  await dns.close();
});

const store = () => server.app.ctx.store;

/** A new person with a team of their own, which they own. */
async function owner(): Promise<{ visitor: WebVisitor; team: string }> {
  return memberWithTeam(server.url, `domains${++people}@example.com`, 'Crew');
}

/** A signed-up person who agreed to the terms, in no team. */
async function stranger(email = `domains${++people}@example.com`): Promise<WebVisitor> {
  const visitor = new WebVisitor(server.url);
  expect((await visitor.signUp(email)).status).toBe(303);
  expect((await visitor.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);
  return visitor;
}

/** Someone an owner invited into the team, who accepted: a member, not an owner. */
async function memberOf(owns: WebVisitor, team: string): Promise<WebVisitor> {
  const email = `domains${++people}@example.com`;
  const visitor = await stranger(email);
  expect((await post(owns, team, 'members', { email })).status).toBe(303);
  expect((await visitor.submit('/teams', `/teams/${team}/accept`, {})).status).toBe(303);
  return visitor;
}

/** A form of the team's page, posted as the browser would from that page. */
const post = (who: WebVisitor, team: string, path: string, fields: Record<string, string> = {}) => who.submit(`/teams/${team}`, `/teams/${team}/${path}`, fields);
const teamPage = (who: WebVisitor, team: string) => who.request('GET', `/teams/${team}`);

/** Text as the page shows it: the entities the escaping wrote read back. */
const shown = (text: string | undefined) =>
  text?.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
const alertOf = (page: WebPage) => shown(/<p class="alert" role="alert">([^<]*)<\/p>/.exec(page.body)?.[1]);
const noticeOf = (page: WebPage) => shown(/<p class="notice" role="status">([^<]*)<\/p>/.exec(page.body)?.[1]);
/** The message beside the field (or the fieldset) whose id is `id`. */
const errorOf = (page: WebPage, id: string) => shown(new RegExp(`<p class="error" id="${id.replaceAll('.', '\\.')}-error">([^<]*)</p>`).exec(page.body)?.[1]);
/** The value a fact of the domain's list shows, by its name ("State", "Problem", "Root"...). */
const factOf = (page: WebPage, name: string) => shown(new RegExp(`<div><dt>${name}</dt><dd>(.*?)</dd></div>`).exec(page.body)?.[1]);

/** Adds `domain` through the form and follows the redirect; the page after, with its notice. */
async function added(who: WebVisitor, team: string, domain: string): Promise<WebPage> {
  const answer = await post(who, team, 'domains', { domain });
  expect(answer.status).toBe(303);
  expect(answer.location).toBe(`/teams/${team}?done=domain_added`);
  return who.request('GET', answer.location!);
}

/** A domain the operator vouched for (`domain add --verified`): verified at once, with no TXT record. */
async function vouched(team: string, domain: string): Promise<void> {
  const answer = await store().domains.add({ teamId: team, domain, token: 'vouched0token0of0operator', proof: 'operator' }, 'operator', 5, server.clock.now());
  expect(answer).toMatchObject({ domain, state: 'verified' });
}

describe('adding a domain', () => {
  it('adds it for an owner, pending, and shows the exact TXT record to publish', async () => {
    const { visitor, team } = await owner();
    const before = await teamPage(visitor, team);
    expect(before.body).toContain('<h2 id="domains">Domains</h2>');
    expect(before.body).toContain(`<p class="muted">No domains yet: the team's links answer on ${new URL(server.url).host}.</p>`);
    expect(before.body).toContain('<p class="hint" id="add-domain-hint">A domain of yours such as go.example.com, without https:// or a path. The team may hold 5 domains; it holds 0.</p>');

    const page = await added(visitor, team, '  Go.Pending.test ');
    expect(noticeOf(page)).toBe('Domain added. Publish its TXT record, shown below, then check it.');
    const stored = (await store().domains.get('go.pending.test'))!;
    expect(stored).toMatchObject({ teamId: team, state: 'pending', proof: 'dns', primary: false, rootUrl: null });
    expect(stored.token).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(page.body).toContain('<h3>go.pending.test</h3>');
    expect(factOf(page, 'State')).toBe('Pending <span class="muted">(not serving links until its TXT record is found)</span>');
    expect(page.body).toContain('<p>To prove the team holds the domain, publish this TXT record at its DNS provider, then check it.</p>');
    expect(factOf(page, 'Type')).toBe('TXT');
    expect(factOf(page, 'Name')).toBe('<code style="user-select:all">_shortlinks.go.pending.test</code>');
    expect(factOf(page, 'Value')).toBe(`<code style="user-select:all">shortlinks-verify=${stored.token}</code>`);
    expect(factOf(page, 'Last checked')).toBe('not yet');
    expect(factOf(page, 'Root')).toBe('Shows a plain page');
    expect(page.body).toContain('The team may hold 5 domains; it holds 1.');
  });

  it('refuses what is not a domain, or one the service will not serve, beside the field (400), adding nothing', async () => {
    const { visitor, team } = await owner();
    await store().settings.block('blocked-here.test', server.clock.now());
    const cases = [
      ['https://go.example.com/x', 'Give the domain alone, such as go.example.com, not "https://go.example.com/x".'],
      ['not a domain', '"not a domain" is not a domain name.'],
      ['bit.ly', 'bit.ly belongs to another link shortener.'],
      ['go.bit.ly', 'go.bit.ly belongs to another link shortener.'],
      ['go.blocked-here.test', 'go.blocked-here.test is blocked on this service.'],
    ] as const;
    for (const [domain, message] of cases) {
      const refused = await post(visitor, team, 'domains', { domain });
      expect(refused.status, domain).toBe(400);
      expect(errorOf(refused, 'add-domain')).toBe(message);
      // What was typed stays in the field, marked and described by the message.
      expect(refused.body).toContain(`value="${domain}" required aria-invalid="true" aria-describedby="add-domain-hint add-domain-error"`);
    }
    expect(await store().domains.list(team)).toEqual([]);
  });

  it("refuses a domain another team holds, or this team already does (409)", async () => {
    const first = await owner();
    await added(first.visitor, first.team, 'taken.test');
    const second = await owner();
    for (const who of [second, first]) {
      const refused = await post(who.visitor, who.team, 'domains', { domain: 'TAKEN.test' });
      expect(refused.status).toBe(409);
      expect(errorOf(refused, 'add-domain')).toBe('taken.test belongs to a team already.');
    }
    expect(await store().domains.list(second.team)).toEqual([]);
    expect((await store().domains.get('taken.test'))?.teamId).toBe(first.team);
  });

  it("refuses a domain over the team's limit (409) and says the limit beside the field", async () => {
    const { visitor, team } = await owner();
    await server.setLimits({ teamDomains: 1 });
    try {
      await added(visitor, team, 'one.limit.test');
      const refused = await post(visitor, team, 'domains', { domain: 'two.limit.test' });
      expect(refused.status).toBe(409);
      expect(errorOf(refused, 'add-domain')).toBe('The team holds 1 domain, as many as it may.');
      expect(refused.body).toContain('The team may hold 1 domain; it holds 1.');
      expect((await store().domains.list(team)).map((d) => d.domain)).toEqual(['one.limit.test']);
    } finally {
      await server.setLimits({ teamDomains: 5 });
    }
  });
});

describe('who may do what', () => {
  it('shows members the domains without a form, refuses every change of theirs (403); strangers find nothing (404)', async () => {
    const own = await owner();
    const { team } = own;
    await added(own.visitor, team, 'crew.members.test');
    const member = await memberOf(own.visitor, team);

    const seen = await teamPage(member, team);
    expect(seen.status).toBe(200);
    expect(seen.body).toContain('<h3>crew.members.test</h3>');
    expect(factOf(seen, 'State')).toBe('Pending <span class="muted">(not serving links until its TXT record is found)</span>');
    expect(seen.body).toContain('<code style="user-select:all">_shortlinks.crew.members.test</code>');
    for (const form of [`/teams/${team}/domains"`, '/domains/primary"', '/check"', '/root"', '/domains/crew.members.test/remove"']) {
      expect(seen.body).not.toContain(form);
    }

    const changes: Array<[string, Record<string, string>]> = [
      ['domains', { domain: 'not a domain' }],
      ['domains', { domain: 'member.members.test' }],
      ['domains/crew.members.test/check', {}],
      ['domains/crew.members.test/remove', {}],
      ['domains/primary', { domain: '' }],
      ['domains/crew.members.test/root', { rootUrl: 'https://example.com/' }],
    ];
    for (const [path, fields] of changes) {
      const refused = await post(member, team, path, fields);
      expect(refused.status, path).toBe(403);
      expect(alertOf(refused)).toBe("Only the team's owners manage its domains.");
    }
    const asked = await member.request('GET', `/teams/${team}/domains/crew.members.test/remove`);
    expect(asked.status).toBe(403);
    expect(alertOf(asked)).toBe("Only the team's owners manage its domains.");

    const outsider = await stranger();
    const csrf = /name="_csrf" value="([^"]+)"/.exec((await outsider.request('GET', '/teams')).body)![1]!;
    for (const [path, fields] of changes) {
      expect((await outsider.request('POST', `/teams/${team}/${path}`, { _csrf: csrf, ...fields })).status, path).toBe(404);
    }
    expect((await outsider.request('GET', `/teams/${team}/domains/crew.members.test/remove`)).status).toBe(404);
    expect(await store().domains.list(team)).toEqual([expect.objectContaining({ domain: 'crew.members.test', rootUrl: null, primary: false })]);
  });

  it("keeps each team's forms to its own domains: another team's domain is not found here (404)", async () => {
    const first = await owner();
    await added(first.visitor, first.team, 'theirs.test');
    const second = await owner();
    for (const path of ['check', 'remove']) {
      const refused = await post(second.visitor, second.team, `domains/theirs.test/${path}`);
      expect(refused.status).toBe(404);
      expect(alertOf(refused)).toBe('No such domain.');
    }
    expect((await second.visitor.request('GET', `/teams/${second.team}/domains/theirs.test/remove`)).status).toBe(404);
    expect((await store().domains.get('theirs.test'))?.teamId).toBe(first.team);
  });
});

describe('checking a domain now', () => {
  it('keeps it pending while the TXT record is missing, saying so, and verifies it once the record holds the token', async () => {
    const { visitor, team } = await owner();
    await added(visitor, team, 'go.acme.test');
    const { token } = (await store().domains.get('go.acme.test'))!;

    const missing = await post(visitor, team, 'domains/go.acme.test/check');
    expect(missing.status).toBe(303);
    expect(missing.location).toBe(`/teams/${team}?done=domain_not_found`);
    const pending = await visitor.request('GET', missing.location!);
    expect(noticeOf(pending)).toBe('Checked: the TXT record was not found as it should be. What the check saw is shown with the domain.');
    expect(factOf(pending, 'State')).toBe('Pending <span class="muted">(not serving links until its TXT record is found)</span>');
    expect(factOf(pending, 'Problem')).toBe('No TXT record _shortlinks.go.acme.test holds the token yet.');
    expect(factOf(pending, 'Last checked')).toMatch(/^<time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>$/);
    expect(dns.queries).toContain('_shortlinks.go.acme.test TXT');

    names['_shortlinks.go.acme.test'] = { txt: ['some-other=record', `shortlinks-verify=${token}`] };
    const found = await post(visitor, team, 'domains/go.acme.test/check');
    expect(found.location).toBe(`/teams/${team}?done=domain_found`);
    const verified = await visitor.request('GET', found.location!);
    expect(noticeOf(verified)).toBe("Checked: the TXT record holds the token, so the domain is verified and serves the team's links.");
    expect(factOf(verified, 'State')).toBe('Verified <span class="muted">(serving the team\'s links)</span>');
    expect(factOf(verified, 'Problem')).toBeUndefined();
    expect(verified.body).toContain('<p>Keep this TXT record published: a domain whose record is missing three days in a row stops serving links.</p>');
    expect(await store().domains.get('go.acme.test')).toMatchObject({ state: 'verified', problem: null });
  });

  it("offers no check for a domain the operator vouched for, which has no TXT record, and names the operator's word", async () => {
    const { visitor, team } = await owner();
    await vouched(team, 'vouched.check.test');
    const page = await teamPage(visitor, team);
    expect(factOf(page, 'State')).toBe('Verified by the operator <span class="muted">(serving the team\'s links)</span>');
    expect(page.body).not.toContain('/domains/vouched.check.test/check');
    expect(page.body).not.toContain('_shortlinks.vouched.check.test');
    expect(page.body).toContain('aria-label="Remove vouched.check.test…">Remove…</a>');
  });
});

describe('the primary domain', () => {
  it('offers only verified domains besides the service’s address, and shows the choice', async () => {
    const { visitor, team } = await owner();
    const host = new URL(server.url).host;
    const none = await teamPage(visitor, team);
    expect(none.body).not.toContain(`action="/teams/${team}/domains/primary"`);
    await added(visitor, team, 'waiting.primary.test');
    await vouched(team, 'ready.primary.test');

    const page = await teamPage(visitor, team);
    expect(page.body).toContain(`<p>A domain of the team's own serves its short links once a TXT record proves the team holds it. The links' addresses use <strong>${host}</strong>.</p>`);
    const radios = [...page.body.matchAll(/<input type="radio" id="primary-\d" name="domain" value="([^"]*)"( checked)?>/g)].map((m) => [m[1], m[2] === ' checked']);
    expect(radios).toEqual([
      ['', true],
      ['ready.primary.test', false],
    ]);
    expect(page.body).toContain(`<span>${host} (the service&#39;s own address)</span>`);

    const chosen = await post(visitor, team, 'domains/primary', { domain: 'ready.primary.test' });
    expect(chosen.status).toBe(303);
    expect(chosen.location).toBe(`/teams/${team}?done=primary_set`);
    const after = await visitor.request('GET', chosen.location!);
    expect(noticeOf(after)).toBe("Primary domain saved: the team's short links' addresses use it.");
    expect(after.body).toContain("The links' addresses use <strong>ready.primary.test</strong>.");
    expect(factOf(after, 'Primary')).toBe("Yes: the team's short links' addresses use it.");
    expect(after.body).toContain('<input type="radio" id="primary-1" name="domain" value="ready.primary.test" checked>');
    expect((await store().domains.get('ready.primary.test'))?.primary).toBe(true);

    const pending = await post(visitor, team, 'domains/primary', { domain: 'waiting.primary.test' });
    expect(pending.status).toBe(409);
    expect(errorOf(pending, 'primary')).toBe('Only a verified domain can be the primary one.');
    const unknown = await post(visitor, team, 'domains/primary', { domain: 'nowhere.primary.test' });
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown, 'primary')).toBe('No such domain.');
    expect((await store().domains.get('ready.primary.test'))?.primary).toBe(true);

    const cleared = await post(visitor, team, 'domains/primary', { domain: '' });
    expect(cleared.location).toBe(`/teams/${team}?done=primary_cleared`);
    const back = await visitor.request('GET', cleared.location!);
    expect(noticeOf(back)).toBe("The team's short links' addresses use the service's own address again.");
    expect(back.body).toContain(`The links' addresses use <strong>${host}</strong>.`);
    expect((await store().domains.list(team)).filter((d) => d.primary)).toEqual([]);
  });
});

describe("a domain's root", () => {
  it('sets an address checked as a destination is, refuses a bad one beside the field, and clears it', async () => {
    const { visitor, team } = await owner();
    await added(visitor, team, 'root.test');
    const set = await post(visitor, team, 'domains/root.test/root', { rootUrl: 'https://example.com/home' });
    expect(set.status).toBe(303);
    expect(set.location).toBe(`/teams/${team}?done=root_set`);
    const page = await visitor.request('GET', set.location!);
    expect(noticeOf(page)).toBe("Root address saved: the domain's root sends visitors there.");
    expect(factOf(page, 'Root')).toBe('Sends visitors to <a href="https://example.com/home">https://example.com/home</a>');
    expect(page.body).toContain('id="root-root.test-rootUrl" name="rootUrl" type="url" value="https://example.com/home"');
    expect((await store().domains.get('root.test'))?.rootUrl).toBe('https://example.com/home');

    const cases = [
      ['http://example.com/', 400, 'The destination must be an https address.'],
      ['https://bit.ly/abc', 400, 'The destination is a link of another link shortener; use the address it leads to instead.'],
    ] as const;
    for (const [rootUrl, status, message] of cases) {
      const refused = await post(visitor, team, 'domains/root.test/root', { rootUrl });
      expect(refused.status).toBe(status);
      expect(errorOf(refused, 'root-root.test-rootUrl')).toBe(message);
      expect(refused.body).toContain(`id="root-root.test-rootUrl" name="rootUrl" type="url" value="${rootUrl}" aria-invalid="true"`);
    }
    expect((await store().domains.get('root.test'))?.rootUrl).toBe('https://example.com/home');

    const cleared = await post(visitor, team, 'domains/root.test/root', { rootUrl: '  ' });
    expect(cleared.location).toBe(`/teams/${team}?done=root_cleared`);
    const plain = await visitor.request('GET', cleared.location!);
    expect(noticeOf(plain)).toBe("The domain's root shows a plain page now.");
    expect(factOf(plain, 'Root')).toBe('Shows a plain page');
    expect((await store().domains.get('root.test'))?.rootUrl).toBeNull();
  });
});

describe('removing a domain', () => {
  it('asks first, then removes it from the page and the store', async () => {
    const { visitor, team } = await owner();
    await added(visitor, team, 'gone.test');
    const page = await teamPage(visitor, team);
    expect(page.body).toContain(`<a href="/teams/${team}/domains/gone.test/remove" aria-label="Remove gone.test…">Remove…</a>`);

    const asked = await visitor.request('GET', `/teams/${team}/domains/gone.test/remove`);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('<h1>Remove the domain gone.test from “Crew”?</h1>');
    expect(asked.body).toContain(`<form method="post" action="/teams/${team}/domains/gone.test/remove">`);
    expect(asked.body).toContain('<button type="submit" class="danger">Remove the domain</button>');
    expect(asked.body).toContain(`<a href="/teams/${team}" style="margin-left:1rem">Keep the domain</a>`);
    expect(await store().domains.get('gone.test')).not.toBeNull();

    const removed = await visitor.submit(`/teams/${team}/domains/gone.test/remove`, `/teams/${team}/domains/gone.test/remove`, {});
    expect(removed.status).toBe(303);
    expect(removed.location).toBe(`/teams/${team}?done=domain_removed`);
    const after = await visitor.request('GET', removed.location!);
    expect(noticeOf(after)).toBe("Domain removed. The team's links no longer answer on it.");
    expect(after.body).not.toContain('gone.test');
    expect(await store().domains.list(team)).toEqual([]);
    expect(await store().domains.get('gone.test')).toBeNull();

    const again = await post(visitor, team, 'domains/gone.test/remove');
    expect(again.status).toBe(404);
    expect(alertOf(again)).toBe('No such domain.');
  });
});
