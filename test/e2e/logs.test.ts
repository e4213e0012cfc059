import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliWith } from '../helpers/cli.js';
import { databaseEnv, testDatabase } from '../helpers/database-env.js';
import { rpc2026 } from '../helpers/mcp-2026.js';
import { authorizeUrl, consent, pkce, register, tokenRequest } from '../helpers/oauth.js';
import { startSafeBrowsingStandIn, type SafeBrowsingStandIn } from '../helpers/safe-browsing.js';
import { startServerProcess, type LogLine, type ServerProcess } from '../helpers/server-process.js';
import type { TestServer } from '../helpers/server.js';
import { WEB_PASSWORD, WebVisitor } from '../helpers/web-forms.js';

/**
 * The log of a real server process (dist/) through a run that uses every surface with every kind of secret: a
 * personal token on the API and on /mcp, an MCP session, a web sign-up and sign-in with a password, cookies and
 * CSRF fields, a set-password link, an OAuth sign-in (client secret, PKCE verifier, state, code, access and refresh
 * tokens), the Safe Browsing key, and short links followed. Every secret the run used is kept, and the log must hold
 * none of them; it must still tell each request apart, by request id, with who made it.
 */
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36' };
const CALLBACK = 'http://127.0.0.1:33418/callback';

let dir: string;
let dbPath: string;
let server: ServerProcess;
let url: string;
let safeBrowsing: SafeBrowsingStandIn;
let log: LogLine[];
/** Every secret the run used, by what it is. */
const secrets = new Map<string, string>();
/** The request id of each answer (redirects aside), by what the request was. */
const answered = new Map<string, string | null>();
const run = { person: '', client: '', linkId: '', codes: [] as string[] };

function keep(what: string, value: string | null | undefined): string {
  expect(value, what).toBeTruthy();
  secrets.set(what, value!);
  return value!;
}

async function api(token: string, operation: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/v1/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  answered.set(`api ${operation}`, res.headers.get('x-request-id'));
  return { status: res.status, body: await res.json() };
}

/** What the run does through the web app: sign up, agree, a team, a personal token; sign out, sign in again. */
async function throughTheWeb(): Promise<{ visitor: WebVisitor; email: string; token: string }> {
  const visitor = new WebVisitor(url);
  const email = 'logged@example.com';
  keep('web password', WEB_PASSWORD);
  const token = keep('personal token made on the Developers page', await visitor.newAccountWithToken(email));
  expect((await visitor.submit('/app', '/signout', {})).status).toBe(303);
  const signedIn = await visitor.submit('/signin', '/signin', { email, password: WEB_PASSWORD });
  expect(signedIn.status).toBe(303);
  answered.set('web POST /signin', signedIn.headers.get('x-request-id'));
  return { visitor, email, token };
}

/** A person the operator adds, who sets their password through the link the CLI printed. */
async function throughASetPasswordLink(): Promise<void> {
  const added = await runCliWith({ env: { ...databaseEnv(dbPath), PUBLIC_URL: url } }, 'person', 'add', '--email', 'invited@example.com', '--json');
  expect(added.code, added.stderr).toBe(0);
  const link = keep('set-password link', JSON.parse(added.stdout).setPasswordUrl as string);
  keep('set-password code', link.slice(link.lastIndexOf('/') + 1));
  const visitor = new WebVisitor(url);
  const path = link.slice(url.length);
  const set = await visitor.submit(path, path, { password: keep('password set through the link', 'a newly chosen passphrase') });
  expect(set.status).toBe(303);
  for (const value of visitor.secretsSeen) keep(`invited person's cookie or CSRF field ${value.slice(0, 4)}`, value);
}

