/**
 * Destination rule 3 by DNS (issue 5, item 1): the check alone against a real DNS server on loopback, then the
 * whole service pointed at that server. No test needs the internet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/destinations/addresses.js';
import { dnsResolver } from '../../src/destinations/resolver.js';
import { privateNetworkCheck } from '../../src/destinations/private-network.js';
import { ApiError } from '../../src/errors.js';
import { startDnsServer, ZONE, type DnsServer } from '../helpers/dns-server.js';
import { call, expectProblem, freePort, startServer, type TestServer } from '../helpers/server.js';

let dns: DnsServer;
let silentDns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
  silentDns = await startDnsServer({ [`silent.${ZONE}`]: 'silent' });
});
afterAll(async () => {
  await dns.close();
  await silentDns.close();
});

const TIMEOUT_MS = 300;
const host = (name: string) => (name.includes('.') ? name : `${name}.${ZONE}`);
const destination = (name: string) => ({ url: new URL(`https://${host(name)}/`), host: host(name) });
const queriesFor = (name: string) => dns.queries.filter((query) => query.startsWith(`${host(name)} `)).length;
/** The ApiError a check throws, or null when it passes. */
async function outcome(check: ReturnType<typeof privateNetworkCheck>, name: string, field = 'destination') {
  try {
    await check.check(destination(name), field);
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

describe('isPublicAddress', () => {
  it.each([
    '93.184.216.34', '8.8.8.8', '2606:2800:220:1::', '::ffff:8.8.8.8', '64:ff9b::5db8:d822', '2002:5db8:d822::1',
  ])('%s is public', (address) => expect(isPublicAddress(address)).toBe(true));
  it.each([
    '10.1.2.3', '172.16.0.1', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.1.1', '0.0.0.0', '255.255.255.255',
    '224.0.0.1', '240.0.0.1', '192.0.0.8', '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '192.88.99.1',
    '192.175.48.1', '192.52.193.1', '::', '::1', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd00::1', 'fec0::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::10.0.0.1', '::8.8.8.8', '::8.8.8.8%eth0', '::ffff:10.0.0.1%1', '::ffff:0:a00:1', '64:ff9b::a00:1',
    '64:ff9b:1::5db8:d822', '2002:a00:1::1', '2002::1', '2001::1', '2001:2::1', '2001:3::1', '2001:4:112::1',
    '2001:10::1', '2001:20::1', '2001:30::1', '2001:db8::1', '3fff::1', '5f00::1', '100::1', '4000::1',
    'not an ip', '127.1', '', '2130706433',
  ])('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false));
});

describe('privateNetworkCheck against a DNS server on loopback', () => {
  const fresh = (options: { now?: () => number; cacheSize?: number } = {}) =>
    privateNetworkCheck({ resolve: dnsResolver({ servers: dns.servers, timeoutMs: TIMEOUT_MS }), ...options });

  it.each(['public', 'v4only', 'v6only', 'long-ttl'])('passes %s', async (name) => {
    expect(await outcome(fresh(), name)).toBeNull();
  });

  it.each(['private-ten', 'private-loopback', 'private-metadata', 'private-cgnat', 'private-ula', 'private-mapped',
    'private-nat64', 'private-testnet', 'private-mixed', 'private-mixed-families', 'xn--bcher-private-wob'])(
    'refuses %s with 400 private_destination, naming the rule and not the address', async (name) => {
      const error = await outcome(fresh(), name, 'links[3].destination');
      expect(error).toMatchObject({ status: 400, code: 'private_destination', field: 'links[3].destination' });
      expect(error!.detail).toContain('private-network');
      expect(error!.detail).not.toMatch(/\d+\.\d+|::/);
    });

  it.each(['missing', 'no-address', 'never-heard-of'])('refuses %s with 400 invalid_destination', async (name) => {
    expect(await outcome(fresh(), name)).toMatchObject({
      status: 400, code: 'invalid_destination', field: 'destination', detail: "The destination's host name does not exist.",
    });
  });

  it.each(['broken', 'refused', 'silent'])('answers %s with 503 check_unavailable and retryAfter', async (name) => {
    const started = Date.now();
    const error = await outcome(fresh(), name, 'links[0].destination');
    expect(error).toMatchObject({ status: 503, code: 'check_unavailable', field: 'links[0].destination', retryAfter: 60 });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 250);
  });

  it('answers 503 check_unavailable when the DNS server is down', async () => {
    const down = privateNetworkCheck({ resolve: dnsResolver({ servers: [`127.0.0.1:${await freePort()}`], timeoutMs: TIMEOUT_MS }) });
    expect(await outcome(down, 'public')).toMatchObject({ status: 503, code: 'check_unavailable', retryAfter: 60 });
  });

  it('keeps to timeoutMs overall, even with several silent servers', async () => {
    const slow = privateNetworkCheck({ resolve: dnsResolver({ servers: [...silentDns.servers, ...dns.servers], timeoutMs: TIMEOUT_MS }) });
    const started = Date.now();
    expect(await outcome(slow, 'silent')).toMatchObject({ status: 503, code: 'check_unavailable' });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 250);
  });

  it('answers a repeated check from its cache: no DNS query', async () => {
    const cached = fresh();
    for (const [name, code] of [['public', null], ['private-ten', 'private_destination'], ['missing', 'invalid_destination']]) {
      expect((await outcome(cached, name!))?.code ?? null).toBe(code);
      const asked = queriesFor(name!);
      expect((await outcome(cached, name!))?.code ?? null).toBe(code);
      expect(queriesFor(name!)).toBe(asked);
    }
  });

  it('shares one look-up between overlapping checks of a host', async () => {
    const before = queriesFor('v4only');
    await Promise.all(Array.from({ length: 5 }, () => fresh().check(destination('v4only'), 'destination')));
    expect(queriesFor('v4only') - before).toBe(10); // five checkers, one look-up (A + AAAA) each
    const shared = fresh();
    await Promise.all(Array.from({ length: 5 }, () => shared.check(destination('v4only'), 'destination')));
    expect(queriesFor('v4only') - before).toBe(12);
  });

  it.each([
    ['short-ttl', 30_000], // the records' TTL
    ['long-ttl', 300_000], // at most 5 minutes
    ['missing', 60_000], // a missing name: 1 minute
  ])('asks again for %s after %i ms', async (name, ttlMs) => {
    let clock = 1_000_000;
    const timed = fresh({ now: () => clock });
    await outcome(timed, name);
    const asked = queriesFor(name);
    clock += ttlMs - 1_000;
    await outcome(timed, name);
    expect(queriesFor(name)).toBe(asked);
    clock += 2_000;
    await outcome(timed, name);
    expect(queriesFor(name)).toBe(asked + 2);
  });

  it.each(['broken', 'silent'])('does not cache a failure (%s)', async (name) => {
    const uncached = fresh();
    await outcome(uncached, name);
    const asked = queriesFor(name);
    expect(await outcome(uncached, name)).toMatchObject({ code: 'check_unavailable' });
    expect(queriesFor(name)).toBe(asked + 2);
  });

  it('holds at most cacheSize hosts, dropping the oldest', async () => {
    const small = fresh({ cacheSize: 2 });
    for (const name of ['public', 'v4only', 'v6only']) await outcome(small, name);
    const asked = [queriesFor('public'), queriesFor('v6only')];
    await outcome(small, 'v6only');
    await outcome(small, 'public');
    expect([queriesFor('public'), queriesFor('v6only')]).toEqual([asked[0]! + 2, asked[1]]);
  });

});

describe('the service with the DNS check pointed at the loopback server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ networkChecks: { privateNetwork: privateNetworkCheck({ resolve: dnsResolver({ servers: dns.servers, timeoutMs: 500 }) }) } });
  });
  afterAll(() => server.stop());
  const url = (name: string) => `https://${host(name)}/page`;
  const linksOf = async (token: string, team: string) => (await call(server, 'listLinks', { team, limit: 100 }, token)).body.data;

  it.each([
    ['private-ten', 400, 'private_destination'],
    ['private-mapped', 400, 'private_destination'],
    ['bit.ly', 400, 'private_destination'], // a shortener, but rule 3 comes before rule 4
    ['missing', 400, 'invalid_destination'],
    ['broken', 503, 'check_unavailable'],
    ['silent', 503, 'check_unavailable'],
  ])('createLink to %s answers %i %s and makes nothing', async (name, status, code) => {
    const alice = await server.person();
    const reply = await call(server, 'createLink', { team: alice.teamId, destination: url(name) }, alice.token);
    expectProblem(server, reply, status, code, 'destination');
    expect(reply.headers.get('retry-after')).toBe(status === 503 ? '60' : null);
    expect(await linksOf(alice.token, alice.teamId)).toEqual([]);
  });

  it('createLink to a public name makes the link', async () => {
    const alice = await server.person();
    expect((await call(server, 'createLink', { team: alice.teamId, destination: url('public') }, alice.token)).status).toBe(200);
  });

  it('createLinks fails each bad item alone, with its own code', async () => {
    const alice = await server.person();
    const names = ['public', 'private-metadata', 'missing', 'broken', 'v4only'];
    const reply = await call(server, 'createLinks', { team: alice.teamId, links: names.map((name) => ({ destination: url(name) })) }, alice.token);
    expect(reply.status).toBe(200);
    expect(reply.body.results.map((r: any) => [r.status, r.code, r.link === null])).toEqual([
      [200, null, false], [400, 'private_destination', true], [400, 'invalid_destination', true],
      [503, 'check_unavailable', true], [200, null, false],
    ]);
    expect(await linksOf(alice.token, alice.teamId)).toHaveLength(2);
  });

  it.each([
    ['private-ula', 400, 'private_destination'],
    ['no-address', 400, 'invalid_destination'],
    ['refused', 503, 'check_unavailable'],
  ])('setDestination to %s answers %i %s and keeps the old destination', async (name, status, code) => {
    const alice = await server.person();
    const made = (await call(server, 'createLink', { team: alice.teamId, destination: url('public') }, alice.token)).body;
    const reply = await call(server, 'setDestination', { code: made.code, destination: url(name) }, alice.token);
    expectProblem(server, reply, status, code, 'destination');
    expect(reply.headers.get('retry-after')).toBe(status === 503 ? '60' : null);
    expect((await call(server, 'getLink', { code: made.code }, alice.token)).body.destination).toBe(url('public'));
  });
});
