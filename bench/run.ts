import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { closeClients, int, load, ms, once, pct, sequential, type LoadResult } from './measure.js';
import { SEARCH_TERMS } from './seed.js';
import type { Ready } from './servers/child.js';

/**
 * `npm run bench`: each server in its own child process, one at a time, loaded by autocannon from this one.
 * BENCH_ONLY=getLink,createLink,listLinks picks sections; BENCH_CPU_PROF=<dir> profiles every server child
 * (one file each, written when it stops; read them with bench/profile-top.ts). Prints figures and targets; asserts nothing.
 */
const only = new Set((process.env.BENCH_ONLY ?? 'getLink,createLink,listLinks').split(','));
const cpuProfDir = process.env.BENCH_CPU_PROF;
const SEARCH_LINKS = Number(process.env.BENCH_SEARCH_LINKS ?? 100_000);

let startedCount = 0;
let section = '';

interface Started {
  ready: Ready & { token?: string; team?: string; code?: string; seedMs?: number };
  stop(): Promise<void>;
}

async function start(name: 'ours' | 'bare-node' | 'bare-express', env: Record<string, string> = {}): Promise<Started> {
  const script = fileURLToPath(new URL(`./servers/${name}.js`, import.meta.url));
  const profileName = `${String(++startedCount).padStart(2, '0')}-${section}-${name}.cpuprofile`;
  const execArgv = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`, `--cpu-prof-name=${profileName}`] : [];
  const child: ChildProcess = fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: 'inherit' });
  const ready = await new Promise<Started['ready']>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Started['ready']));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
  });
  return {
    ready,
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

/** Starts a server, checks one answer, loads it, stops it. */
async function loadServer(
  label: string,
  name: 'ours' | 'bare-node' | 'bare-express',
  path: string,
  body: (ready: Started['ready']) => string | (() => string),
): Promise<LoadResult> {
  const server = await start(name);
  try {
    const { url, token } = server.ready;
    const made = body(server.ready);
    const check = await once(url, path, auth(token), typeof made === 'string' ? made : made());
    if (check.status !== 200) throw new Error(`${label}: ${path} answered ${check.status}: ${check.body}`);
    const result = await load({ url, path, headers: auth(token), body: made });
    const bad = result.non2xx + result.errors ? ` (non-2xx ${result.non2xx}, errors ${result.errors})` : '';
    const spread = `(per second ${int(result.rpsMin)}–${int(result.rpsMax)})`;
    console.log(`  ${label.padEnd(8)} ${int(result.rps).padStart(7)} req/s ${spread.padEnd(24)} p50 ${result.p50} ms  p99 ${result.p99} ms  ${int(result.ok)} ok${bad}`);
    return result;
  } finally {
    await server.stop();
  }
}

const summary: string[] = [];

if (only.has('getLink')) {
  section = 'getLink';
  console.log('\ngetLink over HTTP (50 connections, 2 s warm-up + 8 s)');
  const body = (ready: Started['ready']) => JSON.stringify({ code: ready.code });
  const ours = await loadServer('ours', 'ours', '/v1/getLink', body);
  const express = await loadServer('express', 'bare-express', '/v1/getLink', body);
  const node = await loadServer('node', 'bare-node', '/v1/getLink', () => JSON.stringify({ code: 'AbCdEf1' }));
  summary.push(
    `getLink    ours ${int(ours.rps)} req/s p99 ${ours.p99} ms | express ${int(express.rps)} | node ${int(node.rps)} | ` +
      `ours/express ${pct(ours.rps, express.rps)} (target ≥70%) | ours/node ${pct(ours.rps, node.rps)} (target ≥10%)`,
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
      const rows = [...r.statuses].join() === '200' ? (JSON.parse(r.lastBody) as { data: unknown[] }).data.length : NaN;
      const status = [...r.statuses].join(',');
      console.log(
        `  ${label.padEnd(44)} p50 ${ms(r.p50).padStart(6)} ms  p99 ${ms(r.p99).padStart(6)} ms  max ${ms(r.max).padStart(6)} ms  ` +
          `${r.n} req, status ${status}, ${rows} rows${r.p50 < 5 ? '' : '  ← over the 5 ms target'}`,
      );
      parts.push(`${q} ${ms(r.p50)}/${ms(r.p99)}`);
    }
    summary.push(`listLinks  p50/p99 ms (target p50 < 5 ms): ${parts.join(' | ')}`);
  } finally {
    await server.stop();
  }
}

closeClients();
console.log(`\n${summary.join('\n')}`);
process.exit(0);