/** An assistant's OAuth sign-in as a confidential client, its MCP call, a refresh and a revocation. */
async function throughOAuth(cookie: string): Promise<void> {
  const at = { url } as TestServer;
  const registered = await register(at, { client_name: 'Logged assistant', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_post' });
  expect(registered.status).toBe(201);
  run.client = registered.body.client_id;
  const secret = keep('client secret', registered.body.client_secret);
  const { verifier, challenge } = pkce();
  keep('PKCE verifier', verifier);
  const state = keep('state', 'state-kept-out-of-logs-1234');
  const back = await consent(at, cookie, authorizeUrl(at, {
    response_type: 'code', client_id: run.client, redirect_uri: CALLBACK, code_challenge: challenge, code_challenge_method: 'S256', state,
  }));
  const code = keep('authorization code', back.code);
  const credentials = { client_id: run.client, client_secret: secret };
  const tokens = await tokenRequest(at, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, ...credentials });
  expect(tokens.status).toBe(200);
  const access = keep('access token', tokens.body.access_token);
  keep('refresh token', tokens.body.refresh_token);
  const listed = await rpc2026(url).send(access, 'tools/list', {});
  expect(listed.status).toBe(200);
  answered.set('mcp tools/list with an access token', listed.headers.get('x-request-id'));
  const refreshed = await tokenRequest(at, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, ...credentials });
  expect(refreshed.status).toBe(200);
  answered.set('oauth POST /token', refreshed.headers.get('x-request-id'));
  keep('refreshed access token', refreshed.body.access_token);
  const refresh = keep('second refresh token', refreshed.body.refresh_token);
  const revoked = await fetch(`${url}/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: refresh, ...credentials }),
  });
  expect(revoked.status).toBe(200);
}

/** A script's calls with the personal token, and an assistant's over both MCP revisions. */
async function throughTheApiAndMcp(token: string): Promise<void> {
  const teams = await api(token, 'listTeams', {});
  const team = teams.body.data[0].id as string;
  const made = await api(token, 'createLink', { team, destination: 'https://example.com/logged', name: 'logged-link' }, { 'idempotency-key': keep('idempotency key', 'idem-key-0123456789') });
  expect(made.status).toBe(200);
  run.linkId = made.body.id;
  run.codes.push(keep('short-link code', made.body.code), keep('short-link name', 'logged-link'));
  expect((await api(token, 'getLink', { code: made.body.code })).status).toBe(200);
  expect((await api(token, 'listLinks', { team, q: 'logged' })).status).toBe(200);
  const called = await rpc2026(url).call(token, 'linkByCode', { code: made.body.code });
  expect(called.status).toBe(200);
  answered.set('mcp linkByCode', called.headers.get('x-request-id'));
  const refused = await rpc2026(url).call(token, 'linkByCode', { code: 'Nope123' });
  expect(refused.status).toBe(200);
  answered.set('mcp linkByCode refused', refused.headers.get('x-request-id'));
  const missing = await fetch(`${url}/v1/getLink`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ code: 'Nope123' }),
  });
  expect(missing.status).toBe(404);
  answered.set('api getLink refused', missing.headers.get('x-request-id'));
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'logs-test', version: '1' });
  await client.connect(transport);
  keep('MCP session id', transport.sessionId);
  const listed = await client.callTool({ name: 'teamLinks', arguments: { team } });
  expect(listed.isError).toBeFalsy();
  // A refusal in a 2025-11-25 session, answered through the SDK rather than the fast path.
  const sessionRefused = await client.callTool({ name: 'teamLinks', arguments: { team: 'team_nobody' } });
  expect(sessionRefused.isError).toBe(true);
  await transport.terminateSession();
  await client.close();
}

/** A caller's mistakes on /mcp: a body that is not marked JSON, and one nested thousands deep. */
async function throughMistakes(token: string): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'ping' };
  const plain = await fetch(`${url}/mcp`, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  expect(plain.status).toBe(415);
  answered.set('mcp with a text/plain body', plain.headers.get('x-request-id'));
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const nested = await fetch(`${url}/mcp`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: `{"jsonrpc":"2.0","id":${deep},"method":"ping"}` });
  expect(nested.status).toBe(400);
  answered.set('mcp with a body nested 5,000 deep', nested.headers.get('x-request-id'));
  const meta = { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' } };
  const unknown = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'mcp-protocol-version': 'v999.0.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: meta } }),
  });
  expect(unknown.status).toBe(400);
  answered.set('mcp of a protocol version nobody made', unknown.headers.get('x-request-id'));
}

/** Visitors following the short link (a click, a HEAD, its QR code) and a code nobody made. */
async function throughRedirects(): Promise<void> {
  const [code, name] = run.codes as [string, string];
  for (const path of [`/${code}`, `/${name}`]) expect((await fetch(`${url}${path}`, { headers: BROWSER, redirect: 'manual' })).status).toBe(302);
  expect((await fetch(`${url}/${code}`, { method: 'HEAD', redirect: 'manual' })).status).toBe(302);
  expect((await fetch(`${url}/${code}/qr`)).status).toBe(200);
  const unknown = keep('a code nobody made', 'Zz9Yy8X');
  expect((await fetch(`${url}/${unknown}`, { headers: BROWSER })).status).toBe(404);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-logs-'));
  dbPath = join(dir, 'logs.db');
  safeBrowsing = await startSafeBrowsingStandIn(keep('Safe Browsing key', 'sb-key-kept-out-of-logs-0123'));
  const env = { ...(await testDatabase(dbPath)), LOG_LEVEL: 'debug', TRUST_PROXY: '127.0.0.1', SAFE_BROWSING_API_KEY: safeBrowsing.key, SAFE_BROWSING_URL: safeBrowsing.url };
  server = await startServerProcess({ dbPath, env });
  url = `http://127.0.0.1:${server.port}`;
  const { visitor, email, token } = await throughTheWeb();
  keep('email', email);
  await throughTheApiAndMcp(token);
  await throughMistakes(token);
  await throughOAuth(visitor.cookieHeader());
  for (const value of visitor.secretsSeen) keep(`cookie or CSRF field ${value.slice(0, 4)}`, value);
  await throughASetPasswordLink();
  await throughRedirects();
  // The redirect summary of the last minute is written as the server closes.
  await server.stop();
  log = server.log();
}, 60_000);

