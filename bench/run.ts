import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeClients, cpuMicros, getOnce, int, load, loadGet, ms, once, pct, sequential, type GetLoadResult, type Latencies, type LoadResult } from './measure.js';
import type { ManySeeded } from './seed-many.js';
import { SEARCH_TERMS } from './seed.js';
import type { Ready } from './servers/child.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { benchWorkers } from './workers.js';
import { benchObservability } from './observability.js';
import { benchCopy } from './copy.js';
import { benchAnalytics } from './analytics.js';
import { benchAddresses } from './link-addresses.js';
import { benchImport } from './import.js';
import { pinningText, pinServer } from './pin.js';
import { PAIRED_RATE, PAIRED_SECONDS, pairedRounds, type Paired } from './paired.js';

/**
 * `npm run bench`: each server in its own child process, one at a time, loaded by autocannon from this one.
 * BENCH_ONLY=getLink,createLink,listLinks,redirect,mcp,postgres,workers,observability,copy,analytics,addresses,import picks sections
 * (postgres starts a throwaway cluster, as the tests do; workers: bench/workers.ts; observability: the log and metrics
 * on against off, bench/observability.ts; copy: copy-database to PostgreSQL, bench/copy.ts; analytics: redirects with
 * ANALYTICS on against off, and clickBreakdown on both databases, bench/analytics.ts; addresses: redirects on a team's
 * domain against PUBLIC_URL, and links with options against a plain one, bench/link-addresses.ts; import: a 100,000-row
 * import through the CLI, again, and its export, bench/import.ts). The redirect section's server runs
 * as in production, at the default level (info) with metrics on; the other sections' servers log
 * nothing (LOG_LEVEL=silent unless LOG_LEVEL is set), so their figures compare with earlier runs; BENCH_CPU_PROF=<dir>
 * profiles every server child
 * (one file each, written when it stops; for redirect, ours is profiled during each load only, one file per load;
 * read them with bench/profile-top.ts). Prints figures and targets; asserts nothing.
 * redirect: BENCH_REDIRECT_LINKS (1,000,000), BENCH_REDIRECT_CODES (10,000 sampled codes), BENCH_REDIRECT_WIDE
 * (200,000 codes for a run wider than the 100,000-entry cache; 0 skips it), BENCH_REDIRECT_RUNS (codes,hot,wide),
 * BENCH_REDIRECT_SEARCH_INDEX (bulk, triggers or none: how the search indexes get the seeded rows; seed-many.ts).
 * postgres: BENCH_PEOPLE (100), the people calling getLink at once with a token each, on SQLite and PostgreSQL.
 * Each server under load has a core of its own, autocannon another (bench/pin.ts; BENCH_PIN=0 turns it off); the
 * redirect section ends with paired rounds of ours and bare in turn (bench/paired.ts; BENCH_PAIRED_ROUNDS, 5), unpaced and
 * paced at BENCH_PAIRED_RATE (8,000 req/s; 0 leaves the paced rounds out).
 */
const only = new Set((process.env.BENCH_ONLY ?? 'getLink,createLink,listLinks,redirect,mcp,postgres,workers,observability,copy,analytics,addresses,import').split(','));
const cpuProfDir = process.env.BENCH_CPU_PROF;
const SEARCH_LINKS = Number(process.env.BENCH_SEARCH_LINKS ?? 100_000);
/** The postgres section's callers with a token each (BENCH_PEOPLE). */
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100);

let startedCount = 0;
let section = '';

