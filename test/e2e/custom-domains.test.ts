import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/domain/limits.js';
import { runCli } from '../helpers/cli.js';
import { startDnsServer, type DnsServer, type Entry } from '../helpers/dns-server.js';
import { freePort } from '../helpers/free-port.js';
import { call, startServer, TestClock, type Actor, type TestServer } from '../helpers/server.js';

/**
 * Teams' own domains end to end (issue 25; docs/behaviour.md, "Custom domains"): the operator's CLI, the DNS proof
 * through a DNS stand-in and the checker's runs, what a domain serves and what it never does, the proxy's TLS
 * question on both listeners, and a removal taking effect on the very next request.
 */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DOMAIN = 'go.acme.test';
const PROOF = `_shortlinks.${DOMAIN}`;

// The DNS stand-in's zone: the tests publish and take away the proof while the server runs. Every other name
// resolves to a public address, so destinations pass their checks.
const names: Record<string, Entry> = {};
let dns: DnsServer;
let server: TestServer;
let acme: Actor;
let other: Actor;
let launch: { code: string; name: string };
let othersLink: { code: string };
let metrics: string;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to the server with the Host header given (fetch sets its own): what a proxy forwards for a domain. */
function send(path: string, host: string, options: { method?: string; headers?: Record<string, string>; port?: number } = {}): Promise<Answer> {
  const port = options.port ?? Number(new URL(server.url).port);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host, 'user-agent': BROWSER, ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const cli = (...args: string[]) => runCli(server.dbPath, ...args);
/** A refused command line: its exit code and its one line, without the database it names after a data error. */
async function refusal(...args: string[]): Promise<[number, string]> {
  const run = await cli(...args);
  return [run.code, run.stderr.trim().replace(/ \(database: .*\)$/, '')];
}
/** What a command printed, less the line naming the database. */
const printed = (stdout: string) => stdout.trim().split('\n').filter((line) => !line.startsWith('database: ')).join('\n');
async function cliJson(...args: string[]): Promise<any> {
  const run = await cli(...args, '--json');
  expect(run.stderr.split('\n').filter((line) => line.startsWith('shortlinks:'))).toEqual([]);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}
const stateOf = async () => ((await cliJson('domain', 'list', '--team', acme.teamId)).domains[0] as { state: string } | undefined)?.state;

beforeAll(async () => {
  dns = await startDnsServer(names, { a: ['93.184.216.34'] });
  const metricsPort = await freePort();
  // The checker looks for due domains ten times a second here, so a test waits a moment, not a minute.
  // The CLI stamps what it adds with the real time, which the test clock starts from; it moves on by hand from there.
  server = await startServer({
    clock: new TestClock(new Date()),
    env: { DNS_SERVERS: dns.servers.join(','), DOMAIN_CHECK_MS: '100', METRICS_PORT: String(metricsPort) },
  });
  metrics = `http://127.0.0.1:${metricsPort}`;
  acme = await server.person({ teamName: 'Acme' });
  other = await server.person({ teamName: 'Other' });
  const made = await call(server, 'createLink', { team: acme.teamId, destination: 'https://example.com/launch', name: 'acme-launch' }, acme.token);
  expect(made.status).toBe(200);
  launch = made.body;
  othersLink = (await call(server, 'createLink', { team: other.teamId, destination: 'https://example.org/' }, other.token)).body;
});
afterAll(async () => {
  await server?.stop();
  await dns?.close();
});

describe('the operator adds a domain with the CLI', () => {
  it('pending until proven: the TXT record to publish is printed, and nothing is served on it yet', async () => {
    const added = await cliJson('domain', 'add', '--team', acme.teamId, '--domain', 'Go.Acme.TEST.');
    expect(added).toMatchObject({ domain: DOMAIN, teamId: acme.teamId, state: 'pending', proof: 'dns', primary: false, rootUrl: null, problem: null });
    expect(added.token).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(added.record).toEqual({ name: PROOF, type: 'TXT', value: `shortlinks-verify=${added.token}` });
    const list = await cli('domain', 'list');
    expect(printed(list.stdout)).toMatch(new RegExp(`^${DOMAIN.replaceAll('.', '\\.')} ${acme.teamId} pending; publish TXT ${PROOF.replaceAll('.', '\\.')} "shortlinks-verify=${added.token}"`));
    // A pending domain serves nothing, not even its team's links, and never the service's own pages.
    for (const path of ['/', `/${launch.code}`, '/acme-launch', '/app', '/v1/openapi.json']) {
      const answer = await send(path, DOMAIN);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(answer.body).toContain('There is no short link at this address.');
    }
    expect((await askOnMetrics(DOMAIN)).status).toBe(404);
  });

  it.each([
    [['--domain', 'https://go.acme.test/'], 2, 'Give the domain alone, such as go.example.com, not "https://go.acme.test/".'],
    [['--domain', '192.0.2.1'], 2, '"192.0.2.1" is not a domain name.'],
    [['--domain', 'go.bit.ly'], 1, 'go.bit.ly belongs to another link shortener.'],
  ])('refuses what is no domain or one it will not serve: %j', async (flags, code, reason) => {
    expect(await refusal('domain', 'add', '--team', other.teamId, ...flags)).toEqual([code, `shortlinks: ${reason}`]);
  });

  it("refuses a domain another team holds, one more than the team's limit, an unknown team, and a blocked one", async () => {
    expect(await refusal('domain', 'add', '--team', other.teamId, '--domain', DOMAIN)).toEqual([1, `shortlinks: ${DOMAIN} belongs to a team already.`]);
    expect((await cli('limits', 'set', '--team-domains', '1')).code).toBe(0);
    expect(await refusal('domain', 'add', '--team', acme.teamId, '--domain', 'two.acme.test')).toEqual([
      1,
      'shortlinks: The team holds 1 domain, as many as it may.',
    ]);
    expect((await cli('limits', 'set', '--team-domains', '5')).code).toBe(0);
    expect(await refusal('domain', 'add', '--team', 'team_unknown', '--domain', 'x.acme.test')).toEqual([1, 'shortlinks: No such team.']);
    expect((await cli('block', 'add', 'blocked.test')).code).toBe(0);
    expect(await refusal('domain', 'add', '--team', other.teamId, '--domain', 'go.blocked.test')).toEqual([
      1,
      'shortlinks: go.blocked.test is blocked on this service.',
    ]);
    expect((await cliJson('domain', 'list')).domains.map((d: { domain: string }) => d.domain)).toEqual([DOMAIN]);
  });
});

describe('the DNS proof', () => {
  it('is looked for by the checker: missing, it says so; published, the domain is verified and serves at once', async () => {
    // Due from the moment the CLI added it, by the real clock: the test clock catches up with it.
    server.clock.current = new Date();
    await expect.poll(async () => (await cliJson('domain', 'list')).domains[0].problem, { timeout: 5000 }).toBe(`No TXT record ${PROOF} holds the token yet.`);
    const [{ token }] = (await cliJson('domain', 'list')).domains;
    names[PROOF] = { txt: [`shortlinks-verify=${token}`] };
    // Pending domains are looked at every 5 minutes: the test clock moves on to the next look.
    server.clock.advance(5 * 60_000);
    await expect.poll(stateOf, { timeout: 5000 }).toBe('verified');
    expect(dns.queries).toContain(`${PROOF} TXT`);
    expect((await send(`/${launch.code}`, DOMAIN)).headers.location).toBe('https://example.com/launch');
  });
});

describe('a verified domain', () => {
  it("redirects the team's links by code and by name, in any case and with a trailing slash, as PUBLIC_URL does", async () => {
    for (const path of [`/${launch.code}`, '/acme-launch', '/Acme-Launch', '/acme-launch/']) {
      const answer = await send(path, DOMAIN);
      expect([path, answer.status, answer.headers.location]).toEqual([path, 302, 'https://example.com/launch']);
    }
    const onPublic = await fetch(`${server.url}/acme-launch`, { redirect: 'manual' });
    expect([onPublic.status, onPublic.headers.get('location')]).toEqual([302, 'https://example.com/launch']);
  });

  it('counts the clicks it redirects, as PUBLIC_URL does', async () => {
    const made = await call(server, 'createLink', { team: acme.teamId, destination: 'https://example.com/counted' }, acme.token);
    const clicks = async () => (await call(server, 'linkClicks', { code: made.body.code }, acme.token)).body.days.at(-1).clicks;
    await send(`/${made.body.code}`, DOMAIN);
    await send(`/${made.body.code}`, DOMAIN);
    await expect.poll(clicks, { timeout: 5000 }).toBe(2);
  });

  it("draws QR codes of the domain's address", async () => {
    const qr = await send('/acme-launch/qr', DOMAIN);
    expect([qr.status, qr.headers['content-type']]).toEqual([200, 'image/svg+xml']);
    const onPublic = await fetch(`${server.url}/acme-launch/qr`);
    expect(await onPublic.text()).not.toBe(qr.body);
  });

  it("answers another team's link, the service's pages and its API with the not-found page", async () => {
    for (const path of [`/${othersLink.code}`, `/${othersLink.code}/qr`, '/app', '/signin', '/mcp', '/v1/openapi.json', '/docs', '/favicon.ico', '/.well-known/oauth-authorization-server']) {
      const answer = await send(path, DOMAIN);
      expect([path, answer.status, answer.headers['content-type']]).toEqual([path, 404, 'text/html; charset=utf-8']);
      expect(answer.body).toContain('There is no short link at this address.');
    }
    const posted = await send('/v1/createLink', DOMAIN, { method: 'POST', headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'application/json' } });
    expect(posted.status).toBe(404);
    // The health check alone answers on any name, looked up nowhere: a probe must never wait on the database.
    const health = await send('/healthz', DOMAIN);
    expect([health.status, JSON.parse(health.body)]).toEqual([200, { status: 'ok' }]);
  });

  it('shows a plain page at its root, or sends visitors where the team chose; robots.txt as on PUBLIC_URL', async () => {
    const root = await send('/', DOMAIN);
    expect(root.status).toBe(200);
    expect(root.body).toContain(`<h1>${DOMAIN}</h1>`);
    await server.app.ctx.store.domains.setRoot(DOMAIN, 'https://example.com/', 'operator');
    const sent = await send('/', DOMAIN);
    expect([sent.status, sent.headers.location]).toEqual([302, 'https://example.com/']);
    const robots = await send('/robots.txt', DOMAIN);
    expect([robots.status, robots.body]).toEqual([200, 'User-agent: *\nAllow: /$\nDisallow: /\n']);
    expect(robots.body).toBe(await (await fetch(`${server.url}/robots.txt`)).text());
  });
});

