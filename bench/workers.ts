import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { startDnsStandIn } from './dns-stand-in.js';
import { cpuMicros, getOnce, int, loadGet, pct, type GetLoadResult } from './measure.js';
import { seedActor, seedLinks } from './seed.js';
import { freePort } from '../test/helpers/free-port.js';

/**
 * BENCH_ONLY=workers: what a redirect costs in CPU time with WORKERS=1 and with WORKERS=2, the real server
 * (`npm start`'s entry) on one SQLite file of BENCH_WORKERS_LINKS links (10,000), loaded with GETs of random codes
 * by a browser (so every redirect counts a click, and every worker writes its counts every second). The cost is
 * the CPU time of every process of the service (the primary and its workers, from /proc) over every answer: the
 * machine's CPUs are shared with autocannon, so requests per second say little.
 *
 * A third setting is the reference for what two busy processes cost on this machine by themselves: two single
 * processes (WORKERS=1) on their own copies of the file, sharing nothing, loaded at the same time with half the
 * connections each. WORKERS=2 against it is the cost of sharing (the port, the file, the change log, the leases).
 *
 * BENCH_WORKERS_ROUNDS (3) runs each setting that many times, alternating; the summary compares the lowest cost of
 * each, since whatever else runs on the machine can only add to a process's CPU time, and the median.
 * BENCH_WORKERS_RATE caps the requests per second in all (autocannon's overallRate); with it, a fourth setting runs
 * one process at half the rate, the load each of two workers gets, since a process's CPU time per request grows as
 * its requests per second fall (fewer answers share each turn of its event loop). Target: WORKERS=2 at most 110%
 * of WORKERS=1.
 */
const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));
const LINKS = Number(process.env.BENCH_WORKERS_LINKS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_WORKERS_ROUNDS ?? 3);
const RATE = Number(process.env.BENCH_WORKERS_RATE ?? 0);
const CONNECTIONS = 50;
const HEADERS = {
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
};

/**
 * Enough for a started service to have written what it counted so far: it writes click analytics every
 * ANALYTICS_WRITE_MS (10 s by default), the daily clicks every second.
 */
export const ANALYTICS_WRITTEN_MS = 12_000;

export interface Service {
  url: string;
  /** The primary (or the single process) and its workers. */
  pids(): number[];
  stop(): Promise<void>;
}

/**
 * Starts `node dist/src/main.js` (or another build's `main`) with WORKERS=n on a free port, `extra` added to its
 * environment; resolves once it logged its start-up line (once every worker listens), or with LOG_LEVEL=silent,
 * which logs nothing, once it answers.
 */
export async function startService(
  workers: number,
  dbPath: string,
  dnsServers: string[],
  extra: Record<string, string> = {},
  main = MAIN,
): Promise<Service> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: dbPath, DNS_SERVERS: dnsServers.join(','), WORKERS: String(workers), ...extra };
  const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('shortlinks serves ')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`WORKERS=${workers} exited with ${code}: ${output}`)));
    if ((extra.LOG_LEVEL ?? process.env.LOG_LEVEL) === 'silent') void answering(`http://127.0.0.1:${port}/health`).then(resolve);
  });
  const pid = child.pid!;
  const children = () => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  if (workers > 1 && children().length !== workers) throw new Error(`WORKERS=${workers}: workers ${children().join(', ')}`);
  return {
    url: `http://127.0.0.1:${port}`,
    pids: () => [pid, ...children()],
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resolves once `url` answers (every 50 ms, 10 s at most). */
async function answering(url: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (await fetch(url).then((res) => res.ok, () => false)) return;
  }
}

export interface Setting {
  label: string;
  start(): Promise<Service[]>;
  /** Requests per second in all, in place of BENCH_WORKERS_RATE. */
  rate?: number;
}

export type Measured = { label: string; rps: number; answers: number; cpuPerRequest: number; primaryPerRequest: number };

/** Loads the setting's services at once (the connections split between them) and sums their CPU time. */
export async function measure(setting: Setting, codes: string[]): Promise<Measured> {
  const services = await setting.start();
  try {
    for (const service of services) {
      const check = await getOnce(service.url, `/${codes[0]}`, HEADERS);
      if (check.status !== 302) throw new Error(`${setting.label}: /${codes[0]} answered ${check.status}`);
    }
    const pids = services.flatMap((service) => service.pids());
    const before = pids.map(cpuMicros);
    const path = () => `/${codes[Math.floor(Math.random() * codes.length)]}`;
    const share = (n: number) => Math.round(n / services.length);
    const results: GetLoadResult[] = await Promise.all(
      services.map((service) => loadGet({ url: service.url, path, headers: HEADERS, connections: share(CONNECTIONS), rate: share(setting.rate ?? RATE) })),
    );
    const spent = pids.map((pid, i) => cpuMicros(pid) - before[i]!);
    const answers = results.reduce((sum, r) => sum + r.total + r.warmupTotal, 0);
    const redirects = results.reduce((sum, r) => sum + r.byClass['3xx'], 0);
    const total = results.reduce((sum, r) => sum + r.total, 0);
    const errors = results.reduce((sum, r) => sum + r.errors, 0);
    const rps = results.reduce((sum, r) => sum + r.rps, 0);
    const cpuPerRequest = spent.reduce((sum, micros) => sum + micros, 0) / answers;
    // With WORKERS=2 the first process is the primary.
    const primaryPerRequest = pids.length > services.length ? spent[0]! / answers : 0;
    const primary = primaryPerRequest ? ` (primary ${primaryPerRequest.toFixed(1)})` : '';
    console.log(
      `  ${setting.label.padEnd(28)} ${int(rps).padStart(7)} req/s  ${int(redirects)} × 3xx, non-3xx ${int(total - redirects)}, ` +
        `errors ${int(errors)}  service CPU ${cpuPerRequest.toFixed(1)} µs/req${primary}`,
    );
    return { label: setting.label, rps, answers, cpuPerRequest, primaryPerRequest };
  } finally {
    await Promise.all(services.map((service) => service.stop()));
  }
}

