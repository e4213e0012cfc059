/**
 * Issue 20, item 6: client ID metadata document fetches that fail cannot keep new assistants from signing in. The
 * real server fetches from loopback stand-ins (the test-only option; each port counts as a host of its own) and
 * trusts X-Forwarded-For from loopback, so each request names its client address. The numbers are those of
 * src/oauth/lifetimes-and-limits.ts: 20 fetches a minute per network (an IPv4 address, an IPv6 /48); known clients
 * 600 in all; new clients 600 in all and 10 per host; failing hosts 60 in all and 2 per host. That a known client's
 * allowance is its own is pinned against every limiter in test/rate-limits/document-fetches.test.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { freePort } from '../helpers/free-port.js';
import { authorizeUrl, startDocumentHost, type DocumentHost } from '../helpers/oauth.js';

const CALLBACK = 'http://127.0.0.1:33418/callback';
/** RFC 7636 appendix B's challenge: fixed, so the answers can be compared whole. */
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
/** For the tests of hundreds of requests: a few seconds alone, many times that on a machine busy with other work. */
const MANY_REQUESTS_MS = 60_000;

/** A valid document for whatever path was asked, kept 5 minutes. */
function validDocument(req: IncomingMessage, res: ServerResponse): void {
  const document = { client_id: `http://${req.headers.host}${req.url}`, client_name: 'Good assistant', redirect_uris: [CALLBACK] };
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(JSON.stringify(document));
}

let server: TestServer;
const hosts: DocumentHost[] = [];
/** A stand-in host answering every path with `route` (404 when left out). */
async function host(route?: (req: IncomingMessage, res: ServerResponse) => void): Promise<DocumentHost> {
  const started = await startDocumentHost(route);
  hosts.push(started);
  return started;
}
/** Fetches each stand-in answered. */
const fetchesAt = (at: DocumentHost) => [...at.hits.values()].reduce((sum, hits) => sum + hits, 0);

beforeAll(async () => {
  server = await startServer({
    env: { TRUST_PROXY: '127.0.0.1' },
    oauth: { metadataDocuments: { testOnlyAllowLoopbackHttp: true, timeoutMs: 2_000 } },
  });
});
afterEach(() => {
  // Every test starts with fresh minutes; what is known of hosts lasts longer, so each test brings its own.
  server.clock.advance(61_000);
});
afterAll(async () => {
  await server.stop();
  await Promise.all(hosts.map((started) => started.close()));
});

const params = (clientId: string) => ({ response_type: 'code', client_id: clientId, redirect_uri: CALLBACK, code_challenge: CHALLENGE, code_challenge_method: 'S256' });

/** GET /authorize naming `clientId`, not signed in, from the client address `from` (through the trusted proxy). */
async function open(clientId: string, from: string): Promise<{ status: number; location: string | null; retryAfter: string | null; body: string }> {
  const res = await fetch(authorizeUrl(server, params(clientId)), { headers: { 'x-forwarded-for': from }, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), retryAfter: res.headers.get('retry-after'), body: await res.text() };
}

/** What a client whose document checked out gets when nobody is signed in: sent to sign in, and back here after. */
function toSignIn(clientId: string) {
  const next = `/authorize?${new URLSearchParams(params(clientId))}`;
  const location = `/signin?next=${encodeURIComponent(next)}`;
  return { status: 303, location, retryAfter: null, body: `See Other. Redirecting to ${location}` };
}

/** A 429 page of /authorize. */
function tooMany(retryAfter: number) {
  return expect.objectContaining({
    status: 429,
    retryAfter: String(retryAfter),
    body: expect.stringContaining(`Too many client metadata documents were fetched; retry in ${retryAfter} seconds.`),
  });
}

/** A 400 page of /authorize saying why the document was refused. */
function refusedPage(why: string) {
  return expect.objectContaining({ status: 400, location: null, body: expect.stringContaining(`The application is not known here. ${why}`) });
}