describe("the proxy's TLS question", () => {
  const ask = (domain: string | null, port: number, headers: Record<string, string> = {}) =>
    send(domain === null ? '/tls/allowed' : `/tls/allowed?domain=${domain}`, '127.0.0.1', { port, headers });

  it('is answered on the metrics listener and, from this machine unforwarded, on the public one', async () => {
    for (const port of [Number(new URL(metrics).port), Number(new URL(server.url).port)]) {
      expect((await ask(DOMAIN, port)).status).toBe(200);
      expect((await ask('GO.ACME.TEST.', port)).status).toBe(200);
      expect((await ask('127.0.0.1', port)).status).toBe(200);
      expect((await ask('unknown.acme.test', port)).status).toBe(404);
      const bare = await ask(null, port);
      expect([bare.status, bare.body]).toEqual([400, 'Ask with /tls/allowed?domain=NAME.\n']);
    }
  });

  it('is not answered for a request a proxy forwarded to the public listener', async () => {
    const forwarded = await ask(DOMAIN, Number(new URL(server.url).port), { 'x-forwarded-for': '203.0.113.9' });
    expect(forwarded.status).toBe(404);
    expect(forwarded.body).toContain('<html');
  });
});

describe('losing the proof', () => {
  it('keeps serving while the record is missing for less than three days in a row, then stops and says why', async () => {
    delete names[PROOF];
    const problem = async () => (await cliJson('domain', 'list')).domains[0].problem as string | null;
    // Verified domains are looked at once a day.
    server.clock.advance(DAY_MS);
    await expect.poll(problem, { timeout: 5000 }).toContain('was missing at the last check');
    expect((await send('/acme-launch', DOMAIN)).status).toBe(302);
    server.clock.advance(DAY_MS);
    await expect.poll(async () => (await cliJson('domain', 'list')).domains[0].checkedAt, { timeout: 5000 }).toBe(server.clock.now().toISOString());
    expect(await stateOf()).toBe('verified');
    server.clock.advance(DAY_MS);
    await expect.poll(stateOf, { timeout: 5000 }).toBe('failed');
    expect(await problem()).toMatch(new RegExp(`^The TXT record ${PROOF.replaceAll('.', '\\.')} was missing on three days in a row; the domain stopped serving links on \\d{4}-\\d{2}-\\d{2}\\.$`));
    expect((await send('/acme-launch', DOMAIN)).status).toBe(404);
    expect((await askOnMetrics(DOMAIN)).status).toBe(404);
  });

  it('serves again once a check finds the record', async () => {
    const [{ token }] = (await cliJson('domain', 'list')).domains;
    names[PROOF] = { txt: [`shortlinks-verify=${token}`] };
    server.clock.advance(DAY_MS);
    await expect.poll(stateOf, { timeout: 5000 }).toBe('verified');
    expect((await send('/acme-launch', DOMAIN)).status).toBe(302);
  });
});

