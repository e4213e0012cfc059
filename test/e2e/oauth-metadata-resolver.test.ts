/**
 * Issue 8, item 7: client ID metadata documents are fetched with the resolver destinations are checked with
 * (`DNS_SERVERS`, `DNS_TIMEOUT_MS`) and the same address rules, not the system's resolver. The server here runs
 * its real fetcher (no test-only option, nothing injected) against the loopback DNS stand-in.
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsResolver } from '../../src/destinations/resolver.js';
import { checkedLookup, resolveWith } from '../../src/destinations/public-lookup.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizeUrl, browserOf, pkce, tokenRequest } from '../helpers/oauth.js';
import { startDnsServer, ZONE, type DnsServer } from '../helpers/dns-server.js';

const CALLBACK = 'http://127.0.0.1:33418/callback';

let dns: DnsServer;
let server: TestServer;
beforeAll(async () => {
  dns = await startDnsServer();
  server = await startServer({ env: { DNS_SERVERS: dns.servers.join(','), DNS_TIMEOUT_MS: '300' } });
});
afterAll(async () => {
  await server.stop();
  await dns.close();
});

/** Opens the consent step for `clientId` signed in; answers the page's status and text. */
async function open(clientId: string): Promise<{ status: number; html: string }> {
  const person = await server.person();
  const res = await fetch(authorizeUrl(server, {
    response_type: 'code', client_id: clientId, redirect_uri: CALLBACK, code_challenge: pkce().challenge, code_challenge_method: 'S256',
  }), { headers: { cookie: await browserOf(server, person.personId) }, redirect: 'manual' });
  return { status: res.status, html: await res.text() };
}

describe('the metadata document fetcher asks DNS_SERVERS', () => {
  it.each([
    ['a private address', `private-ten.${ZONE}`],
    ['a loopback address', `private-loopback.${ZONE}`],
    ['the cloud metadata address', `private-metadata.${ZONE}`],
    ['a public and a private address', `private-mixed.${ZONE}`],
    ['a private IPv6 address only', `private-ula.${ZONE}`],
  ])('refuses a host that resolves there to %s: 400 page, then 401 invalid_client at /token', async (_what, host) => {
    dns.queries.length = 0;
    const clientId = `https://${host}/client.json`;
    const page = await open(clientId);
    expect(page.status).toBe(400);
    expect(page.html).toContain(`${host} resolves to a private address.`);
    expect(dns.queries).toContain(`${host} A`);
    const token = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: 'slr_x', client_id: clientId });
    expect(token.status).toBe(401);
    expect(token.body).toEqual({ error: 'invalid_client', error_description: `${host} resolves to a private address.` });
  });

  it('refuses a host that does not exist there', async () => {
    const page = await open(`https://missing.${ZONE}/client.json`);
    expect(page.status).toBe(400);
    expect(page.html).toContain(`The metadata document could not be fetched: missing.${ZONE} has no address.`);
  });

  it('gives up on a resolver that does not answer within DNS_TIMEOUT_MS', async () => {
    const started = Date.now();
    const page = await open(`https://silent.${ZONE}/client.json`);
    expect(page.status).toBe(400);
    expect(page.html).toContain(`The metadata document could not be fetched: silent.${ZONE} could not be looked up (ETIMEOUT).`);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('the lookup the fetcher connects with', () => {
  const lookup = (host: string) => {
    const resolve = resolveWith(dnsResolver({ servers: dns.servers, timeoutMs: 1_000 }));
    const refusal = (name: string) => new Error(`${name} refused`);
    return new Promise<{ error: Error | null; addresses: LookupAddress[] }>((done) => {
      checkedLookup(resolve, refusal)(host, { all: true }, (error, addresses) => {
        done({ error, addresses: (addresses as unknown as LookupAddress[]) ?? [] });
      });
    });
  };

  it('hands the socket exactly the addresses it checked, both families', async () => {
    const { error, addresses } = await lookup(`public.${ZONE}`);
    expect(error).toBeNull();
    expect(addresses.map(({ address, family }) => ({ address, family }))).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::', family: 6 },
    ]);
  });

  it('hands it nothing for a name with a private address', async () => {
    const { error } = await lookup(`private-mixed-families.${ZONE}`);
    expect(error?.message).toBe(`private-mixed-families.${ZONE} refused`);
  });
});
