/**
 * clickBreakdown over the real surfaces (issue 23): `POST /v1/clickBreakdown` (status, body, rate-limit headers,
 * sign-in and scopes) and the MCP tool through the SDK's client (listed with its schemas, answering the same
 * structuredContent). Most counts are written through the store's ports on the server's own database, as the
 * redirect's counter writes them; the last tests count real visits to a server behind a trusted proxy. The clock
 * reads 2026-11-21T12:00Z.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorSketch } from '../helpers/visitors.js';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { clickBreakdown } from '../../src/tools/click-breakdown.js';
import { mcpToolList } from '../../src/mcp/tool-list.js';
import { call, expectProblem, startServer, type Actor, type TestServer } from '../helpers/server.js';
import { ASSISTANTS, BOTS, BROWSERS, PREVIEWS } from '../analytics/user-agents.js';

let server: TestServer;
let alice: Actor;
let spring: { id: string; code: string };
let plain: { id: string; code: string };

beforeAll(async () => {
  server = await startServer();
  alice = await server.person();
  spring = await link({ name: `spring-${process.pid}` });
  plain = await link();
  const store = server.app.ctx.store;
  await store.clicks.add(
    new Map([
      [spring.id, new Map([['2026-11-21', 6], ['2026-11-20', 4]])],
      [plain.id, new Map([['2026-11-19', 2]])],
    ]),
  );
  // Every counted click is one count of every facet: here its country and its source.
  const facets = [
    { linkId: spring.id, day: '2026-11-21', facet: 'country' as const, value: 'FR', count: 4 },
    { linkId: spring.id, day: '2026-11-20', facet: 'country' as const, value: 'JP', count: 4 },
    { linkId: spring.id, day: '2026-11-21', facet: 'country' as const, value: 'unknown', count: 2 },
    { linkId: plain.id, day: '2026-11-19', facet: 'country' as const, value: 'FR', count: 2 },
    { linkId: spring.id, day: '2026-11-21', facet: 'source' as const, value: 'qr', count: 2 },
    { linkId: spring.id, day: '2026-11-21', facet: 'source' as const, value: 'link', count: 4 },
    { linkId: spring.id, day: '2026-11-20', facet: 'source' as const, value: 'link', count: 4 },
    { linkId: plain.id, day: '2026-11-19', facet: 'source' as const, value: 'link', count: 2 },
  ];
  const uncounted = [
    { linkId: spring.id, day: '2026-11-21', class: 'preview' as const, count: 3 },
    { linkId: plain.id, day: '2026-11-19', class: 'bot' as const, count: 1 },
  ];
  const visitors = [
    { linkId: spring.id, day: '2026-11-21', sketch: visitorSketch(1, 2) },
    { linkId: spring.id, day: '2026-11-20', sketch: visitorSketch(3) },
  ];
  await store.analytics.add({ facets, uncounted, visitors });
});
afterAll(() => server.stop());

async function link(fields: Record<string, unknown> = {}): Promise<{ id: string; code: string }> {
  const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/page', ...fields }, alice.token);
  expect(made.status).toBe(200);
  return made.body;
}

async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'click-breakdown', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

const TEAM_BY_COUNTRY = {
  by: 'country',
  days: 30,
  from: '2026-10-23',
  to: '2026-11-21',
  rows: [
    { value: 'FR', label: 'France', clicks: 6, share: 0.5 },
    { value: 'JP', label: 'Japan', clicks: 4, share: 0.3333 },
    { value: 'unknown', label: 'Unknown', clicks: 2, share: 0.1667 },
  ],
  total: { clicks: 12, visitors: 3 },
  notCounted: { bot: 1, preview: 3, assistant: 0, checker: 0 },
};

describe('POST /v1/clickBreakdown', () => {
  it("answers a team's clicks by country, with the rate-limit headers", async () => {
    const reply = await call(server, 'clickBreakdown', { team: alice.teamId, by: 'country' }, alice.token);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toEqual(TEAM_BY_COUNTRY);
    expect(reply.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60');
    expect(reply.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
  });

  it("answers a team's links, each by code and short address, and a link's visitors per day", async () => {
    const links = await call(server, 'clickBreakdown', { team: alice.teamId, by: 'link', days: 7 }, alice.token);
    expect(links.status).toBe(200);
    expect(links.body.rows).toEqual([
      { value: spring.code, label: `${server.url}/spring-${process.pid}`, clicks: 10, share: 0.8333, visitors: 3 },
      { value: plain.code, label: `${server.url}/${plain.code}`, clicks: 2, share: 0.1667, visitors: 0 },
    ]);
    const days = await call(server, 'clickBreakdown', { code: spring.code, by: 'visitor', days: 2 }, alice.token);
    expect(days.body).toEqual({
      by: 'visitor',
      days: 2,
      from: '2026-11-20',
      to: '2026-11-21',
      rows: [
        { value: '2026-11-20', label: '2026-11-20', clicks: 4, share: 0.4, visitors: 1 },
        { value: '2026-11-21', label: '2026-11-21', clicks: 6, share: 0.6, visitors: 2 },
      ],
      total: { clicks: 10, visitors: 3 },
      notCounted: { bot: 0, preview: 3, assistant: 0, checker: 0 },
    });
  });

  it('refuses what the rules refuse, with problem bodies and the rate-limit headers', async () => {
    const bob = await server.person();
    const cases: Array<[Record<string, unknown>, string, number, string, string | null]> = [
      [{ code: spring.code, team: alice.teamId, by: 'os' }, alice.token, 400, 'bad_request', null],
      [{ code: spring.code, by: 'link' }, alice.token, 400, 'bad_request', 'by'],
      [{ code: spring.code, by: 'os', days: 0 }, alice.token, 400, 'bad_request', 'days'],
      [{ code: spring.code, by: 'os', days: 91 }, alice.token, 400, 'bad_request', 'days'],
      [{ code: spring.code, by: 'os' }, bob.token, 404, 'not_found', 'code'],
      [{ team: alice.teamId, by: 'link' }, bob.token, 404, 'not_found', 'team'],
    ];
    for (const [body, token, status, code, field] of cases) {
      const reply = await call(server, 'clickBreakdown', body, token);
      expectProblem(server, reply, status, code, field);
      expect(reply.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
    }
  });

  it('without a token 401; a token without its scope 403 insufficient_scope; a read-only one answers', async () => {
    const body = { code: spring.code, by: 'source' };
    const signedOut = await call(server, 'clickBreakdown', body);
    expectProblem(server, signedOut, 401, 'invalid_token');
    const scoped = await server.token(alice.personId, alice.teamId, { scopes: ['linkClicks'] });
    expectProblem(server, await call(server, 'clickBreakdown', body, scoped), 403, 'insufficient_scope');
    const allowed = await server.token(alice.personId, alice.teamId, { scopes: ['clickBreakdown'] });
    expect((await call(server, 'clickBreakdown', body, allowed)).status).toBe(200);
  });

  it("a token limited to the person's team: another team of theirs is 404", async () => {
    const other = await server.app.ctx.store.teams.add({ name: 'Other', ownerId: alice.personId }, server.clock.now());
    const limited = await server.token(alice.personId, alice.teamId, { limited: true });
    expectProblem(server, await call(server, 'clickBreakdown', { team: other.id, by: 'link' }, limited), 404, 'not_found', 'team');
    expect((await call(server, 'clickBreakdown', { team: alice.teamId, by: 'country' }, limited)).body).toEqual(TEAM_BY_COUNTRY);
  });
});

describe('the MCP tool clickBreakdown', () => {
  it('is listed with its input and output schemas, read-only', async () => {
    const client = await mcpClient(alice.token);
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'clickBreakdown');
    const expected = mcpToolList({ publicUrl: server.url, limits: DEFAULT_LIMITS }).find((tool) => tool.name === clickBreakdown.name);
    expect(listed).toEqual(expected);
    expect(listed?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    await client.close();
  });

  it('answers the same structuredContent as the HTTP API', async () => {
    const client = await mcpClient(alice.token);
    for (const args of [{ team: alice.teamId, by: 'country' }, { team: alice.teamId, by: 'link' }, { code: spring.code, by: 'visitor', days: 3 }]) {
      const result = await client.callTool({ name: 'clickBreakdown', arguments: args });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(result.structuredContent).toEqual((await call(server, 'clickBreakdown', args, alice.token)).body);
    }
    expect((await client.callTool({ name: 'clickBreakdown', arguments: { team: alice.teamId, by: 'country' } })).structuredContent).toEqual(
      TEAM_BY_COUNTRY,
    );
    const refused = await client.callTool({ name: 'clickBreakdown', arguments: { code: spring.code, by: 'link' } });
    expect(refused.isError).toBe(true);
    await client.close();
  });
});

describe('clickBreakdown of real visits', () => {
  let proxied: TestServer;
  let carol: Actor;
  const ask = async (params: Record<string, unknown>) => {
    const reply = await call(proxied, 'clickBreakdown', params, carol.token);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body;
  };
  let first: { code: string };
  let second: { code: string };

  beforeAll(async () => {
    // X-Forwarded-For is the client's address only from a trusted proxy.
    proxied = await startServer({ env: { TRUST_PROXY: '127.0.0.1' } });
    carol = await proxied.person();
    const make = async (fields: Record<string, unknown>) =>
      (await call(proxied, 'createLink', { team: carol.teamId, destination: 'https://example.com/landing', ...fields }, carol.token)).body;
    first = await make({ name: `poster-${process.pid}` });
    second = await make({});
    const iphoneInNl = { 'user-agent': BROWSERS.safariIphone, 'x-forwarded-for': '193.0.6.139', referer: 'https://news.ycombinator.com/item?id=1' };
    const visits: Array<[string, Record<string, string>, string?]> = [
      [first.code, iphoneInNl],
      [first.code, iphoneInNl],
      [first.code, { 'user-agent': BROWSERS.chromeWindows, 'x-forwarded-for': '2001:660::1' }],
      [`${first.code}?qr`, { 'user-agent': BROWSERS.chromeAndroid, 'x-forwarded-for': '::ffff:8.8.8.8' }],
      [second.code, { 'user-agent': BROWSERS.firefoxLinux, 'x-forwarded-for': '193.0.6.139', referer: 'https://www.google.com/search?q=x' }],
      [first.code, { 'user-agent': PREVIEWS.slack }],
      [first.code, { 'user-agent': ASSISTANTS.claude }],
      [first.code, { 'user-agent': BOTS.googlebot }],
      [first.code, { 'user-agent': BROWSERS.chromeWindows }, 'HEAD'],
    ];
    for (const [path, headers, method = 'GET'] of visits) {
      expect((await fetch(`${proxied.url}/${path}`, { method, headers, redirect: 'manual' })).status).toBe(302);
    }
    // The counter writes its counts once a second.
    await new Promise((resolve) => setTimeout(resolve, 1300));
  });
  afterAll(() => proxied.stop());

  it("gives the team's countries, referrers, links and days of the visits, and the classes not counted", async () => {
    const notCounted = { bot: 1, preview: 1, assistant: 1, checker: 1 };
    const total = { clicks: 5, visitors: 4 };
    expect(await ask({ team: carol.teamId, by: 'country', days: 1 })).toEqual({
      by: 'country',
      days: 1,
      from: '2026-11-21',
      to: '2026-11-21',
      rows: [
        { value: 'NL', label: 'Netherlands', clicks: 3, share: 0.6 },
        { value: 'FR', label: 'France', clicks: 1, share: 0.2 },
        { value: 'US', label: 'United States', clicks: 1, share: 0.2 },
      ],
      total,
      notCounted,
    });
    expect(await ask({ team: carol.teamId, by: 'referrer' })).toMatchObject({
      rows: [
        { value: 'direct', label: 'Direct', clicks: 2, share: 0.4 },
        { value: 'news.ycombinator.com', label: 'news.ycombinator.com', clicks: 2, share: 0.4 },
        { value: 'www.google.com', label: 'www.google.com', clicks: 1, share: 0.2 },
      ],
      total,
      notCounted,
    });
    expect((await ask({ team: carol.teamId, by: 'link' })).rows).toEqual([
      { value: first.code, label: `${proxied.url}/poster-${process.pid}`, clicks: 4, share: 0.8, visitors: 3 },
      { value: second.code, label: `${proxied.url}/${second.code}`, clicks: 1, share: 0.2, visitors: 1 },
    ]);
    expect((await ask({ team: carol.teamId, by: 'visitor', days: 2 })).rows).toEqual([
      { value: '2026-11-20', label: '2026-11-20', clicks: 0, share: 0, visitors: 0 },
      { value: '2026-11-21', label: '2026-11-21', clicks: 5, share: 1, visitors: 4 },
    ]);
  });

  it("gives a link's sources, devices and browsers", async () => {
    expect(await ask({ code: first.code, by: 'source' })).toMatchObject({
      rows: [
        { value: 'link', label: 'Link', clicks: 3, share: 0.75 },
        { value: 'qr', label: 'QR code', clicks: 1, share: 0.25 },
      ],
      total: { clicks: 4, visitors: 3 },
      notCounted: { bot: 1, preview: 1, assistant: 1, checker: 1 },
    });
    expect((await ask({ code: first.code, by: 'device' })).rows).toEqual([
      { value: 'phone', label: 'phone', clicks: 3, share: 0.75 },
      { value: 'desktop', label: 'desktop', clicks: 1, share: 0.25 },
    ]);
    expect((await ask({ code: first.code, by: 'browser' })).rows).toEqual([
      { value: 'Chrome', label: 'Chrome', clicks: 2, share: 0.5 },
      { value: 'Safari', label: 'Safari', clicks: 2, share: 0.5 },
    ]);
  });
});