interface Started {
  ready: Ready & { token?: string; team?: string; code?: string; seedMs?: number; many?: ManySeeded & { codesFile: string }; tokens?: string[] };
  pid: number;
  /** With profileOnRequest: a CPU profile of `fn` alone, written to BENCH_CPU_PROF/<prefix>-<label>.cpuprofile. */
  profiled<T>(label: string, fn: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

type ServerName = 'ours' | 'bare-node' | 'bare-express' | 'bare-redirect';

async function start(
  name: ServerName,
  env: Record<string, string> = {},
  options: { profileOnRequest?: boolean; /** A descriptor for the server's standard output (its log lines). */ stdout?: number } = {},
): Promise<Started> {
  const script = fileURLToPath(new URL(`./servers/${name}.js`, import.meta.url));
  const prefix = `${String(++startedCount).padStart(2, '0')}-${section}-${name}`;
  const profileName = `${prefix}.cpuprofile`;
  const onRequest = Boolean(cpuProfDir && options.profileOnRequest);
  if (onRequest) env = { ...env, BENCH_PROFILE_ON_REQUEST: '1' };
  const execArgv = cpuProfDir && !onRequest ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`, `--cpu-prof-name=${profileName}`] : [];
  // BENCH_OURS_NODE_ARGS: node flags for our server only (--trace-gc, --perf-basic-prof for `perf record`).
  if (name === 'ours' && process.env.BENCH_OURS_NODE_ARGS) execArgv.push(...process.env.BENCH_OURS_NODE_ARGS.split(' '));
  const stdio = options.stdout === undefined ? 'inherit' : (['inherit', options.stdout, 'inherit', 'ipc'] as const);
  const child: ChildProcess = fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: stdio as 'inherit' });
  pinServer(child.pid!);
  const ready = await new Promise<Started['ready']>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Started['ready']));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
  });
  return {
    ready,
    pid: child.pid!,
    async profiled(label, fn) {
      if (!onRequest) return fn();
      child.send({ type: 'profile-start' });
      try {
        return await fn();
      } finally {
        const file = join(cpuProfDir!, `${prefix}-${label}.cpuprofile`);
        const written = new Promise<void>((resolve) => {
          const listen = (message: { type?: string; file?: string }) => {
            if (message?.type !== 'profile-written' || message.file !== file) return;
            child.off('message', listen);
            resolve();
          };
          child.on('message', listen);
        });
        child.send({ type: 'profile-stop', file });
        await written;
      }
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill(), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.send('stop');
      }),
  };
}

const auth = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

/**
 * Starts a server, checks one answer, loads it, stops it. Its CPU per request (user + system time over every answer,
 * warm-up included) compares servers even when autocannon, on the same CPUs, is what limits the throughput.
 */
async function loadServer(
  label: string,
  name: ServerName,
  path: string,
  body: (ready: Started['ready']) => string | (() => string),
  extraHeaders: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<LoadResult & { cpuPerRequest: number }> {
  const server = await start(name, env);
  try {
    const { url, token, tokens = [] } = server.ready;
    const made = body(server.ready);
    const headers = { ...auth(token), ...extraHeaders };
    const check = await once(url, path, headers, typeof made === 'string' ? made : made());
    if (check.status !== 200 || check.body.includes('"isError":true')) throw new Error(`${label}: ${path} answered ${check.status}: ${check.body}`);
    // With SEED_PEOPLE: each request in turn carries the next person's token, so their budgets are taken at once.
    let turn = 0;
    const headersEach = tokens.length > 0 ? () => auth(tokens[turn++ % tokens.length]) : undefined;
    const cpuBefore = cpuMicros(server.pid);
    const result = await load({ url, path, headers, body: made, headersEach });
    const cpuPerRequest = (cpuMicros(server.pid) - cpuBefore) / (result.total + result.warmupTotal);
    const bad = result.non2xx + result.errors ? ` (non-2xx ${result.non2xx}, errors ${result.errors})` : '';
    const spread = `(per second ${int(result.rpsMin)}–${int(result.rpsMax)})`;
    console.log(
      `  ${label.padEnd(8)} ${int(result.rps).padStart(7)} req/s ${spread.padEnd(24)} p50 ${result.p50} ms  p99 ${result.p99} ms  ` +
        `${int(result.ok)} ok${bad}  server CPU ${cpuPerRequest.toFixed(0)} µs/req`,
    );
    return { ...result, cpuPerRequest };
  } finally {
    await server.stop();
  }
}

const summary: string[] = [];

/** One listLinks q's figures: latencies, what it answered, and whether its p50 misses the 5 ms target. */
function searchLine(label: string, r: Latencies): string {
  const rows = [...r.statuses].join() === '200' ? (JSON.parse(r.lastBody) as { data: unknown[] }).data.length : NaN;
  return (
    `${label.padEnd(50)} p50 ${ms(r.p50).padStart(6)} ms  p99 ${ms(r.p99).padStart(6)} ms  max ${ms(r.max).padStart(6)} ms  ` +
    `${r.n} req, status ${[...r.statuses].join(',')}, ${rows} rows${r.p50 < 5 ? '' : '  ← over the 5 ms target'}`
  );
}

if (only.has('mcp')) {
  section = 'mcp';
  console.log('\nlinkByCode over MCP 2026-07-28 against getLink over HTTP, same server build (50 connections, 2 s warm-up + 8 s)');
  const api = await loadServer('getLink', 'ours', '/v1/getLink', (ready) => JSON.stringify({ code: ready.code }));
  // A 2026-07-28 tools/call needs no session: each request carries its version and capabilities, as a client sends it.
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  };
  const call = (ready: Started['ready']) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'linkByCode', arguments: { code: ready.code }, _meta: meta } });
  // The bench server's PUBLIC_URL has no port (it listens on port 0), and /mcp checks Host against it.
  const headers = { host: '127.0.0.1', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'linkByCode' };
  const mcp = await loadServer('mcp', 'ours', '/mcp', call, headers);
  summary.push(`mcp        linkByCode ${int(mcp.rps)} req/s p99 ${mcp.p99} ms | getLink ${int(api.rps)} | mcp/getLink ${pct(mcp.rps, api.rps)} (target ≥70%)`);
}

if (only.has('getLink')) {
  section = 'getLink';
  console.log(`\ngetLink over HTTP (50 connections, 2 s warm-up + 8 s; ${pinningText()})`);
  const body = (ready: Started['ready']) => JSON.stringify({ code: ready.code });
  const ours = await loadServer('ours', 'ours', '/v1/getLink', body);
  const express = await loadServer('express', 'bare-express', '/v1/getLink', body);
  const node = await loadServer('node', 'bare-node', '/v1/getLink', () => JSON.stringify({ code: 'AbCdEf1' }));
  // In turn with bare node, at the default log level (a line a request), as the service runs.
  const level = process.env.LOG_LEVEL ?? 'info';
  // Its lines go to a file, as a log collector's would (and not into the bench's own output).
  const logFile = join(mkdtempSync(join(tmpdir(), 'shortlinks-bench-log-')), 'ours.log');
  const logFd = openSync(logFile, 'w');
  const [oursAtLevel, bareNode] = [await start('ours', { LOG_LEVEL: level }, { stdout: logFd }), await start('bare-node')];
  let paired: Paired | null = null;
  try {
    paired = await pairedRounds(oursAtLevel, bareNode, [`at ${level}`], async (server) => {
      const { url, token, code = 'AbCdEf1' } = server.ready;
      const before = cpuMicros(server.pid);
      const r = await load({ url, path: '/v1/getLink', headers: auth(token), body: JSON.stringify({ code }), seconds: PAIRED_SECONDS, warmupSeconds: 1 });
      return (cpuMicros(server.pid) - before) / (r.total + r.warmupTotal);
    });
  } finally {
    await Promise.all([oursAtLevel.stop(), bareNode.stop()]);
    closeSync(logFd);
    rmSync(join(logFile, '..'), { recursive: true, force: true });
  }
  summary.push(
    `getLink    ours ${int(ours.rps)} req/s p99 ${ours.p99} ms | express ${int(express.rps)} | node ${int(node.rps)} | ` +
      `ours/express ${pct(ours.rps, express.rps)} (target ≥70%) | ours/node ${pct(ours.rps, node.rps)} (target ≥25%)`,
    `           server CPU per request: ours ${ours.cpuPerRequest.toFixed(0)} µs | express ${express.cpuPerRequest.toFixed(0)} | ` +
      `node ${node.cpuPerRequest.toFixed(0)} | node/ours ${pct(node.cpuPerRequest, ours.cpuPerRequest)}: ` +
      'the throughput ratio if the server, not autocannon, were the limit',
    ...(paired ? [`           paired (ours at LOG_LEVEL=${level}, bare node): ${paired.text}`] : []),
  );
}

if (only.has('createLink')) {
  section = 'createLink';
  console.log('\ncreateLink over HTTP (a new destination per request, 50 connections, 2 s warm-up + 8 s)');
  let counter = 0;
  const body = (ready: Started['ready']) => () =>
    JSON.stringify({ team: ready.team ?? 'team_bench', destination: `https://example.com/p/${++counter}` });
  const ours = await loadServer('ours', 'ours', '/v1/createLink', body);
  const made = counter;
  console.log(`  (ours made ${int(made)} links in its team during warm-up and run: each create counts the team's links and its creations of the last hour and day)`);
  const node = await loadServer('node', 'bare-node', '/v1/createLink', body);
  summary.push(
    `createLink ours ${int(ours.rps)} req/s p99 ${ours.p99} ms | node ${int(node.rps)} p99 ${node.p99} ms | ` +
      `ours/node ${pct(ours.rps, node.rps)}`,
  );
}

if (only.has('listLinks')) {
  section = 'listLinks';
  console.log(`\nlistLinks with q over a team of ${int(SEARCH_LINKS)} links (1 connection, sequential, 300 requests per term)`);
  const server = await start('ours', { SEED_LINKS: String(SEARCH_LINKS) });
  try {
    const { url, token, team, seedMs = 0 } = server.ready;
    console.log(`  seeded in one transaction (better-sqlite3, same file) in ${(seedMs / 1000).toFixed(1)} s`);
    const parts: string[] = [];
    for (const { label, q } of SEARCH_TERMS) {
      const r = await sequential(url, '/v1/listLinks', auth(token), JSON.stringify({ team, q }));
      console.log(`  ${searchLine(label, r)}`);
      parts.push(`${q} ${ms(r.p50)}/${ms(r.p99)}`);
    }
    summary.push(`listLinks  p50/p99 ms (target p50 < 5 ms): ${parts.join(' | ')}`);
  } finally {
    await server.stop();
  }
}

if (only.has('redirect')) {
  section = 'redirect';
  const links = Number(process.env.BENCH_REDIRECT_LINKS ?? 1_000_000);
  const sampleSize = Number(process.env.BENCH_REDIRECT_CODES ?? 10_000);
  const wideSize = Number(process.env.BENCH_REDIRECT_WIDE ?? 200_000);
  const CACHE_ENTRIES = 100_000; // src/redirect/link-cache.ts
  const runs = new Set((process.env.BENCH_REDIRECT_RUNS ?? 'codes,hot,wide,hot-full').split(','));
  if (wideSize <= CACHE_ENTRIES) {
    runs.delete('wide');
    runs.delete('hot-full');
  }
  // A browser's User-Agent, so every redirect counts a click: the realistic path.
  const headers = {
    'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-language': 'en-US,en;q=0.9',
  };
  const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
  const load1 = () => loadavg().map((n) => n.toFixed(1)).join(' ');
  /** RSS and its high-water mark, from /proc (Linux). */
  const memory = (pid: number) => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  };
  type Measured = GetLoadResult & { rss: number; cpuPerRequest: number };
  /** Loads a server; the CPU it spent, over every answer it gave (warm-up and run), is its cost per request. */
  const measure = async (server: Started, key: string, path: string | (() => string), timing: { seconds?: number; warmupSeconds?: number; rate?: number } = {}): Promise<Measured> => {
    let cpu = 0;
    const r = await server.profiled(key, async () => {
      const before = cpuMicros(server.pid);
      const result = await loadGet({ url: server.ready.url, path, headers, ...timing });
      cpu = cpuMicros(server.pid) - before;
      return result;
    });
    return { ...r, rss: memory(server.pid).rss, cpuPerRequest: cpu / (r.total + r.warmupTotal) };
  };
  const line = (label: string, r: Measured) => {
    const statuses = Object.entries(r.byStatus).map(([code, n]) => `${int(n)} × ${code}`).join(', ');
    const spread = `(per second ${int(r.rpsMin)}–${int(r.rpsMax)})`;
    console.log(
      `  ${label.padEnd(34)} ${int(r.rps).padStart(7)} req/s ${spread.padEnd(26)} p50 ${r.p50} ms  p99 ${String(r.p99).padStart(2)} ms  ` +
        `${statuses}; non-3xx ${int(r.total - r.byClass['3xx'])}, errors ${int(r.errors)}  ` +
        `server CPU ${r.cpuPerRequest.toFixed(0)} µs/req  RSS ${mb(r.rss)}`,
    );
  };
  const drawFrom = (codes: string[]) => () => `/${codes[Math.floor(Math.random() * codes.length)]}`;

  console.log(
    `\nredirect GET /<code> (50 connections, pipelining 1, 2 s warm-up + 8 s each, GET with a browser User-Agent so clicks are counted; ` +
      `ours at LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'} with metrics on; ` +
      `302 is the expected answer; server CPU = the child's user+system time over every answer incl. warm-up; MB = 10^6 bytes)` +
      `\n  load average ${load1()} on ${availableParallelism()} CPUs (autocannon runs in this process; ${pinningText()})`,
  );
  const ours = await start(
    'ours',
    {
      // The figure: the default log level (the minute's summary line) and metrics on (a listener on a free
      // port), as a redirect is served in production; LOG_LEVEL in the environment still picks another level.
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      METRICS_PORT: '0',
      SEED_REDIRECT_LINKS: String(links),
      SEED_REDIRECT_SAMPLE: String(Math.max(sampleSize, runs.has('wide') || runs.has('hot-full') ? wideSize : 0)),
    },
    { profileOnRequest: true },
  );
  const results: Record<string, Measured> = {};
  let sample: string[] = [];
  let wideCount = 0;
  let peak = 0;
  let clicks = NaN;
  let rssBefore = NaN;
  let fillAnswered = 0;
  let paired: Paired | null = null;
  try {
    const many = ours.ready.many!;
    const index = {
      bulk: 'filled after the rows, one INSERT … SELECT each, the statements of the triggers and migration 4 (the two insert triggers were dropped for the seed and made again from the SQL SQLite held for them)',
      triggers: "filled row by row by the migrations' triggers",
      none: 'LEFT WITHOUT the seeded rows (the redirect reads links only through the unique index on code, never the search indexes)',
    }[many.mode];
    console.log(
      `  seeded ${int(many.links)} links (links table now ${int(many.linksInTable)} rows, + codes, names, link_events) in one transaction ` +
        `on a second connection, in a separate process: ${(many.totalMs / 1000).toFixed(1)} s (rows ${(many.rowsMs / 1000).toFixed(1)} s, ` +
        `search indexes ${(many.indexMs / 1000).toFixed(1)} s, checkpoint ${(many.checkpointMs / 1000).toFixed(1)} s)`,
    );
    console.log(
      `  search indexes: ${index}; a term only one seeded row holds finds ${many.searchCheck.links_search} row in links_search, ` +
        `${many.searchCheck.links_search_short} in links_search_short`,
    );
    console.log(`  indexes on links: ${many.linkIndexes.join(', ')}; a read by code: ${many.codePlan}`);
    const codes = readFileSync(many.codesFile, 'utf8').split('\n').filter(Boolean);
    sample = codes.slice(0, sampleSize);
    wideCount = codes.length;
    const hot = sample[0]!;
    const check = await getOnce(ours.ready.url, `/${hot}`, headers);
    if (check.status !== 302) throw new Error(`redirect: /${hot} answered ${check.status}: ${check.body.slice(0, 200)}`);
    rssBefore = memory(ours.pid).rss;
    console.log(
      `  check: /${hot} → ${check.status} Location ${String(check.headers.location)}, Cache-Control ${String(check.headers['cache-control'])}; ` +
        `ours RSS before any load ${mb(rssBefore)}`,
    );
    const run = async (key: string, label: string, path: string | (() => string)) => {
      const r = await measure(ours, key, path);
      peak = Math.max(peak, memory(ours.pid).peak);
      results[key] = r;
      line(label, r);
    };
    if (runs.has('codes')) await run('codes', `ours, ${int(sample.length)} sampled codes`, drawFrom(sample));
    if (runs.has('hot')) await run('hot', 'ours, one hot code', `/${hot}`);
    if (runs.has('wide')) await run('wide', `ours, ${int(codes.length)} codes (> cache)`, drawFrom(codes));
    if (runs.has('hot-full')) {
      // Every code once, in order, until the LRU cache holds its 100,000 entries; then the one hot code again.
      const fill = Math.min(codes.length, CACHE_ENTRIES + 20_000);
      let next = 0;
      const filled = await loadGet({ url: ours.ready.url, path: () => `/${codes[next++ % fill]}`, headers, amount: fill });
      fillAnswered = filled.byClass['3xx'];
      console.log(`  (cache filled: ${int(filled.total)} requests, ${int(fill)} distinct codes, in order)`);
      await run('hot-full', 'ours, one hot code, cache full', `/${hot}`);
    }
    console.log(`  ours peak RSS (VmHWM) ${mb(peak)}; load average ${load1()}`);
    const bare = await start('bare-redirect');
    try {
      const codesKind = `${int(sample.length / 1000)}k codes`;
      // Each kind twice: as fast as autocannon sends, and paced at one rate both servers hold. Unpaced, the slower
      // server is sent fewer requests per wake-up and pays more for each (bare alone measured 40 µs on one path and
      // 73 µs on random paths in one run), so only the paced rounds compare the servers' own work.
      const pacedKinds = new Set(PAIRED_RATE > 0 ? ['hot', codesKind].map((kind) => `${kind} at ${int(PAIRED_RATE)}/s`) : []);
      const kinds = ['hot', codesKind, ...pacedKinds];
      const pathOf = (kind: string) => (kind.startsWith('hot') ? `/${hot}` : drawFrom(sample));
      const timingOf = (kind: string) => ({ seconds: PAIRED_SECONDS, warmupSeconds: 1, ...(pacedKinds.has(kind) ? { rate: PAIRED_RATE } : {}) });
      paired = await pairedRounds(ours, bare, kinds, async (server, kind, round) =>
        (await measure(server, `paired-${kind.replaceAll(/\W+/g, '-')}-${round}`, pathOf(kind), timingOf(kind))).cpuPerRequest,
      );
    } finally {
      await bare.stop();
    }
    // The clicks reached the database: the counter flushes every second.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(many.codesFile, '..', 'bench.db'), { readonly: true, fileMustExist: true });
    clicks = db.prepare('SELECT coalesce(sum(count), 0) FROM clicks').pluck().get() as number;
    db.close();
    const answered = Object.values(results).reduce((sum, r) => sum + r.byClass['3xx'] + r.warmupTotal, 0) + fillAnswered + 1;
    console.log(
      `  clicks in the database: ${int(clicks)}; autocannon saw ${int(answered)} redirects (the loads, their warm-ups, the cache fill and the check), ` +
        `not counting those in flight when each load cut its 50 connections`,
    );
  } finally {
    await ours.stop();
  }

  const bare = await start('bare-redirect');
  const bareResults: Record<string, Measured> = {};
  try {
    const check = await getOnce(bare.ready.url, `/${sample[0] ?? 'AbCdEf1'}`, headers);
    if (check.status !== 302) throw new Error(`bare-redirect answered ${check.status}`);
    bareResults.codes = await measure(bare, 'codes', drawFrom(sample));
    line(`bare, ${int(sample.length)} sampled codes`, bareResults.codes);
    if (runs.has('hot') || runs.has('hot-full')) {
      bareResults.hot = await measure(bare, 'hot', `/${sample[0]}`);
      line('bare, one path', bareResults.hot);
    }
  } finally {
    await bare.stop();
  }

  const fmt = (r: GetLoadResult | undefined) => (r ? int(r.rps) : '—');
  const ratio = (a: GetLoadResult | undefined, b: GetLoadResult | undefined) => (a && b ? pct(a.rps, b.rps) : '—');
  const cpuRatio = (a: Measured | undefined, b: Measured | undefined) =>
    a && b ? pct(b.cpuPerRequest, a.cpuPerRequest) : '—';
  const { codes: codesRun, hot: hotRun, wide: wideRun } = results;
  const hotFull = results['hot-full'];
  const rssEnd = Math.max(...Object.values(results).map((r) => r.rss));
  summary.push(
    `redirect   ours ${fmt(codesRun)} req/s p99 ${codesRun?.p99 ?? '—'} ms (${int(sample.length / 1000)}k codes) | ` +
      `hot code ${fmt(hotRun)} | bare ${fmt(bareResults.codes)} | ours/bare ${ratio(codesRun, bareResults.codes)} (target ≥80%) | ` +
      `RSS ${mb(codesRun?.rss ?? NaN)} (target <300 MB) | ${int(links)} links`,
    `           hot code p99 ${hotRun?.p99 ?? '—'} ms, ours/bare (same path) ${ratio(hotRun, bareResults.hot)} | ` +
      (wideRun ? `${int(wideCount / 1000)}k codes (> 100k cache) ${fmt(wideRun)} p99 ${wideRun.p99} ms | ` : '') +
      (hotFull ? `hot code with the cache full ${fmt(hotFull)} p99 ${hotFull.p99} ms | ` : '') +
      `RSS before load ${mb(rssBefore)}, at the end ${mb(rssEnd)}, peak ${mb(peak)} | clicks stored ${int(clicks)}`,
    `           server CPU per request: ours ${codesRun?.cpuPerRequest.toFixed(0) ?? '—'} µs (${int(sample.length / 1000)}k codes), ` +
      `${hotRun?.cpuPerRequest.toFixed(0) ?? '—'} (hot), ${wideRun?.cpuPerRequest.toFixed(0) ?? '—'} (wide), ` +
      `${hotFull?.cpuPerRequest.toFixed(0) ?? '—'} (hot, cache full) | bare ${bareResults.codes?.cpuPerRequest.toFixed(0) ?? '—'} µs | ` +
      `bare/ours ${cpuRatio(codesRun, bareResults.codes)} (${int(sample.length / 1000)}k codes), ${cpuRatio(hotRun, bareResults.hot)} (hot), ` +
      `${cpuRatio(hotFull, bareResults.hot)} (hot, cache full): the throughput ratio if the server, not autocannon, were the limit`,
    ...(paired ? [`           paired: ${paired.text}`] : []),
  );
}

if (only.has('postgres')) {
  section = 'postgres';
  console.log('\ngetLink and a redirect on PostgreSQL beside SQLite and bare node:http (50 connections, 2 s warm-up + 8 s each)');
  const cluster = await startPostgres();
  try {
    const onPostgres = async () => ({ BENCH_DATABASE_URL: await cluster.newDatabase() });
    const body = (ready: Started['ready']) => JSON.stringify({ code: ready.code });
    const api = {
      sqlite: await loadServer('sqlite', 'ours', '/v1/getLink', body),
      postgres: await loadServer('postgres', 'ours', '/v1/getLink', body, {}, await onPostgres()),
      node: await loadServer('node', 'bare-node', '/v1/getLink', () => JSON.stringify({ code: 'AbCdEf1' })),
    };
    // The same with PEOPLE people calling at once, each with a token of their own: as many budgets taken at once,
    // which do not batch as one person's takes do (store/operations/take-batches.ts); on PostgreSQL their statements
    // go together per turn instead (store/postgres/rate-turns.ts).
    console.log(`  the same, ${PEOPLE} people's tokens in turn`);
    const people = { SEED_PEOPLE: String(PEOPLE) };
    const many = {
      sqlite: await loadServer('sqlite', 'ours', '/v1/getLink', body, {}, people),
      postgres: await loadServer('postgres', 'ours', '/v1/getLink', body, {}, { ...people, ...(await onPostgres()) }),
    };
    const redirect = async (env: Record<string, string>) => {
      const server = await start('ours', env);
      try {
        const before = cpuMicros(server.pid);
        const r = await loadGet({ url: server.ready.url, path: `/${server.ready.code}`, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0' } });
        return { ...r, cpuPerRequest: (cpuMicros(server.pid) - before) / (r.total + r.warmupTotal) };
      } finally {
        await server.stop();
      }
    };
    const hops = { sqlite: await redirect({}), postgres: await redirect(await onPostgres()) };
    // listLinks with q over a team of SEARCH_LINKS links, as the listLinks section measures it on SQLite.
    const searching = await start('ours', { ...(await onPostgres()), SEED_LINKS: String(SEARCH_LINKS) });
    const searches: string[] = [];
    try {
      const { url, token, team, seedMs = 0 } = searching.ready;
      console.log(`  listLinks with q over ${int(SEARCH_LINKS)} links on PostgreSQL (seeded in ${(seedMs / 1000).toFixed(1)} s; 1 connection, 300 requests per term)`);
      for (const { label, q } of SEARCH_TERMS) {
        const r = await sequential(url, '/v1/listLinks', auth(token), JSON.stringify({ team, q }));
        console.log(`    ${searchLine(label, r)}`);
        searches.push(`${q} ${ms(r.p50)}/${ms(r.p99)}`);
      }
    } finally {
      await searching.stop();
    }
    for (const [label, r] of Object.entries(hops)) {
      console.log(`  redirect ${label.padEnd(9)} ${int(r.rps).padStart(7)} req/s p50 ${r.p50} ms  p99 ${r.p99} ms  non-3xx ${int(r.total - r.byClass['3xx'])}  server CPU ${r.cpuPerRequest.toFixed(0)} µs/req`);
    }
    summary.push(
      `postgres   getLink ${int(api.postgres.rps)} req/s p99 ${api.postgres.p99} ms | sqlite ${int(api.sqlite.rps)} p99 ${api.sqlite.p99} ms | node ${int(api.node.rps)} | ` +
        `CPU µs/req postgres ${api.postgres.cpuPerRequest.toFixed(0)}, sqlite ${api.sqlite.cpuPerRequest.toFixed(0)}, node ${api.node.cpuPerRequest.toFixed(0)}`,
      `           getLink, ${PEOPLE} people's tokens: postgres ${int(many.postgres.rps)} req/s p99 ${many.postgres.p99} ms | sqlite ${int(many.sqlite.rps)} p99 ${many.sqlite.p99} ms | ` +
        `postgres/sqlite ${pct(many.postgres.rps, many.sqlite.rps)} (target ≥50%) | CPU µs/req postgres ${many.postgres.cpuPerRequest.toFixed(0)}, sqlite ${many.sqlite.cpuPerRequest.toFixed(0)}`,
      `           redirect ${int(hops.postgres.rps)} req/s p99 ${hops.postgres.p99} ms | sqlite ${int(hops.sqlite.rps)} p99 ${hops.sqlite.p99} ms (target p99 < 10 ms on both) | ` +
        `CPU µs/req postgres ${hops.postgres.cpuPerRequest.toFixed(0)}, sqlite ${hops.sqlite.cpuPerRequest.toFixed(0)}, ` +
        `postgres/sqlite ${(hops.postgres.cpuPerRequest / hops.sqlite.cpuPerRequest).toFixed(2)} (target ≤ 1.30; server process only; PostgreSQL's own CPU not counted)`,
      `           listLinks q p50/p99 ms over ${int(SEARCH_LINKS)} links (target p50 < 5 ms): ${searches.join(' | ')}`,
    );
  } finally {
    await cluster.stop();
  }
}

if (only.has('workers')) summary.push(...(await benchWorkers()));
if (only.has('observability')) summary.push(...(await benchObservability()));
if (only.has('copy')) summary.push(...(await benchCopy()));
if (only.has('analytics')) summary.push(...(await benchAnalytics()));
if (only.has('addresses')) summary.push(...(await benchAddresses()));
if (only.has('import')) summary.push(...(await benchImport()));

closeClients();
console.log(`\n${summary.join('\n')}`);
process.exit(0);
