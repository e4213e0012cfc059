import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { testDatabase } from '../helpers/database-env.js';
import { rpc2026 } from '../helpers/mcp-2026.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { freePort } from '../helpers/server.js';

/**
 * METRICS_PORT on the real server process (dist/): Prometheus text on a listener of its own, after traffic whose
 * every count is known, so each series is asserted with its labels and its value. Then WORKERS=2, where the
 * primary serves the metrics of both workers added up.
 */
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36' };

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-metrics-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One request on a connection of its own (so the cluster hands each to the next worker). */
function send(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The series of a Prometheus text, each line's name and labels (in the order written) to its value. */
function seriesOf(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

/** `name{a="1",b="2"}`, as prom-client writes a series. */
const key = (name: string, labels: Record<string, string | number> = {}) => {
  const written = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  return written.length === 0 ? name : `${name}{${written.join(',')}}`;
};

async function scrape(port: number): Promise<{ type: string | undefined; series: Map<string, number> }> {
  const answer = await send(port, 'GET', '/metrics');
  expect(answer.status, answer.body).toBe(200);
  return { type: answer.headers['content-type'] as string | undefined, series: seriesOf(answer.body) };
}

/** A person with a team and a personal token, made with the operator CLI on the server's database. */
async function actor(dbPath: string, email: string): Promise<{ team: string; token: string }> {
  const cli = async (...args: string[]) => {
    const run = await runCli(dbPath, ...args, '--json');
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout);
  };
  await cli('person', 'add', '--email', email, '--agree-terms');
  const team = (await cli('team', 'add', '--name', 'Metrics', '--owner', email)).id as string;
  return { team, token: (await cli('token', 'create', '--email', email, '--team', team)).token as string };
}

describe('METRICS_PORT, one process', () => {
  let server: ServerProcess;
  let metricsPort: number;
  let dbPath: string;
  let refusedCalls = 0;
  let series: Map<string, number>;
  let type: string | undefined;

  beforeAll(async () => {
    dbPath = join(dir, 'one.db');
    metricsPort = await freePort();
    const database = await testDatabase(dbPath);
    server = await startServerProcess({ dbPath, env: { ...database, METRICS_PORT: String(metricsPort) } });
    const { team, token } = await actor(dbPath, 'metrics@example.com');
    expect((await runCli(dbPath, 'limits', 'set', '--team-links', '2', '--changes-per-hour', '1')).code).toBe(0);
    const api = (operation: string, input: unknown) =>
      send(server.port, 'POST', `/v1/${operation}`, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, JSON.stringify(input));
    const created = await api('createLink', { team, destination: 'https://example.com/a' });
    expect(created.status).toBe(200);
    const code = JSON.parse(created.body).code as string;
    expect((await api('createLink', { team, destination: 'https://example.com/b' })).status).toBe(200);
    expect((await api('createLink', { team, destination: 'https://example.com/c' })).status).toBe(409);
    expect((await api('createLink', { team, destination: 'https://10.0.0.1/' })).status).toBe(400);
    expect((await api('setDestination', { code, destination: 'https://example.com/a2' })).status).toBe(200);
    expect((await api('setDestination', { code, destination: 'https://example.com/a3' })).status).toBe(429);
    expect((await api('getLink', { code: 'Nope123' })).status).toBe(404);
    for (const headers of [BROWSER, BROWSER, {}]) expect((await send(server.port, 'GET', `/${code}`, headers)).status).toBe(302);
    expect((await send(server.port, 'HEAD', `/${code}`, BROWSER)).status).toBe(302);
    expect((await send(server.port, 'GET', '/Nope123', BROWSER)).status).toBe(404);
    const call = await rpc2026(`http://127.0.0.1:${server.port}`).call(token, 'linkByCode', { code });
    expect(call.status).toBe(200);
    const refused = await rpc2026(`http://127.0.0.1:${server.port}`).call(token, 'linkByCode', { code: 'Nope123' });
    expect(refused.status).toBe(200);
    expect((await send(server.port, 'GET', '/health')).status).toBe(200);
    // Last, as it spends the person's budget: calls until the calls-per-minute limit refuses.
    expect((await runCli(dbPath, 'limits', 'set', '--calls-per-minute', '12')).code).toBe(0);
    for (let i = 0; i < 30 && refusedCalls < 2; i++) if ((await api('listTeams', {})).status === 429) refusedCalls += 1;
    ({ type, series } = await scrape(metricsPort));
  });
  afterAll(() => server?.stop());

  const value = (name: string, labels: Record<string, string | number> = {}) => series.get(key(name, labels));

  it('answers Prometheus text at /metrics on its own port, and nothing else there', async () => {
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect((await send(metricsPort, 'GET', '/')).status).toBe(404);
    expect((await send(metricsPort, 'POST', '/metrics')).status).toBe(404);
    expect(server.log()[0]).toMatchObject({ metrics: `127.0.0.1:${metricsPort}` });
  });

  it('is not on the public port: /metrics there is a short address nobody made', async () => {
    const there = await send(server.port, 'GET', '/metrics');
    expect(there.status).toBe(404);
    expect(there.headers['content-type']).toMatch(/^text\/html/);
    expect(there.body).not.toContain('shortlinks_requests_total');
  });

  it('counts requests by surface, operation and status', () => {
    const requests = (surface: string, operation: string, status: number) => value('shortlinks_requests_total', { surface, operation, status });
    expect(requests('api', 'createLink', 200)).toBe(2);
    expect(requests('api', 'createLink', 409)).toBe(1);
    expect(requests('api', 'createLink', 400)).toBe(1);
    expect(requests('api', 'setDestination', 200)).toBe(1);
    expect(requests('api', 'setDestination', 429)).toBe(1);
    expect(requests('api', 'getLink', 404)).toBe(1);
    expect(requests('api', 'listTeams', 429)).toBe(refusedCalls);
    expect(requests('redirect', 'visit', 302)).toBe(4);
    expect(requests('redirect', 'visit', 404)).toBe(1);
    expect(requests('mcp', 'linkByCode', 200)).toBe(1);
    expect(requests('web', '/health', 200)).toBe(1);
  });

  it("counts a refused MCP tool call (an isError result in an HTTP 200) by its problem's status, not 200", () => {
    expect(value('shortlinks_requests_total', { surface: 'mcp', operation: 'linkByCode', status: 404 })).toBe(1);
  });

  it('counts refusals by surface, operation and error code, those of MCP tool calls too', () => {
    const errors = (surface: string, operation: string, code: string) => value('shortlinks_request_errors_total', { surface, operation, code });
    expect(errors('api', 'createLink', 'team_full')).toBe(1);
    expect(errors('api', 'createLink', 'private_destination')).toBe(1);
    expect(errors('api', 'setDestination', 'limit_reached')).toBe(1);
    expect(errors('api', 'getLink', 'not_found')).toBe(1);
    expect(errors('api', 'listTeams', 'rate_limited')).toBe(refusedCalls);
    expect(errors('mcp', 'linkByCode', 'not_found')).toBe(1);
    expect(errors('api', 'createLink', 'limit_reached')).toBeUndefined();
  });

  it('times requests in a histogram by surface and operation', () => {
    const labels = { surface: 'redirect', operation: 'visit' };
    expect(value('shortlinks_request_duration_seconds_count', labels)).toBe(5);
    expect(value('shortlinks_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(5);
    expect(value('shortlinks_request_duration_seconds_bucket', { ...labels, le: 10 })).toBe(5);
    expect(value('shortlinks_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    expect(value('shortlinks_request_duration_seconds_count', { surface: 'api', operation: 'createLink' })).toBe(4);
  });

  it('counts clicks: the two GETs from a browser, not the one without a User-Agent nor the HEAD', () => {
    expect(value('shortlinks_clicks_counted_total')).toBe(2);
  });

  it('counts refusals by the limit that refused', () => {
    expect(value('shortlinks_limit_refusals_total', { kind: 'team_full' })).toBe(1);
    expect(value('shortlinks_limit_refusals_total', { kind: 'link_changes' })).toBe(1);
    expect(refusedCalls).toBe(2);
    expect(value('shortlinks_limit_refusals_total', { kind: 'calls_per_minute' })).toBe(2);
  });

  it('counts destination checks by outcome', () => {
    // Three creations and two changes passed the checks (the limits refused two of them afterwards).
    expect(value('shortlinks_destination_checks_total', { outcome: 'passed' })).toBe(5);
    expect(value('shortlinks_destination_checks_total', { outcome: 'private_destination' })).toBe(1);
  });

  it('times the store calls, by call', () => {
    expect(value('shortlinks_database_duration_seconds_count', { call: 'links.create' })).toBe(3);
    expect(value('shortlinks_database_duration_seconds_bucket', { call: 'links.create', le: '+Inf' })).toBe(3);
    expect(value('shortlinks_database_duration_seconds_sum', { call: 'links.create' })).toBeGreaterThan(0);
  });

  it('counts cache hits and misses: the redirect cache missed the first visit, the unknown code and its name', () => {
    // `/Nope123` has a code's shape: no link has the code, so it is looked up as the name `nope123` too.
    expect(value('shortlinks_cache_lookups_total', { cache: 'links', result: 'miss' })).toBe(3);
    expect(value('shortlinks_cache_lookups_total', { cache: 'links', result: 'hit' })).toBe(3);
    expect(value('shortlinks_cache_lookups_total', { cache: 'store-reads', result: 'hit' })).toBeGreaterThan(0);
  });

  it('leaves out the series of its own that never moved: no counter at 0, no histogram without an observation', () => {
    const still = [...series].filter(([name, value]) => name.startsWith('shortlinks_') && /_(total|count)(\{|$)/.test(name) && value === 0);
    expect(still.map(([name]) => name)).toEqual([]);
    // A store call timed once and one never called: only the first is there.
    expect(value('shortlinks_database_duration_seconds_count', { call: 'links.create' })).toBe(3);
    expect([...series.keys()].filter((name) => name.includes('call="teams.removeMember"'))).toEqual([]);
  });

  it("has the process's own metrics", () => {
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) {
      expect(value(name), name).toBeGreaterThan(0);
    }
    expect(value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});

describe('METRICS_PORT with WORKERS=2', () => {
  let server: ServerProcess;
  let metricsPort: number;

  beforeAll(async () => {
    const dbPath = join(dir, 'workers.db');
    metricsPort = await freePort();
    server = await startServerProcess({ dbPath, env: { WORKERS: '2', METRICS_PORT: String(metricsPort) } });
  });
  afterAll(() => server?.stop());

  it('the primary serves the sum of both workers', async () => {
    expect(server.log()[0]).toMatchObject({ workers: 2, metrics: `127.0.0.1:${metricsPort}`, pid: server.child.pid });
    const { team, token } = await actor(join(dir, 'workers.db'), 'workers-metrics@example.com');
    const made = await send(server.port, 'POST', '/v1/createLink', { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, JSON.stringify({ team, destination: 'https://example.com/w' }));
    expect(made.status).toBe(200);
    const visits = await Promise.all(Array.from({ length: 20 }, () => send(server.port, 'GET', `/${JSON.parse(made.body).code}`, BROWSER)));
    expect(visits.map((visit) => visit.status)).toEqual(Array(20).fill(302));
    expect(new Set(visits.map((visit) => visit.headers['x-served-by'])).size).toBe(2);
    const { series } = await scrape(metricsPort);
    expect(series.get(key('shortlinks_requests_total', { surface: 'redirect', operation: 'visit', status: 302 }))).toBe(20);
    expect(series.get(key('shortlinks_request_duration_seconds_count', { surface: 'redirect', operation: 'visit' }))).toBe(20);
    expect(series.get(key('shortlinks_requests_total', { surface: 'api', operation: 'createLink', status: 200 }))).toBe(1);
    expect(series.get(key('shortlinks_clicks_counted_total'))).toBe(20);
    expect(series.get(key('process_cpu_user_seconds_total'))).toBeGreaterThan(0);
  });

  it("labels each worker's event loop delay by its slot, which a replacement keeps, rather than averaging them", async () => {
    const p99Series = (scraped: Map<string, number>) => [...scraped.keys()].filter((name) => name.startsWith('nodejs_eventloop_lag_p99_seconds')).sort();
    const lag = ['nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_min_seconds', 'nodejs_eventloop_lag_max_seconds', 'nodejs_eventloop_lag_p99_seconds'];
    const { series } = await scrape(metricsPort);
    for (const name of lag) {
      expect(series.has(name), name).toBe(false);
      for (const worker of ['1', '2']) expect(series.get(key(name, { worker })), `${name} ${worker}`).toBeGreaterThanOrEqual(0);
    }
    // A worker killed is started again in its slot: still worker="1" and worker="2", no third series.
    const victim = (await send(server.port, 'GET', '/health')).headers['x-served-by'];
    process.kill(Number(victim), 'SIGKILL');
    const deadline = Date.now() + 10_000;
    while (!server.output().includes('serves in place of the one that ended') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(p99Series((await scrape(metricsPort)).series)).toEqual([
      key('nodejs_eventloop_lag_p99_seconds', { worker: 1 }),
      key('nodejs_eventloop_lag_p99_seconds', { worker: 2 }),
    ]);
  });
});