/**
 * A new SQLite file at `dbPath` holding a person, a team and `links` links; their codes. Everything is in the main
 * file (the WAL checkpointed), so copying it copies the whole database.
 */
export async function seedDatabase(dbPath: string, links: number): Promise<string[]> {
  const store = openSqliteStore(dbPath);
  const actor = await seedActor(store, new Date());
  await store.close();
  seedLinks(dbPath, actor, links);
  const db = new Database(dbPath);
  const codes = db.prepare('SELECT code FROM links').pluck().all() as string[];
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return codes;
}

/** The lowest and the median of a figure over several runs. */
export function lowestAndMedian(values: number[]): { min: number; median: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor((sorted.length - 1) / 2)]! };
}

/** Runs the section; answers its lines for the summary. */
export async function benchWorkers(): Promise<string[]> {
  const rate = RATE ? `at most ${int(RATE)} requests a second in all` : 'as fast as answered';
  console.log(
    `\nredirect CPU time per request, WORKERS=1 against WORKERS=2 (${int(LINKS)} links, random codes, ${CONNECTIONS} connections, ` +
      `${rate}, 2 s warm-up + 8 s, browser GETs so clicks are counted; CPU of every process of the service over every answer)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-bench-workers-'));
  const dbPath = join(dir, 'bench.db');
  const dns = await startDnsStandIn();
  try {
    const codes = await seedDatabase(dbPath, LINKS);
    const copies = ['a', 'b'].map((name) => {
      const copy = join(dir, `copy-${name}.db`);
      copyFileSync(dbPath, copy);
      return copy;
    });
    const settings: Setting[] = [
      { label: 'WORKERS=1', start: async () => [await startService(1, dbPath, dns.servers)] },
      { label: 'WORKERS=2', start: async () => [await startService(2, dbPath, dns.servers)] },
      {
        label: '2 × WORKERS=1, own files',
        start: () => Promise.all(copies.map((copy) => startService(1, copy, dns.servers))),
      },
    ];
    // At a capped rate, one process at what each of two gets: the same load per process, so against WORKERS=2 it
    // leaves only what sharing costs (a process answering fewer requests a second spends more CPU time on each).
    const halfRate = 'WORKERS=1 at half the rate';
    if (RATE) settings.push({ label: halfRate, start: async () => [await startService(1, dbPath, dns.servers)], rate: RATE / 2 });
    const runs: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) for (const setting of settings) runs.push(await measure(setting, codes));
    /** The lowest and the median of a figure over the runs of one setting. */
    const stats = (label: string, pick: (r: Measured) => number) => lowestAndMedian(runs.filter((r) => r.label === label).map(pick));
    const cpu = (label: string) => stats(label, (r) => r.cpuPerRequest);
    const [one, two, apart] = [cpu('WORKERS=1'), cpu('WORKERS=2'), cpu('2 × WORKERS=1, own files')];
    return [
      `workers    redirect CPU per request over ${ROUNDS} runs each, lowest (median): WORKERS=1 ${one.min.toFixed(1)} µs ` +
        `(${one.median.toFixed(1)}) | WORKERS=2 ${two.min.toFixed(1)} (${two.median.toFixed(1)}), primary ` +
        `${stats('WORKERS=2', (r) => r.primaryPerRequest).min.toFixed(1)} | 2/1 ${pct(two.min, one.min)} (${pct(two.median, one.median)}) ` +
        `(target ≤110%)`,
      `           two processes sharing nothing: ${apart.min.toFixed(1)} µs (${apart.median.toFixed(1)}) | WORKERS=2 against them ` +
        `${pct(two.min, apart.min)} (${pct(two.median, apart.median)}): the cost of sharing; the rest is two busy processes ` +
        `and autocannon on this machine's CPUs | req/s (median) ${int(stats('WORKERS=1', (r) => r.rps).median)} | ` +
        `${int(stats('WORKERS=2', (r) => r.rps).median)} | ${int(stats('2 × WORKERS=1, own files', (r) => r.rps).median)}`,
      ...(RATE
        ? [
            `           one process at half the rate (each worker's load): ${cpu(halfRate).min.toFixed(1)} µs ` +
              `(${cpu(halfRate).median.toFixed(1)}) | WORKERS=2 against it ${pct(two.min, cpu(halfRate).min)} ` +
              `(${pct(two.median, cpu(halfRate).median)}) (target ≤110%, at equal load per process)`,
          ]
        : []),
    ];
  } finally {
    await dns.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