afterAll(async () => {
  if (server?.exitCode() === null) await server.stop();
  await safeBrowsing?.close();
  rmSync(dir, { recursive: true, force: true });
});

const requests = () => log.filter((line) => line.msg === 'request');

describe('the log of a run that uses every surface', () => {
  it('holds no error: what callers got wrong is told by their request lines, at 4xx', () => {
    expect(log.filter((line) => line.level === 'error')).toEqual([]);
    const statusOf = (what: string) => requests().find((line) => line.requestId === answered.get(what))?.status;
    const mistakes = ['mcp with a text/plain body', 'mcp with a body nested 5,000 deep', 'mcp of a protocol version nobody made'];
    expect(mistakes.map(statusOf)).toEqual([415, 400, 400]);
  });

  it('holds none of the secrets the run used, nor the email addresses, nor any short address', () => {
    const text = JSON.stringify(log);
    expect(secrets.size).toBeGreaterThan(20);
    for (const [what, value] of secrets) expect(text.includes(value), `${what} is in the log`).toBe(false);
  });

  it('is one JSON object a line, each with its level, time, process and message', () => {
    expect(log.length).toBeGreaterThan(30);
    for (const line of log) {
      expect(line).toMatchObject({ level: expect.stringMatching(/^(debug|info|warn|error)$/), pid: server.child.pid, msg: expect.any(String) });
      expect(Number.isNaN(Date.parse(line.time))).toBe(false);
    }
  });

  it('starts with where it serves, its database and which destination checks are on, no key among them', () => {
    expect(log[0]).toMatchObject({
      level: 'info',
      msg: `shortlinks serves ${url} (listening on 127.0.0.1:${server.port})`,
      address: `127.0.0.1:${server.port}`,
      workers: 1,
      checks: { privateAddresses: true, unsafeListFile: false, safeBrowsing: true },
      trustedProxies: 1,
      metrics: 'off',
      logLevel: 'debug',
    });
    expect((log[0]!.database as { kind: string }).kind).toBe(process.env.SHORTLINKS_TEST_STORE === 'postgres' ? 'postgresql' : 'sqlite');
  });

  it('writes one line for each API, MCP, web and OAuth request, found by the id its answer carried', () => {
    expect(answered.size).toBeGreaterThan(5);
    for (const [what, id] of answered) {
      expect(id, what).toMatch(/^[0-9a-f-]{36}$/);
      expect(log.filter((line) => line.requestId === id), what).toHaveLength(1);
    }
    const line = (what: string) => log.find((one) => one.requestId === answered.get(what));
    const fields = { requestId: expect.any(String), durationMs: expect.any(Number), level: 'info' };
    expect(line('api createLink')).toMatchObject({ ...fields, surface: 'api', method: 'POST', route: '/v1/createLink', operation: 'createLink', status: 200, person: expect.stringMatching(/^person_/), client: null });
    run.person = line('api createLink')!.person as string;
    expect(line('api listTeams')).toMatchObject({ surface: 'api', operation: 'listTeams', status: 200, person: run.person });
    expect(line('mcp linkByCode')).toMatchObject({ ...fields, surface: 'mcp', method: 'POST', route: '/mcp', operation: 'linkByCode', status: 200, person: run.person, client: null });
    expect(line('mcp tools/list with an access token')).toMatchObject({ surface: 'mcp', operation: 'tools/list', status: 200, person: run.person, client: run.client });
    expect(line('mcp linkByCode')).not.toHaveProperty('code');
    // A refused tool call travels as an isError result in an HTTP 200; its line tells the refusal, as the API's does.
    expect(line('mcp linkByCode refused')).toMatchObject({ ...fields, surface: 'mcp', operation: 'linkByCode', status: 404, code: 'not_found' });
    expect(line('api getLink refused')).toMatchObject({ ...fields, surface: 'api', operation: 'getLink', status: 404, code: 'not_found' });
    const sessionRefused = requests().filter((one) => one.surface === 'mcp' && one.operation === 'teamLinks' && one.status === 404);
    expect(sessionRefused).toEqual([expect.objectContaining({ code: 'not_found', person: run.person })]);
    expect(line('web POST /signin')).toMatchObject({ ...fields, surface: 'web', method: 'POST', route: '/signin', operation: '/signin', status: 303, person: run.person });
    expect(line('oauth POST /token')).toMatchObject({ ...fields, surface: 'oauth', method: 'POST', route: '/token', status: 200, client: run.client });
  });

  it('names every request by its route pattern, never its path or query', () => {
    const routes = new Set(requests().map((line) => line.route));
    for (const route of ['/signup', '/welcome', '/teams', '/developers/tokens', '/signout', '/set-password/:token', '/authorize', '/register', '/revoke', '/mcp']) {
      expect(routes, route).toContain(route);
    }
    for (const line of requests()) expect(String(line.route ?? '')).not.toMatch(/\?|=/);
    const mcpOperations = new Set(requests().filter((line) => line.surface === 'mcp').map((line) => line.operation));
    expect([...mcpOperations].sort()).toEqual(expect.arrayContaining(['initialize', 'notifications/initialized', 'teamLinks', 'tools/list', 'linkByCode', 'DELETE']));
  });

  it('sums redirects up by status, and at debug level gives each its line, naming the link by its id only', () => {
    const summaries = log.filter((line) => line.msg === 'redirects');
    expect(summaries).toHaveLength(1);
    // Two clicks (the code and the name, from a browser); the HEAD is answered but not counted.
    expect(summaries[0]).toMatchObject({ level: 'info', surface: 'redirect', visits: { 302: 3, 404: 1 }, qr: { 200: 1 }, clicks: 2 });
    const each = log.filter((line) => line.msg === 'redirect');
    expect(each.map((line) => [line.route, line.status, line.link])).toEqual([
      ['/:code', 302, run.linkId],
      ['/:code', 302, run.linkId],
      ['/:code', 302, run.linkId],
      ['/:code/qr', 200, run.linkId],
      ['/:code', 404, null],
    ]);
    for (const line of each) expect(line).toMatchObject({ level: 'debug', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), durationMs: expect.any(Number) });
  });
});

