/**
 * Issue 8, item 7: what a destination shows is where it goes. A destination is stored, answered, listed and shown
 * as the WHATWG parser serializes it, the address the redirect sends visitors to and whose host was checked, so
 * `https://evil.com\@example.com/` never reads as example.com.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, startServer, type Actor, type TestServer } from '../helpers/server.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';

const DISGUISED = 'https://evil.com\\@example.com/';
const SERIALIZED = 'https://evil.com/@example.com/';

let dns: DnsServer;
let server: TestServer;
let alice: Actor;
beforeAll(async () => {
  // Every name resolves public; the server's questions are recorded, to see which host was checked.
  dns = await startDnsServer({}, { a: ['93.184.216.34'] });
  server = await startServer({ env: { DNS_SERVERS: dns.servers.join(',') } });
  alice = await server.person();
  await server.setLimits({ perHour: 1000, perDay: 1000, firstWeekPerDay: 1000, maxLinksPerTeam: 1000 });
});
afterAll(async () => {
  await server.stop();
  await dns.close();
});

async function visit(path: string) {
  return fetch(`${server.url}${path}`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0' } });
}

async function listed(code: string) {
  const reply = await call(server, 'listLinks', { team: alice.teamId, q: null }, alice.token);
  expect(reply.status).toBe(200);
  return reply.body.data.find((link: { code: string }) => link.code === code);
}

/** The link, as getLink and listLinks answer it, and where its short link redirects. */
async function everywhere(code: string) {
  const read = await call(server, 'getLink', { code }, alice.token);
  expect(read.status).toBe(200);
  expect(await listed(code)).toEqual(read.body);
  const res = await visit(`/${code}`);
  expect(res.status).toBe(302);
  return { destination: read.body.destination, location: res.headers.get('location') };
}

describe('createLink', () => {
  it('stores, answers, lists and redirects to the serialized address, whose host is the one checked', async () => {
    dns.queries.length = 0;
    const made = await call(server, 'createLink', { team: alice.teamId, destination: DISGUISED }, alice.token);
    expect(made.status).toBe(200);
    expect(made.body.destination).toBe(SERIALIZED);
    expect(await everywhere(made.body.code)).toEqual({ destination: SERIALIZED, location: SERIALIZED });
    expect(dns.queries).toContain('evil.com A');
    expect(dns.queries.some((query) => query.startsWith('example.com '))).toBe(false);
  });

  it.each([
    ['upper case, the default port and dot segments', 'https://Example.COM:443/a/../b?x=%41', 'https://example.com/b?x=%41'],
    ['no path', 'https://example.com', 'https://example.com/'],
    ['an IDN and non-ASCII path', 'https://bücher.de/straße?q=ü', 'https://xn--bcher-kva.de/stra%C3%9Fe?q=%C3%BC'],
    ['backslashes as slashes', 'https:\\\\example.com\\a\\b', 'https://example.com/a/b'],
    ['a full-width dot in the host', 'https://example。org/', 'https://example.org/'],
  ])('writes %s as the redirect does', async (_what, destination, serialized) => {
    const made = await call(server, 'createLink', { team: alice.teamId, destination }, alice.token);
    expect(made.status).toBe(200);
    expect(made.body.destination).toBe(serialized);
    expect(await everywhere(made.body.code)).toEqual({ destination: serialized, location: serialized });
  });

  it('refuses a destination whose serialization is over 2,048 characters: 400 invalid_destination', async () => {
    // 1,000 characters as sent, 6,000 percent-encoded.
    const destination = `https://example.com/${'é'.repeat(980)}`;
    const reply = await call(server, 'createLink', { team: alice.teamId, destination }, alice.token);
    expectProblem(server, reply, 400, 'invalid_destination', 'destination');
    expect(reply.body.detail).toBe('The destination is longer than 2,048 characters once written as a web address (characters ' +
      'outside ASCII count in their percent-encoded form).');
  });
});

describe('createLinks', () => {
  it('stores each item serialized', async () => {
    const reply = await call(server, 'createLinks', {
      team: alice.teamId,
      links: [{ destination: DISGUISED }, { destination: 'https://bücher.de' }],
    }, alice.token);
    expect(reply.status).toBe(200);
    const [first, second] = reply.body.results;
    expect(first).toMatchObject({ status: 200, link: { destination: SERIALIZED } });
    expect(second).toMatchObject({ status: 200, link: { destination: 'https://xn--bcher-kva.de/' } });
    expect(await everywhere(first.link.code)).toEqual({ destination: SERIALIZED, location: SERIALIZED });
    expect(await everywhere(second.link.code)).toEqual({ destination: 'https://xn--bcher-kva.de/', location: 'https://xn--bcher-kva.de/' });
  });
});

describe('setDestination', () => {
  it('stores the new destination serialized, and redirects there', async () => {
    const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.org/' }, alice.token);
    dns.queries.length = 0;
    const destination = 'https://evil.net\\@example.com/';
    const reply = await call(server, 'setDestination', { code: made.body.code, destination }, alice.token);
    expect(reply.status).toBe(200);
    expect(reply.body.destination).toBe('https://evil.net/@example.com/');
    expect(await everywhere(made.body.code)).toEqual({ destination: 'https://evil.net/@example.com/', location: 'https://evil.net/@example.com/' });
    expect(dns.queries).toContain('evil.net A');
    expect(dns.queries.some((query) => query.startsWith('example.com '))).toBe(false);
  });
});

describe('the warning page of a flagged link', () => {
  it('names the serialized address, the one "Continue" leads to', async () => {
    const made = await call(server, 'createLink', { team: alice.teamId, destination: DISGUISED }, alice.token);
    await server.app.ctx.store.links.setState(made.body.code, 'flagged', server.clock.now());
    const res = await visit(`/${made.body.code}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<p><code>${SERIALIZED}</code></p>`);
    expect(html).toContain(`<a href="${SERIALIZED}" rel="noopener noreferrer nofollow">Continue to ${SERIALIZED}</a>`);
    expect(html).not.toContain('\\@');
  });

  it('shows a destination stored as sent (before this rule) serialized too', async () => {
    const limits = (await server.app.ctx.store.settings.limits());
    const team = await server.app.ctx.store.teams.get(alice.teamId);
    const record = await server.app.ctx.store.links.create(
      { teamId: alice.teamId, teamCreatedAt: new Date(team!.createdAt), destination: DISGUISED, name: null, note: null },
      limits,
      server.clock.now(),
    );
    await server.app.ctx.store.links.setState(record.code, 'flagged', server.clock.now());
    const html = await (await visit(`/${record.code}`)).text();
    expect(html).toContain(`<a href="${SERIALIZED}" rel="noopener noreferrer nofollow">Continue to ${SERIALIZED}</a>`);
    expect(html).not.toContain('\\@');
  });
});
