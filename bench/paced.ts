import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { percentile } from './measure.js';

/**
 * GETs sent at a steady pace, for the latency a target speaks of at a given load. autocannon's `overallRate` lets
 * its connections send as fast as they can until the second's allowance is spent, then waits for the next second:
 * a burst of a second's requests each second, whose queue made the p99 (30 to 70 ms at 2,000 req/s on a server
 * answering each in a tenth of a millisecond). Here each millisecond sends the requests due by then, over up to
 * `sockets` kept-alive connections; a request's latency runs from when it was due to its answer's last byte, so a
 * server slow to answer, or a pool full of waiting requests, shows in it (no coordinated omission).
 */
export interface PacedOptions {
  url: string;
  path: () => string;
  headers: Record<string, string>;
  /** Requests a second. */
  rate: number;
  seconds: number;
  /** Sent and left out of the figures first, so the server's compiler and caches are warm. */
  warmupSeconds?: number;
  sockets?: number;
}

export interface PacedResult {
  answered: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  errors: number;
}

/**
 * Runs in a process of its own (bench/paced-child.ts), with the paths drawn here beforehand: a request's latency
 * runs from its due time, so a pause of the load generator counts as the server's. In the bench's own process, whose
 * heap autocannon's rounds had grown, young collections of 8 to 16 ms every third of a second made the p99 (the
 * server's own answers, timed inside it, had a p99 under 10 ms).
 */
export async function pacedGet(options: PacedOptions): Promise<PacedResult> {
  const { warmupSeconds = 1 } = options;
  const paths = (seconds: number) => Array.from({ length: Math.round(options.rate * seconds) }, options.path);
  const child = fork(fileURLToPath(new URL('./paced-child.js', import.meta.url)), { stdio: 'inherit' });
  try {
    const answer = new Promise<PacedResult>((resolve, reject) => {
      child.once('message', (message) => resolve(message as PacedResult));
      child.once('exit', (code) => reject(new Error(`the paced load generator exited with ${code}`)));
    });
    const { url, headers, rate, seconds, sockets } = options;
    child.send({ url, headers, rate, seconds, sockets, warmupPaths: paths(warmupSeconds), paths: paths(seconds) } satisfies PacedJob);
    return await answer;
  } finally {
    child.kill();
  }
}

/** What the child is sent: the paths of the warm-up and of the measured load, in the order they are sent. */
export interface PacedJob extends Omit<PacedOptions, 'path' | 'warmupSeconds'> {
  warmupPaths: string[];
  paths: string[];
}

/** The child's side: the warm-up, then the load it answers for. */
export async function runPacedJob(job: PacedJob): Promise<PacedResult> {
  const next = (paths: string[]) => {
    let at = 0;
    return () => paths[at++ % paths.length]!;
  };
  if (job.warmupPaths.length > 0) await run({ ...job, path: next(job.warmupPaths), seconds: job.warmupPaths.length / job.rate });
  return run({ ...job, path: next(job.paths) });
}

async function run({ url, path, headers, rate, seconds, sockets = 50 }: PacedOptions): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const total = Math.round(rate * seconds);
  let sent = 0;
  let finished = 0;
  let errors = 0;
  const start = performance.now();
  try {
    await new Promise<void>((resolve) => {
      const done = () => {
        finished += 1;
        if (finished === total) resolve();
      };
      const send = (dueAt: number) => {
        const req = request(`${url}${path()}`, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - dueAt);
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            done();
          });
        });
        req.on('error', () => {
          errors += 1;
          done();
        });
        req.end();
      };
      const tick = () => {
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
        for (; sent < due; sent++) send(start + (sent / rate) * 1000);
        if (sent < total) setTimeout(tick, 1);
      };
      tick();
    });
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    answered: latencies.length,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? NaN),
    statuses,
    errors,
  };
}