describe("the team's primary domain", () => {
  const at = (path: string) => `https://${DOMAIN}${path}`;

  it("is where the API shows the team's links from then on; other teams' stay on PUBLIC_URL", async () => {
    // Back to the real day (the checks are a day or more away), which the CLI's clicks export reads.
    server.clock.current = new Date();
    expect(await server.app.ctx.store.domains.setPrimary(acme.teamId, DOMAIN, 'operator')).toHaveLength(1);
    const got = await call(server, 'getLink', { code: launch.code }, acme.token);
    expect([got.body.shortUrl, got.body.nameUrl]).toEqual([at(`/${launch.code}`), at('/acme-launch')]);
    const made = await call(server, 'createLink', { team: acme.teamId, destination: 'https://example.com/new' }, acme.token);
    expect(made.body.shortUrl).toBe(at(`/${made.body.code}`));
    const others = await call(server, 'getLink', { code: othersLink.code }, other.token);
    expect(others.body.shortUrl).toBe(`${server.url}/${othersLink.code}`);
  });

  it("draws the domain's address in QR codes asked on PUBLIC_URL too", async () => {
    const onPublic = await (await fetch(`${server.url}/${launch.code}/qr`)).text();
    expect(onPublic).toBe((await send(`/${launch.code}/qr`, DOMAIN)).body);
  });

  it("names the domain's addresses in the clicks export and the breakdown by link", async () => {
    await send('/acme-launch', DOMAIN);
    const csv = async () => printed((await cli('clicks', 'export', '--team', acme.teamId)).stdout);
    await expect.poll(csv, { timeout: 5000 }).toContain(`,acme-launch,${at('/acme-launch')},`);
    const byLink = await call(server, 'clickBreakdown', { team: acme.teamId, by: 'link', days: 7 }, acme.token);
    expect(byLink.body.rows.map((row: { label: string }) => row.label)).toContain(at('/acme-launch'));
  });

  it('is named to assistants: in the descriptions of the tools that make links, and in the addresses of each result', async () => {
    const client = new Client({ name: 'domains', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${acme.token}` } } }));
    try {
      const described = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool.description!]));
      const sentence = ` Short links are shown at their team's own domain where it has one (shortUrl and nameUrl say so): team ${acme.teamId} at https://${DOMAIN}; other teams' at ${server.url}.`;
      for (const name of ['myTeams', 'createLink', 'createLinks', 'teamLinks']) expect(described.get(name)).toMatch(new RegExp(`${escape(sentence)}$`));
      expect(described.get('linkByCode')).not.toContain(DOMAIN);
      const result = await client.callTool({ name: 'linkByCode', arguments: { code: launch.code } });
      const [, addresses] = (result.content as Array<{ text: string }>).map((item) => item.text);
      expect(addresses!.split('\n').slice(0, 3)).toEqual([`Short link: ${at(`/${launch.code}`)}`, `By name: ${at('/acme-launch')}`, `QR code: ${at(`/${launch.code}`)}/qr`]);
    } finally {
      await client.close();
    }
    // A person whose teams all use PUBLIC_URL is told nothing of domains.
    const plain = new Client({ name: 'plain', version: '1' });
    await plain.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${other.token}` } } }));
    try {
      expect(JSON.stringify((await plain.listTools()).tools)).not.toContain(DOMAIN);
    } finally {
      await plain.close();
    }
  });

  it('falls back to PUBLIC_URL once none is chosen', async () => {
    await server.app.ctx.store.domains.setPrimary(acme.teamId, null, 'operator');
    expect((await call(server, 'getLink', { code: launch.code }, acme.token)).body.shortUrl).toBe(`${server.url}/${launch.code}`);
  });
});

