import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { privateNetworkCheck } from '../../src/destinations/private-network.js';
import { dnsResolver } from '../../src/destinations/resolver.js';
import { unsafeSitesCheck } from '../../src/destinations/unsafe/provider.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { call, problem, startServer, type Actor, type TestServer } from '../helpers/server.js';
import { memberWithTeam, type WebPage, type WebVisitor } from '../helpers/web-forms.js';

/**
 * The operator's destinations mode (`shortlinks settings set --destinations public|private`, docs/behaviour.md
 * "Links to private addresses") over real HTTP, on SQLite and PostgreSQL: createLink, setDestination, createLinks
 * and the web form, in both modes, with the real DNS check pointed at a DNS server on loopback and an unsafe-site
 * list in memory. The CLI is a process of its own: the server applies the mode it sets on its very next request.
 */
let server: TestServer;
let dns: DnsServer;
let alice: Actor;
let web: { visitor: WebVisitor; team: string; email: string };

const UNSAFE = 'http://bad.corp.internal/';

beforeAll(async () => {
  // A public-looking name that resolves private, a name no resolver knows; every other name public.
  dns = await startDnsServer({ 'alias.dns-test.net': { a: ['10.1.2.3'] }, 'only-inside.dns-test.net': 'nxdomain' }, { a: ['93.184.216.34'] });
  server = await startServer({
    networkChecks: {
      privateNetwork: privateNetworkCheck({ resolve: dnsResolver({ servers: dns.servers, timeoutMs: 1_000 }) }),
      unsafeSites: unsafeSitesCheck([{ name: 'test-list', lookup: async (urls) => new Set(urls.filter((url) => url === UNSAFE)) }], { cacheSize: 0 }),
    },
  });
  await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000, maxLinksPerTeam: 1_000, perHour: 1_000, perDay: 1_000, firstWeekPerDay: 1_000, changesPerHour: 1_000 });
  await server.app.ctx.store.settings.block('blocked-site.com', server.clock.now());
  alice = await server.person({ addedByOperator: true });
  const email = 'private-destinations@example.com';
  web = { ...(await memberWithTeam(server.url, email, 'Go links')), email };
});
afterAll(async () => {
  await server.stop();
  await dns.close();
});
afterEach(() => server.app.ctx.store.settings.setServiceSettings({ destinations: 'public' }));

const setMode = async (mode: string) => expect(await cliJson(server.dbPath, 'settings', 'set', '--destinations', mode)).toMatchObject({ destinations: mode });
const fieldFault = (page: WebPage) => /id="f-destination-error">([^<]*)</.exec(page.body)?.[1];

/**
 * What each surface answers for `destination`, side by side: createLink, setDestination (of a link made for it),
 * the createLinks item and the dashboard's form. A stored destination, or [status, code, detail] (the form: its
 * status and the sentence beside the field).
 */
async function answers(destination: string) {
  const made = await call(server, 'createLink', { team: alice.teamId, destination }, alice.token);
  const other = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, alice.token);
  const changed = await call(server, 'setDestination', { code: other.body.code, destination }, alice.token);
  const batch = await call(server, 'createLinks', { team: alice.teamId, links: [{ destination }] }, alice.token);
  const form = await web.visitor.submit('/app', '/app/links', { team: web.team, destination });
  const ofReply = (reply: { status: number; body: any }) => {
    if (reply.status === 200) return reply.body.destination;
    expect(reply.body).toMatchObject(problem(server, reply.status, reply.body.code, 'destination'));
    return [reply.status, reply.body.code, reply.body.detail];
  };
  const item = batch.body.results[0];
  expect(batch.status).toBe(200);
  const formCode = /made=([A-Za-z0-9]{7})/.exec(form.location ?? '')?.[1];
  const formAnswer = form.status === 303 ? (await server.app.ctx.store.links.findByCode(formCode!))!.destination : [form.status, fieldFault(form)];
  return [ofReply(made), ofReply(changed), item.status === 200 ? item.link.destination : [item.status, item.code, item.message], formAnswer];
}

/** Every surface refusing with this status, code and sentence (the form shows the same sentence, HTML-escaped). */
const refused = (code: string, detail: string) => [[400, code, detail], [400, code, detail], [400, code, detail], [400, detail.replaceAll("'", '&#39;')]];
const taken = (destination: string) => Array(4).fill(destination);

