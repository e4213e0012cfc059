import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson, runCli } from '../helpers/cli.js';
import { call, expectProblem, type TestServer } from '../helpers/server.js';
import { startSharedPair } from '../helpers/shared-servers.js';
import { memberWithTeam, WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * The operator pages (/admin) over real HTTP, as a browser without JavaScript uses them, on two server processes
 * sharing one database: what an operator changes on process a must show on process b at once, as the CLI's changes
 * do. Operators are marked with the compiled CLI (`person admin`); everyone else gets 404 on every page and form.
 */
let a: TestServer;
let b: TestServer;
let stop: () => Promise<void>;
let count = 0;

beforeAll(async () => {
  ({ a, b, stop } = await startSharedPair());
  await a.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
});
afterAll(() => stop());

type Someone = Awaited<ReturnType<typeof someone>>;

/** A person who signed up in the web app and made a team; an operator when `operator`, marked by the CLI. */
async function someone(operator = false) {
  const email = `admin-pages${++count}@example.com`;
  const { visitor } = await memberWithTeam(a.url, email, 'Admin pages');
  if (operator) {
    const run = await runCli(a.dbPath, 'person', 'admin', '--email', email);
    expect(run.code, run.stderr).toBe(0);
  }
  return { visitor, email, personId: (await a.app.ctx.store.people.findByEmail(email))!.id };
}

const get = (who: Someone, path: string) => who.visitor.request('GET', path);
const alertOf = (page: WebPage) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(page.body)?.[1];
const noticeOf = (page: WebPage) => /<p class="notice" role="status">([^<]*)<\/p>/.exec(page.body)?.[1];
/** The message beside a field of the form, by the field's name. */
const faultOf = (page: WebPage, name: string) => new RegExp(`<p class="error" id="f-${name}-error">([^<]*)</p>`).exec(page.body)?.[1];
const unescape = (text: string | undefined) => text?.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');

/** A link made through the API by a person of its own, with their token. */
async function aLink(destination = 'https://example.com/admin') {
  const owner = await a.person();
  const made = await call(a, 'createLink', { team: owner.teamId, destination }, owner.token);
  expect(made.status).toBe(200);
  return { owner, code: made.body.code as string, id: (await a.app.ctx.store.links.findByCode(made.body.code))!.id };
}

/** Follows a short link on process b, as a visitor would. */
const visit = (code: string) => fetch(`${b.url}/${code}`, { redirect: 'manual' });

let operator: Someone;
let member: Someone;
beforeAll(async () => {
  operator = await someone(true);
  member = await someone();
});

const PAGES = ['/admin', '/admin/links', '/admin/links?code=AAAAAAA', '/admin/links/AAAAAAA/disable', '/admin/blocklist', '/admin/limits', '/admin/settings'];

describe('who may use the operator pages', () => {
  it('shows "Operator" in the header to operators only', async () => {
    expect((await get(operator, '/app')).body).toContain('<a href="/admin">Operator</a>');
    expect((await get(member, '/app')).body).not.toContain('href="/admin"');
  });

  it('answers 404 to everyone else on every page, and on every form with a valid CSRF field, changing nothing', async () => {
    for (const path of PAGES) {
      const page = await get(member, path);
      expect(page.status, path).toBe(404);
      expect(page.body, path).toContain('<h1>Not found</h1>');
    }
    const { store } = a.app.ctx;
    const { code: active } = await aLink();
    const { code: flagged } = await aLink();
    await store.links.setState(flagged, 'flagged', a.clock.now());
    await store.settings.block('example.net', a.clock.now());
    const stateOf = async (code: string) => (await store.links.findByCode(code))!.state;
    const blocked = async () => [...(await store.settings.blockedDomains())].sort();
    // Each form against something it would change, checked after each: a form that leaked could not hide.
    const forms: Array<[string, Record<string, string>, () => Promise<unknown>, unknown]> = [
      [`/admin/links/${active}/flag`, {}, () => stateOf(active), 'active'],
      [`/admin/links/${active}/disable`, {}, () => stateOf(active), 'active'],
      [`/admin/links/${flagged}/restore`, {}, () => stateOf(flagged), 'flagged'],
      ['/admin/blocklist', { domain: 'example.org' }, blocked, ['example.net']],
      ['/admin/blocklist/remove', { domain: 'example.net' }, blocked, ['example.net']],
      ['/admin/limits', { 'team-links': '7' }, async () => (await store.settings.limits()).maxLinksPerTeam, 25],
      ['/admin/settings', { signup: 'closed' }, async () => (await store.settings.serviceSettings()).signup, 'open'],
    ];
    for (const [action, fields, now, unchanged] of forms) {
      for (const path of [action, `${action}/`]) {
        const page = await member.visitor.submit('/app', path, fields);
        expect(page.status, path).toBe(404);
        expect(page.body, path).toContain('<h1>Not found</h1>');
        expect(await now(), path).toEqual(unchanged);
      }
    }
    await store.settings.unblock('example.net');
  });

  it('leads a signed-out visitor to sign in first, and back', async () => {
    const page = await new WebVisitor(a.url).request('GET', '/admin/limits');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/signin?next=%2Fadmin%2Flimits');
  });

  it('refuses an operator form without its CSRF field or with another, 403, changing nothing', async () => {
    const { code } = await aLink();
    const without = await operator.visitor.request('POST', `/admin/links/${code}/disable`, {});
    expect(without.status).toBe(403);
    const wrong = await operator.visitor.request('POST', '/admin/limits', { _csrf: 'x'.repeat(43), 'team-links': '7' });
    expect(wrong.status).toBe(403);
    expect((await a.app.ctx.store.links.findByCode(code))!.state).toBe('active');
    expect((await a.app.ctx.store.settings.limits()).maxLinksPerTeam).toBe(25);
  });

  it('stops at once when the CLI turns the operator off (person admin --off)', async () => {
    const former = await someone(true);
    expect((await get(former, '/admin')).status).toBe(200);
    expect((await runCli(a.dbPath, 'person', 'admin', '--email', former.email, '--off')).code).toBe(0);
    expect((await former.visitor.at(b.url).request('GET', '/admin')).status).toBe(404);
    expect((await get(former, '/admin')).status).toBe(404);
  });
});

describe('moderation: reports and review requests', () => {
  it('lists open reports, marking those that do not count, and open review requests, with their reasons', async () => {
    const { owner, code, id } = await aLink('https://example.com/reported');
    const rule = { reportsToFlag: 3, establishedAfterHours: 72 };
    const { moderation, people } = a.app.ctx.store;
    const counted = await a.person({ addedByOperator: true });
    await moderation.report(id, counted.personId, 'Phishing <script>', rule, a.clock.now());
    await moderation.report(id, member.personId, 'Spam', rule, a.clock.now());
    await a.app.ctx.store.links.setState(code, 'flagged', a.clock.now());
    await moderation.askForReview(id, owner.personId, 'It is our own shop', a.clock.now());

    const page = await get(operator, '/admin');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Moderation</h1>');
    expect(page.body).toContain(`<a href="/admin/links?code=${code}"><code>${code}</code></a>`);
    expect(page.body).toMatch(new RegExp(`reported by ${counted.email} on <time[^>]*>[^<]*</time> · counts\\s*<br>Reason: “Phishing &lt;script&gt;”`));
    expect(page.body).toMatch(new RegExp(`reported by ${member.email} on <time[^>]*>[^<]*</time> · <strong>not established: does not count</strong>\\s*<br>Reason: “Spam”`));
    expect(page.body).toMatch(new RegExp(`asked for a review by ${(await people.get(owner.personId))!.email} on <time[^>]*>[^<]*</time>\\s*<br>Reason: “It is our own shop”`));

    // The link's own page lists what stands against it too.
    const linkPage = await get(operator, `/admin/links?code=${code}`);
    expect(linkPage.body).toContain('<h3>Open reports (2)</h3>');
    expect(linkPage.body).toContain('Reason: “Phishing &lt;script&gt;”');
    expect(linkPage.body).toContain('<h3>Open review requests (1)</h3>');

    // Restoring on the links page resolves them, as `link restore` does.
    const restored = await operator.visitor.submit(`/admin/links?code=${code}`, `/admin/links/${code}/restore`, {});
    expect(restored.status).toBe(303);
    const after = await get(operator, '/admin');
    expect(after.body).not.toContain(`?code=${code}"`);
    const restoredPage = await get(operator, restored.location!);
    expect(restoredPage.body).toContain('<h3>Open reports (0)</h3>');
    expect(restoredPage.body).toContain('<p class="muted">No open reports.</p>');
    expect(restoredPage.body).toContain('<h3>Open review requests (0)</h3>');
  });
});

describe('links: find, flag, disable, restore', () => {
  it('finds a link by its code and shows what the operator needs to judge it', async () => {
    const { owner, code } = await aLink('https://example.com/found');
    const page = await get(operator, `/admin/links?code=${code}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<h2 id="link-title" style="margin-top:0">Link <code>${code}</code></h2>`);
    expect(page.body).toContain('<div><dt>State</dt><dd>active</dd></div>');
    expect(page.body).toContain('<div><dt>Destination</dt><dd>https://example.com/found</dd></div>');
    expect(page.body).toContain(`<code>${owner.teamId}</code>`);
    expect(page.body).toContain('>Flag</button>');
    expect(page.body).toContain(`<a href="/admin/links/${code}/disable">Disable…</a>`);
    expect(page.body).not.toContain('>Restore</button>');
  });

  it('finds it too by its short address or its name, as a report quotes it', async () => {
    const { owner, code } = await aLink('https://example.com/by-name');
    expect((await call(a, 'renameLink', { code, name: 'admin-found' }, owner.token)).status).toBe(200);
    for (const entered of [`${a.url}/${code}`, `${a.url}/admin-found?utm=x`, 'admin-found', ` /${code} `]) {
      const page = await get(operator, `/admin/links?code=${encodeURIComponent(entered)}`);
      expect(page.status, entered).toBe(200);
      expect(page.body).toContain(`<h2 id="link-title" style="margin-top:0">Link <code>${code}</code></h2>`);
    }
  });

  it('says beside the field that no link has an unknown code (404)', async () => {
    const page = await get(operator, '/admin/links?code=%20Zz9Zz9Z');
    expect(page.status).toBe(404);
    expect(unescape(faultOf(page, 'code'))).toBe('No link has the code " Zz9Zz9Z".');
    expect(page.body).toContain('value=" Zz9Zz9Z"');
    expect(page.body).toContain('aria-invalid="true"');
  });

  it('flags a link: its redirect shows the warning page on every process at once, and the API refuses changes', async () => {
    const { owner, code } = await aLink('https://example.com/flag-me');
    expect((await visit(code)).status).toBe(302);
    const flagged = await operator.visitor.submit(`/admin/links?code=${code}`, `/admin/links/${code}/flag`, {});
    expect(flagged.status).toBe(303);
    expect(flagged.location).toBe(`/admin/links?code=${code}&done=flag`);
    const page = await get(operator, flagged.location!);
    expect(noticeOf(page)).toBe('Link flagged: it shows a warning page before its destination.');
    expect(page.body).toContain('<div><dt>State</dt><dd>flagged</dd></div>');
    const warning = await visit(code);
    expect(warning.status).toBe(200);
    expect(await warning.text()).toContain('<h1>This link is under review</h1>');
    const change = await call(b, 'setDestination', { code, destination: 'https://example.org/' }, owner.token);
    expectProblem(b, change, 409, 'link_flagged', null);
  });

  it('disables a link only after a confirmation page naming its destination; it stops redirecting at once', async () => {
    const { owner, code } = await aLink('https://example.com/disable-me');
    const confirm = await get(operator, `/admin/links/${code}/disable`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(`<h1>Disable the link <code>${code}</code>?</h1>`);
    expect(confirm.body).toContain('It leads to <strong style="overflow-wrap:anywhere">https://example.com/disable-me</strong>.');
    expect(confirm.body).toContain(`<a href="/admin/links?code=${code}" style="margin-left:1rem">Keep it as it is</a>`);
    expect((await a.app.ctx.store.links.findByCode(code))!.state).toBe('active');

    const disabled = await operator.visitor.submit(`/admin/links/${code}/disable`, `/admin/links/${code}/disable`, {});
    expect(disabled.status).toBe(303);
    expect(noticeOf(await get(operator, disabled.location!))).toBe('Link disabled: it answers 410 and can no longer be changed.');
    expect((await visit(code)).status).toBe(410);
    expectProblem(b, await call(b, 'setNote', { code, note: 'x' }, owner.token), 409, 'conflict', null);

    const restored = await operator.visitor.submit(`/admin/links?code=${code}`, `/admin/links/${code}/restore`, {});
    expect(restored.status).toBe(303);
    expect(noticeOf(await get(operator, restored.location!))).toBe(
      'Link restored: it redirects again, and its open reports and review requests are resolved.',
    );
    const again = await visit(code);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe('https://example.com/disable-me');
  });

  it('answers an unknown code on a form or the confirmation page with 404 and the CLI’s reason, and an unknown action 404', async () => {
    const flag = await operator.visitor.submit('/admin/links', '/admin/links/Zz9Zz9Z/flag', {});
    expect(flag.status).toBe(404);
    expect(unescape(alertOf(flag))).toBe('No link has the code "Zz9Zz9Z".');
    const confirm = await get(operator, '/admin/links/Zz9Zz9Z/disable');
    expect(confirm.status).toBe(404);
    expect(unescape(alertOf(confirm))).toBe('No link has the code "Zz9Zz9Z".');
    const { code } = await aLink();
    const unknown = await operator.visitor.submit('/admin/links', `/admin/links/${code}/delete`, {});
    expect(unknown.status).toBe(404);
    expect((await a.app.ctx.store.links.findByCode(code))!.state).toBe('active');
  });
});

describe('whatever an operator sends', () => {
  it('answers a NUL, an overlong or a malformed value with a 4xx page, never a 500, changing nothing', async () => {
    const before = { limits: await a.app.ctx.store.settings.limits(), blocked: [...(await a.app.ctx.store.settings.blockedDomains())] };
    expect((await get(operator, '/admin/links?code=%00')).status).toBe(404);
    expect((await get(operator, `/admin/links?code=${'A'.repeat(5000)}`)).status).toBe(404);
    // A malformed percent-encoding in a query is read as it stands: a code that names no link.
    expect((await get(operator, '/admin/links?code=%E0%A4%A')).status).toBe(404);
    expect((await get(operator, '/admin/links/%E0%A4%A/disable')).status).toBe(400);
    expect((await get(operator, '/admin/links/%00/disable')).status).toBe(404);
    expect((await operator.visitor.submit('/admin/links', '/admin/links/%00/flag', {})).status).toBe(404);
    expect((await operator.visitor.submit('/admin/blocklist', '/admin/blocklist', { domain: 'bad\0.com' })).status).toBe(400);
    expect((await operator.visitor.submit('/admin/blocklist', '/admin/blocklist/remove', { domain: 'x'.repeat(5000) })).status).toBe(400);
    const limits = await operator.visitor.submit('/admin/limits', '/admin/limits', { 'team-links': '3\0', 'per-hour': '9'.repeat(400) });
    expect(limits.status).toBe(400);
    expect(faultOf(limits, 'team-links')).toBe('Must be a whole number from 1 to 1000000000.');
    expect(faultOf(limits, 'per-hour')).toBe('Must be a whole number from 1 to 1000000000.');
    expect({ limits: await a.app.ctx.store.settings.limits(), blocked: [...(await a.app.ctx.store.settings.blockedDomains())] }).toEqual(before);
  });
});

describe('the blocklist', () => {
  it('shows a notice an address claims only when the list bears it out', async () => {
    await a.app.ctx.store.settings.block('claimed-admin.example', a.clock.now());
    expect(noticeOf(await get(operator, '/admin/blocklist?done=unblocked&domain=claimed-admin.example'))).toBeUndefined();
    expect(noticeOf(await get(operator, '/admin/blocklist?done=blocked&domain=claimed-admin.example'))).toBe('claimed-admin.example blocked.');
    await a.app.ctx.store.settings.unblock('claimed-admin.example');
    const { code } = await aLink();
    expect(noticeOf(await get(operator, `/admin/links?code=${code}&done=disable`))).toBeUndefined();
  });

  it('adds a domain, normalized; new links to it and its subdomains are refused on every process at once', async () => {
    const owner = await a.person();
    const added = await operator.visitor.submit('/admin/blocklist', '/admin/blocklist', { domain: ' Evil-Admin.COM ' });
    expect(added.status).toBe(303);
    expect(added.location).toBe('/admin/blocklist?done=blocked&domain=evil-admin.com');
    const page = await get(operator, added.location!);
    expect(noticeOf(page)).toBe('evil-admin.com blocked.');
    expect(page.body).toContain('<code>evil-admin.com</code>');
    expect(page.body).toContain('aria-label="Remove evil-admin.com"');
    const refused = await call(b, 'createLink', { team: owner.teamId, destination: 'https://shop.evil-admin.com/' }, owner.token);
    expectProblem(b, refused, 400, 'blocked_destination', 'destination');

    const again = await operator.visitor.submit('/admin/blocklist', '/admin/blocklist', { domain: 'evil-admin.com' });
    expect(noticeOf(await get(operator, again.location!))).toBe('evil-admin.com was already blocked.');

    const removed = await operator.visitor.submit('/admin/blocklist', '/admin/blocklist/remove', { domain: 'evil-admin.com' });
    expect(removed.status).toBe(303);
    expect(noticeOf(await get(operator, removed.location!))).toBe('evil-admin.com unblocked.');
    expect((await call(b, 'createLink', { team: owner.teamId, destination: 'https://shop.evil-admin.com/' }, owner.token)).status).toBe(200);
    const twice = await operator.visitor.submit('/admin/blocklist', '/admin/blocklist/remove', { domain: 'evil-admin.com' });
    expect(noticeOf(await get(operator, twice.location!))).toBe('evil-admin.com was not blocked.');
  });

  it('refuses what is not a domain name beside the field (400), keeping what was typed, adding nothing', async () => {
    const before = [...(await a.app.ctx.store.settings.blockedDomains())];
    for (const domain of ['not a domain', '', 'https://x.example/']) {
      const page = await operator.visitor.submit('/admin/blocklist', '/admin/blocklist', { domain });
      expect(page.status, domain).toBe(400);
      expect(unescape(faultOf(page, 'domain')), domain).toBe(`Not a domain name: ${JSON.stringify(domain)}.`);
    }
    const removed = await operator.visitor.submit('/admin/blocklist', '/admin/blocklist/remove', { domain: 'not a domain' });
    expect(removed.status).toBe(400);
    expect(unescape(alertOf(removed))).toBe('Not a domain name: "not a domain".');
    expect([...(await a.app.ctx.store.settings.blockedDomains())]).toEqual(before);
  });
});

describe('the limits', () => {
  it('shows every limit limits set takes, with its value and flag', async () => {
    const page = await get(operator, '/admin/limits');
    expect(page.status).toBe(200);
    const limits = await a.app.ctx.store.settings.limits();
    for (const [flag, value] of [['team-links', limits.maxLinksPerTeam], ['calls-per-minute', limits.callsPerMinute], ['teams-per-hour', limits.teamsPerHour], ['analytics-days', limits.analyticsDays], ['team-domains', limits.teamDomains]] as const) {
      expect(page.body).toContain(`<input id="f-${flag}" name="${flag}" type="text" value="${value}" required`);
      expect(page.body).toContain(`--${flag}, now ${value}`);
    }
    expect(page.body.match(/<input id="f-/g)).toHaveLength(12);
  });

  it('saves the limits; every process applies them on its next request', async () => {
    const owner = await a.person();
    const saved = await operator.visitor.submit('/admin/limits', '/admin/limits', { 'calls-per-minute': '900', 'established-after-hours': '0' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe('/admin/limits?done=saved');
    expect(noticeOf(await get(operator, saved.location!))).toBe('Limits saved: every process applies them from its next request.');
    expect(await a.app.ctx.store.settings.limits()).toMatchObject({ callsPerMinute: 900, establishedAfterHours: 0, maxLinksPerTeam: 25 });
    expect((await call(b, 'listTeams', {}, owner.token)).headers.get('ratelimit-policy')).toBe('"minute";q=900;w=60');
    await a.setLimits({ callsPerMinute: 600, establishedAfterHours: 72 });
  });

  it('shows every refused value beside its field at once (400) and saves none of the form', async () => {
    const before = await a.app.ctx.store.settings.limits();
    const page = await operator.visitor.submit('/admin/limits', '/admin/limits', {
      'team-links': 'abc',
      'per-hour': '0',
      'per-day': '50',
      'established-after-hours': '-1',
      'calls-per-minute': '1000000001',
      'analytics-days': '29',
    });
    expect(page.status).toBe(400);
    expect(alertOf(page)).toBe('Nothing was saved: fix the limits marked below.');
    expect(faultOf(page, 'team-links')).toBe('Must be a whole number from 1 to 1000000000.');
    expect(faultOf(page, 'per-hour')).toBe('Must be a whole number from 1 to 1000000000.');
    expect(faultOf(page, 'calls-per-minute')).toBe('Must be a whole number from 1 to 1000000000.');
    expect(faultOf(page, 'established-after-hours')).toBe('Must be a whole number from 0 to 1000000000.');
    expect(faultOf(page, 'analytics-days')).toBe('Must be a whole number from 30 to 1000000000.');
    expect(faultOf(page, 'per-day')).toBeUndefined();
    expect(page.body).toContain('value="abc"');
    expect(page.body).toContain('<input id="f-per-day" name="per-day" type="text" value="50"');
    expect(await a.app.ctx.store.settings.limits()).toEqual(before);
  });

  it('saves only the limits edited on the form, as a browser sends it: one another operator set meanwhile stays', async () => {
    const form = await get(operator, '/admin/limits');
    const inputs = [...form.body.matchAll(/<input [^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].filter(([, name]) => name !== '_csrf');
    const fields = Object.fromEntries(inputs.map(([, name, value]) => [name, value]));
    expect(Object.keys(fields)).toHaveLength(24);
    const before = await a.app.ctx.store.settings.limits();
    await a.setLimits({ perDay: 77 });
    const saved = await operator.visitor.submit('/admin/limits', '/admin/limits', { ...fields, 'team-links': '30' });
    expect(saved.location).toBe('/admin/limits?done=saved');
    expect(await a.app.ctx.store.settings.limits()).toEqual({ ...before, maxLinksPerTeam: 30, perDay: 77 });
    await a.setLimits({ maxLinksPerTeam: before.maxLinksPerTeam, perDay: before.perDay });
  });

  it('saves nothing and says so when no limit was edited, or none was sent', async () => {
    const before = await a.app.ctx.store.settings.limits();
    for (const fields of [{}, { 'team-links': String(before.maxLinksPerTeam), 'shown-team-links': String(before.maxLinksPerTeam) }]) {
      const page = await operator.visitor.submit('/admin/limits', '/admin/limits', fields);
      expect(page.status).toBe(303);
      expect(page.location).toBe('/admin/limits?done=unchanged');
    }
    expect(noticeOf(await get(operator, '/admin/limits?done=unchanged'))).toBe('Nothing changed: no limit was edited.');
    expect(await a.app.ctx.store.settings.limits()).toEqual(before);
  });
});

describe('the settings', () => {
  it('shows who may sign up, with its flag and value; saving it applies on every process at once', async () => {
    const page = await get(operator, '/admin/settings');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<label for="f-signup">Who may make an account (--signup, now open)</label>');
    expect(page.body).toContain('<option value="open" selected>Anyone (open)</option>');
    try {
      const saved = await operator.visitor.submit('/admin/settings', '/admin/settings', { signup: 'closed' });
      expect(saved.status).toBe(303);
      expect(saved.location).toBe('/admin/settings?done=saved');
      expect(noticeOf(await get(operator, saved.location!))).toBe('Settings saved: every process applies them from its next request.');
      expect(await cliJson(a.dbPath, 'settings', 'show')).toMatchObject({ signup: 'closed' });
      // Process b refuses a sign-up on its very next request.
      const signup = await new WebVisitor(b.url).submit('/signin', '/signup', { email: 'after-closing@example.com', password: 'correct horse battery' });
      expect(signup.status).toBe(403);
      expect(await b.app.ctx.store.people.findByEmail('after-closing@example.com')).toBeNull();
      expect((await get(operator, '/admin/settings')).body).toContain('<option value="closed" selected>');
    } finally {
      await a.app.ctx.store.settings.setServiceSettings({ signup: 'open' });
    }
  });

  it('refuses a value settings set does not take (400), saving nothing', async () => {
    const page = await operator.visitor.submit('/admin/settings', '/admin/settings', { signup: 'sometimes' });
    expect(page.status).toBe(400);
    expect(unescape(alertOf(page))).toBe('Nothing was saved. --signup must be one of open, invite, closed: "sometimes".');
    expect((await a.app.ctx.store.settings.serviceSettings()).signup).toBe('open');
  });
});