describe('X-Request-Id', () => {
  let plain: ServerProcess;
  let proxied: ServerProcess;
  beforeAll(async () => {
    const file = join(dir, 'request-id.db');
    [plain, proxied] = await Promise.all([
      startServerProcess({ dbPath: join(dir, 'plain.db') }),
      startServerProcess({ dbPath: file, env: { TRUST_PROXY: '127.0.0.1' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain?.stop(), proxied?.stop()]);
  });

  const idOf = async (server: ServerProcess, path: string, sent?: string) =>
    (await fetch(`http://127.0.0.1:${server.port}${path}`, { redirect: 'manual', headers: sent === undefined ? {} : { 'x-request-id': sent } })).headers.get('x-request-id');

  it('is made for every answer, redirects and not-found pages included, and differs each time', async () => {
    const ids = [await idOf(plain, '/health'), await idOf(plain, '/Nothing1'), await idOf(plain, '/v1/nothing'), await idOf(plain, '/mcp')];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(4);
  });

  it("is taken from a trusted proxy when it looks like an id, never from anyone else", async () => {
    expect(await idOf(proxied, '/health', 'edge-7f3a.1:2')).toBe('edge-7f3a.1:2');
    expect(await idOf(proxied, '/Nothing1', 'edge-7f3a.1:3')).toBe('edge-7f3a.1:3');
    for (const odd of ['has space', 'x'.repeat(129), 'quote"d', '']) expect(await idOf(proxied, '/health', odd)).not.toBe(odd);
    expect(await idOf(plain, '/health', 'edge-7f3a.1:2')).not.toBe('edge-7f3a.1:2');
    await expect.poll(() => proxied.log().filter((line) => line.requestId === 'edge-7f3a.1:2')).toHaveLength(1);
  });

  it('at the default level, writes no line per redirect', async () => {
    await idOf(plain, '/Nothing2');
    await idOf(plain, '/health');
    await expect.poll(() => plain.log().filter((line) => line.msg === 'request').length).toBeGreaterThanOrEqual(3);
    expect(plain.log().filter((line) => line.msg === 'redirect')).toEqual([]);
  });
});