describe('fetches that fail cannot starve new assistants', () => {
  it('31 addresses of one IPv6 /56 sending junk client_ids are refused; a new assistant elsewhere still signs in', async () => {
    const refusing = `http://127.0.0.1:${await freePort()}`;
    const notFound = await host();
    const notJson = await host((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"client_id":'));
    const slow = await host(() => undefined); // never answers
    const junkHosts = [refusing, notFound.base, notJson.base, slow.base];
    // 31 /64s of 2001:db8:77:aa00::/56 (an attacker's home line), each counted apart by the per-address limits.
    const attackers = Array.from({ length: 31 }, (_, i) => `2001:db8:77:aa${i.toString(16).padStart(2, '0')}::${i + 1}`);

    // Which of the rounds' ids the network's fetches go to is up to the order they are taken in (on a loaded machine
    // none may be a given host's), so one id of two of the hosts is fetched first, from another network.
    expect(await open(`${notFound.base}/junk/known`, '203.0.113.1')).toEqual(refusedPage('The metadata document answered 404 (redirects are not followed).'));
    expect(await open(`${slow.base}/junk/known`, '203.0.113.1')).toEqual(refusedPage('The metadata document took too long.'));

    // 20 rounds of one from each: 620 junk client_ids, more than the 600 fetches a minute there are in all.
    let sent = 0;
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(attackers.map((from) => open(`${junkHosts[sent % 4]}/junk/${sent++}`, from)));
      for (const answer of answers) expect([400, 429]).toContain(answer.status);
    }
    const good = await host(validDocument);
    const assistant = `${good.base}/assistant.json`;
    expect(await open(assistant, '2001:db8:99::1')).toEqual(toSignIn(assistant));
    expect(good.hits.get('/assistant.json')).toBe(1);

    // One network fetches 20 a minute at most, whichever of its /64s asks; the rest is refused or answered from memory.
    expect(fetchesAt(notFound) + fetchesAt(notJson) + fetchesAt(slow)).toBeLessThanOrEqual(20);
    expect(await open(`${notFound.base}/junk/next`, '2001:db8:77:aaff::9')).toEqual(tooMany(60));

    // A client_id that failed is answered from memory, costing no fetch (and no allowance, used up or not) ...
    const fetched = '/junk/known';
    expect(await open(`${notFound.base}${fetched}`, '2001:db8:77:aa00::1')).toEqual(refusedPage('The metadata document answered 404 (redirects are not followed).'));
    expect(notFound.hits.get(fetched)).toBe(1);
    // ... and so is every client_id of a host that could not be reached or took too long.
    const hitsOfSlow = fetchesAt(slow);
    expect(await open(`${slow.base}/junk/known`, '2001:db8:77:aa00::1')).toEqual(refusedPage('The metadata document took too long.'));
    expect(await open(`${slow.base}/junk/other`, '203.0.113.1')).toEqual(refusedPage('The metadata document took too long.'));
    expect(await open(`${refusing}/junk/other`, '203.0.113.1')).toEqual(refusedPage('The metadata document could not be fetched: connect ECONNREFUSED'));
    expect(fetchesAt(slow)).toBe(hitsOfSlow);
    // After a minute both are fetched again.
    server.clock.advance(61_000);
    expect(await open(`${notFound.base}${fetched}`, '203.0.113.2')).toEqual(refusedPage('The metadata document answered 404 (redirects are not followed).'));
    expect(notFound.hits.get(fetched)).toBe(2);
  }, MANY_REQUESTS_MS);

  it('a host that failed fetches from a smaller allowance: 2 a minute, 60 in all; new hosts go on', async () => {
    const failing = await Promise.all(Array.from({ length: 31 }, () => host()));
    for (const [i, at] of failing.entries()) expect((await open(`${at.base}/first`, `198.18.0.${i}`)).status).toBe(400);
    server.clock.advance(61_000);

    // Each failing host: 2 fetches a minute, whichever networks ask.
    expect(await open(`${failing[0]!.base}/a`, '198.18.1.1')).toEqual(refusedPage('The metadata document answered 404'));
    expect(await open(`${failing[0]!.base}/b`, '198.18.1.2')).toEqual(refusedPage('The metadata document answered 404'));
    expect(await open(`${failing[0]!.base}/c`, '198.18.1.3')).toEqual(tooMany(60));
    expect(failing[0]!.hits.get('/c')).toBeUndefined();
    // All of them: 60 a minute.
    for (let i = 1; i < 30; i++) {
      for (const path of ['/a', '/b']) expect((await open(`${failing[i]!.base}${path}`, `198.18.2.${i}`)).status).toBe(400);
    }
    expect(await open(`${failing[30]!.base}/a`, '198.18.3.1')).toEqual(tooMany(60));
    expect(fetchesAt(failing[30]!)).toBe(1);

    // A new assistant fetches from the new clients' allowance, which the failing hosts never touched.
    const good = await host(validDocument);
    expect(await open(`${good.base}/new.json`, '198.18.3.1')).toEqual(toSignIn(`${good.base}/new.json`));
  }, MANY_REQUESTS_MS);

  it('junk paths on a host that served a valid document do not make it a failing host', async () => {
    const good = await host((req, res) => (req.url === '/client.json' ? validDocument(req, res) : res.writeHead(404).end()));
    expect((await open(`${good.base}/client.json`, '198.18.4.1')).status).toBe(303);
    for (let i = 0; i < 5; i++) expect(await open(`${good.base}/junk/${i}`, `198.18.4.${i + 2}`)).toEqual(refusedPage('The metadata document answered 404'));
    expect(fetchesAt(good)).toBe(6);
  });
});

describe('per network and per host', () => {
  it('20 fetches a minute per IPv6 /48, whichever /56 or /64 of it asks; another /48 goes on', async () => {
    const good = await Promise.all(Array.from({ length: 3 }, () => host(validDocument)));
    for (let i = 0; i < 20; i++) {
      const from = `2001:db8:1:${(i * 0x100).toString(16)}::1`; // a /56 each
      expect((await open(`${good[Math.floor(i / 10)]!.base}/c/${i}`, from)).status).toBe(303);
    }
    expect(await open(`${good[2]!.base}/c/20`, '2001:db8:1:ffff::1')).toEqual(tooMany(60));
    expect(fetchesAt(good[2]!)).toBe(0);
    expect(await open(`${good[2]!.base}/c/21`, '2001:db8:2::1')).toEqual(toSignIn(`${good[2]!.base}/c/21`));
  });

  it('20 fetches a minute per IPv4 address; the next address goes on', async () => {
    const good = await Promise.all(Array.from({ length: 3 }, () => host(validDocument)));
    for (let i = 0; i < 20; i++) expect((await open(`${good[Math.floor(i / 10)]!.base}/c/${i}`, '198.51.100.3')).status).toBe(303);
    expect(await open(`${good[2]!.base}/c/20`, '198.51.100.3')).toEqual(tooMany(60));
    expect(await open(`${good[2]!.base}/c/21`, '198.51.100.4')).toEqual(toSignIn(`${good[2]!.base}/c/21`));
  });

  it('a host is fetched at most 10 times a minute for client_ids not known, whoever asks', async () => {
    const target = await host(validDocument);
    for (let i = 0; i < 10; i++) expect((await open(`${target.base}/c/${i}`, `198.18.7.${i}`)).status).toBe(303);
    expect(await open(`${target.base}/c/10`, '198.18.7.10')).toEqual(tooMany(60));
    expect(fetchesAt(target)).toBe(10);
    server.clock.advance(61_000);
    expect(await open(`${target.base}/c/10`, '198.18.7.10')).toEqual(toSignIn(`${target.base}/c/10`));
  });
});