/** Text as a regular expression matching it exactly. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('removing the domain', () => {
  it("takes effect on the next request: its links, and PUBLIC_URL's pages, answer not found there", async () => {
    const removed = await cli('domain', 'remove', '--domain', DOMAIN);
    expect([removed.code, printed(removed.stdout)]).toEqual([0, `removed ${DOMAIN} from ${acme.teamId}`]);
    for (const path of ['/acme-launch', '/', '/app']) expect([path, (await send(path, DOMAIN)).status]).toEqual([path, 404]);
    expect((await cliJson('domain', 'list')).domains).toEqual([]);
    expect(await refusal('domain', 'remove', '--domain', DOMAIN)).toEqual([1, 'shortlinks: No such domain.']);
    // Another team may take the name from here on, as pending.
    expect(await cliJson('domain', 'add', '--team', other.teamId, '--domain', DOMAIN)).toMatchObject({ teamId: other.teamId, state: 'pending' });
  });

  it('a host that was never a domain is served as PUBLIC_URL is, as before domains existed', async () => {
    const answer = await send('/acme-launch', 'localhost');
    expect([answer.status, answer.headers.location]).toEqual([302, 'https://example.com/launch']);
  });
});

describe("a team's domain as a destination", () => {
  it('is refused as a link of this service, as PUBLIC_URL is, while any team holds it', async () => {
    expect(await cliJson('domain', 'add', '--team', other.teamId, '--domain', 'go.example.net')).toMatchObject({ state: 'pending' });
    const made = await call(server, 'createLink', { team: acme.teamId, destination: 'https://go.example.net/launch' }, acme.token);
    expect([made.status, made.body.code, made.body.field]).toEqual([400, 'shortener_destination', 'destination']);
    expect(made.body.detail).toBe('The destination is already a link of this service; use the address it leads to instead.');
    expect((await cli('domain', 'remove', '--domain', 'go.example.net')).code).toBe(0);
    const after = await call(server, 'createLink', { team: acme.teamId, destination: 'https://go.example.net/launch' }, acme.token);
    expect(after.status).toBe(200);
  });
});

/** The TLS question on the metrics listener. */
function askOnMetrics(domain: string): Promise<Answer> {
  return send(`/tls/allowed?domain=${domain}`, '127.0.0.1', { port: Number(new URL(metrics).port) });
}
