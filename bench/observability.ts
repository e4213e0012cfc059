import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/helpers/free-port.js';
import { startDnsStandIn } from './dns-stand-in.js';
import { getOnce, int, pct } from './measure.js';
import { lowestAndMedian, measure, seedDatabase, startService, type Measured, type Setting } from './workers.js';

/**
 * BENCH_ONLY=observability: what the log and the metrics cost a redirect (issue 12: at most 5% of redirect
 * throughput). The real server (`npm start`'s entry, one process) on one SQLite file of BENCH_OBS_LINKS links
 * (10,000), loaded with browser GETs of random codes, once with LOG_LEVEL=silent and no METRICS_PORT (off) and
 * once with LOG_LEVEL=info and METRICS_PORT set (on: a request id per answer, the redirect tallies and histogram,
 * cache counts, clicks counted, the store's calls timed, the minute's summary line, and /metrics scraped once per
 * run). BENCH_OBS_ROUNDS (5) runs the two back to back that many times, which goes first alternating. The summary
 * gives the median of each round's ratio (on against off, measured a few seconds apart, so a machine shared with
 * other work slows both alike), then the medians and lowest of each setting: the server's CPU time per answer
 * (steadier than requests per second, since autocannon takes CPU from the same cores) and requests per second.
 * Off still makes each answer's request id and counts the redirect tallies, which are always on; BENCH_OBS_BASE, the
 * `dist/src/main.js` of a build from before the log and metrics (made apart, say from `git archive`), adds a third
 * setting to each round, which the other two are compared with too.
 */
const LINKS = Number(process.env.BENCH_OBS_LINKS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_OBS_ROUNDS ?? 5);
const BASE = process.env.BENCH_OBS_BASE;

/** Runs the section; answers its lines for the summary. */
export async function benchObservability(): Promise<string[]> {
  console.log(
    `\nredirect with the log and metrics off and on (${int(LINKS)} links, random codes, 50 connections, 2 s warm-up + 8 s, ` +
      `browser GETs so clicks are counted; ${ROUNDS} rounds, alternating; server CPU over every answer)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-bench-obs-'));
  const dbPath = join(dir, 'bench.db');
  const dns = await startDnsStandIn();
  let scraped = '';
  try {
    const codes = await seedDatabase(dbPath, LINKS);
    const off: Setting = { label: 'log and metrics off', start: async () => [await startService(1, dbPath, dns.servers, { LOG_LEVEL: 'silent' })] };
    const on: Setting = {
      label: 'log (info) and metrics on',
      async start() {
        const metricsPort = await freePort();
        const service = await startService(1, dbPath, dns.servers, { LOG_LEVEL: 'info', METRICS_PORT: String(metricsPort) });
        return [
          {
            ...service,
            // Scraped as a Prometheus would, once a run, just before the service stops.
            async stop() {
              scraped = (await getOnce(`http://127.0.0.1:${metricsPort}`, '/metrics', {})).body;
              await service.stop();
            },
          },
        ];
      },
    };
    const base: Setting | null = BASE ? { label: 'base build (before)', start: async () => [await startService(1, dbPath, dns.servers, {}, BASE)] } : null;
    const settings = [off, on, ...(base ? [base] : [])];
    const runs: Measured[] = [];
    const rounds: Array<Record<string, Measured>> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const measured: Record<string, Measured> = {};
      const order = round % 2 === 0 ? settings : [...settings].reverse();
      for (const setting of order) runs.push((measured[setting.label] = await measure(setting, codes)));
      rounds.push(measured);
    }
    /** The median over the rounds of `a`'s figure against `b`'s in the same round. */
    const ratio = (a: Setting, b: Setting, pick: (r: Measured) => number) =>
      `${(100 * lowestAndMedian(rounds.map((round) => pick(round[a.label]!) / pick(round[b.label]!))).median).toFixed(1)}%`;
    const cpu = (r: Measured) => r.cpuPerRequest;
    const rps = (r: Measured) => r.rps;
    const redirects = /^shortlinks_requests_total\{surface="redirect",operation="visit",status="302"\} (\d+)$/m.exec(scraped)?.[1];
    const stats = (setting: Setting, pick: (r: Measured) => number) => lowestAndMedian(runs.filter((r) => r.label === setting.label).map(pick));
    const [cpuOff, cpuOn] = [stats(off, cpu), stats(on, cpu)];
    const [rpsOff, rpsOn] = [stats(off, rps), stats(on, rps)];
    const againstBase = base
      ? [
          `           against the build from before, median of the rounds' ratios: on ${ratio(on, base, cpu)} CPU, ${ratio(on, base, rps)} req/s | ` +
            `off ${ratio(off, base, cpu)} CPU, ${ratio(off, base, rps)} req/s | base ${stats(base, cpu).median.toFixed(1)} µs, ${int(stats(base, rps).median)} req/s`,
        ]
      : [];
    return [
      `observability redirect, on against off, median of ${ROUNDS} rounds' ratios: CPU per request ${ratio(on, off, cpu)} (target ≤105%), ` +
        `req/s ${ratio(on, off, rps)} (target ≥95%)`,
      ...againstBase,
      `           CPU per request, median (lowest) of ${ROUNDS}: off ${cpuOff.median.toFixed(1)} µs (${cpuOff.min.toFixed(1)}) | ` +
        `on ${cpuOn.median.toFixed(1)} (${cpuOn.min.toFixed(1)}) | on/off ${pct(cpuOn.median, cpuOff.median)} (${pct(cpuOn.min, cpuOff.min)})`,
      `           req/s median: off ${int(rpsOff.median)} | on ${int(rpsOn.median)} | on/off ${pct(rpsOn.median, rpsOff.median)} | ` +
        `the last scrape counted ${redirects === undefined ? 'no' : int(Number(redirects))} redirects`,
    ];
  } finally {
    await dns.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