const NOT_HTTPS = 'The destination must be an https address.';
const PRIVATE_NAME = 'The destination is a local or private-network name, which is not reachable from the internet.';
const IP = 'The destination must use a domain name, not an IP address.';
const RESOLVES_PRIVATE = "The destination's host name resolves to a private-network address, which is not reachable from the internet.";
const MISSING = "The destination's host name does not exist.";

describe('settings show and set --destinations', () => {
  it('is public by default; set changes it at once, show prints it; a bad value is refused with exit 2', async () => {
    expect(await cliJson(server.dbPath, 'settings', 'show')).toMatchObject({ destinations: 'public' });
    const set = await runCli(server.dbPath, 'settings', 'set', '--destinations', 'private');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('destinations: private\n');
    expect((await runCli(server.dbPath, 'settings', 'show')).stdout).toContain('destinations: private\n');
    const bad = await runCli(server.dbPath, 'settings', 'set', '--destinations', 'intranet');
    expect({ code: bad.code, stderr: bad.stderr }).toEqual({ code: 2, stderr: 'shortlinks: --destinations must be one of public, private: "intranet"\n' });
    expect(await cliJson(server.dbPath, 'settings', 'show')).toMatchObject({ destinations: 'private' });
  });
});

describe('the destination rules in each mode, on every surface', () => {
  it.each([
    ['http://wiki/', NOT_HTTPS],
    ['https://nas.lan/share', PRIVATE_NAME],
    ['https://10.1.2.3/', IP],
    ['https://[fd00::7]/', IP],
    ['https://alias.dns-test.net/', RESOLVES_PRIVATE],
    ['https://only-inside.dns-test.net/', MISSING],
  ])('%s: public refuses it everywhere; set private by the CLI, the very next request takes it everywhere', async (destination, detail) => {
    const code = detail === NOT_HTTPS || detail === MISSING ? 'invalid_destination' : 'private_destination';
    expect(await answers(destination)).toEqual(refused(code, detail));
    await setMode('private');
    expect(await answers(destination)).toEqual(taken(destination));
  });

  it.each([
    ['ftp://wiki/', 'invalid_destination', 'The destination must be an http or https address.'],
    ['http://admin:secret@wiki/', 'invalid_destination', 'The destination must not contain a user name or password: credentials are not allowed.'],
    ['http://bit.ly/x', 'shortener_destination', 'The destination is a link of another link shortener; use the address it leads to instead.'],
    ['http://blocked-site.com/', 'blocked_destination', 'The service does not allow links to that site.'],
    [UNSAFE, 'unsafe_destination', 'The destination is on a list of unsafe sites.'],
  ])('%s: refused in private mode too (%s)', async (destination, code, detail) => {
    await setMode('private');
    expect(await answers(destination)).toEqual(refused(code, detail));
  });

  it("refuses the service's own address in private mode, an IP address here", async () => {
    await setMode('private');
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(await answers(`${server.url}/abcdefg`)).toEqual(
      refused('shortener_destination', 'The destination is already a link of this service; use the address it leads to instead.'),
    );
  });

  it('redirects to an intranet address made in private mode', async () => {
    await setMode('private');
    const made = await call(server, 'createLink', { team: alice.teamId, destination: 'http://wiki/Onboarding' }, alice.token);
    const visit = await fetch(`${server.url}/${made.body.code}`, { redirect: 'manual' });
    expect({ status: visit.status, location: visit.headers.get('location') }).toEqual({ status: 302, location: 'http://wiki/Onboarding' });
  });
});

describe('the operator page', () => {
  it('shows the mode with its flag, and sets it as the CLI does', async () => {
    const run = await runCli(server.dbPath, 'person', 'admin', '--email', web.email);
    expect(run.code, run.stderr).toBe(0);
    const page = await web.visitor.request('GET', '/admin/settings');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<label for="f-destinations">Where links may point (--destinations, now public)</label>');
    expect(page.body).toContain('<option value="public" selected>Public https sites only (public)</option>');
    const saved = await web.visitor.submit('/admin/settings', '/admin/settings', { destinations: 'private' });
    expect({ status: saved.status, location: saved.location }).toEqual({ status: 303, location: '/admin/settings?done=saved' });
    expect(await cliJson(server.dbPath, 'settings', 'show')).toMatchObject({ destinations: 'private' });
    expect((await web.visitor.request('GET', '/admin/settings')).body).toContain('(--destinations, now private)');
  });
});
