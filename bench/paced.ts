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
  /** Each request's headers, drawn with its path, instead of `headers` for all (varied visitors). */
  headersEach?: () => Record<string, string>;
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
 * Runs in a process of its own (bench/paced-child.ts), with the paths and headers drawn here beforehand: a request's
 * latency runs from its due time, so a pause of the load generator counts as the server's. In the bench's own
 * process, whose heap autocannon's rounds had grown, young collections of 8 to 16 ms every third of a second made the
 * p99 (the server's own answers, timed inside it, had a p99 under 10 ms).
 */
export async function pacedGet(options: PacedOptions): Promise<PacedResult> {
  const { warmupSeconds = 1, headersEach = () => options.headers } = options;
  // Each distinct header set is sent to the child once; a request names its set by index.
  const headerSets: Array<Record<string, string>> = [];
  const indexOf = new Map<Record<string, string>, number>();
  const plan = (seconds: number): PlannedLoad => {
    const load: PlannedLoad = { paths: [], headers: [] };
    for (let i = 0; i < Math.round(options.rate * seconds); i++) {
      const headers = headersEach();
      let index = indexOf.get(headers);
      if (index === undefined) indexOf.set(headers, (index = headerSets.push(headers) - 1));
      load.paths.push(options.path());
      load.headers.push(index);
    }
    return load;
  };
  const child = fork(fileURLToPath(new URL('./paced-child.js', import.meta.url)), { stdio: 'inherit' });
  try {
    const answer = new Promise<PacedResult>((resolve, reject) => {
      child.once('message', (message) => resolve(message as PacedResult));
      child.once('exit', (code) => reject(new Error(`the paced load generator exited with ${code}`)));
    });
    const { url, rate, sockets } = options;
    const job: PacedJob = { url, rate, sockets, warmup: plan(warmupSeconds), measured: plan(options.seconds), headerSets };
    child.send(job);
    return await answer;
  } finally {
    child.kill();
  }
}

/** Requests in the order they are sent: each one's path, and its headers as an index into the job's sets. */
interface PlannedLoad {
  paths: string[];
  headers: number[];
}

/** What the child is sent: the warm-up and the measured load, planned. */
export interface PacedJob extends Pick<PacedOptions, 'url' | 'rate' | 'sockets'> {
  warmup: PlannedLoad;
  measured: PlannedLoad;
  headerSets: Array<Record<string, string>>;
}

/**
 * The child's side: the warm-up, then the load it answers for, over the same connections. A measured load that opened
 * its own began with up to 50 new connections at once, and a Node server whose event loop is busy (a write of
 * analytics in slices) accepts one connection a turn: their first requests waited up to 250 ms, which no client
 * of a warmed-up service waits.
 */
export async function runPacedJob(job: PacedJob): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.sockets ?? 50 });
  try {
    if (job.warmup.paths.length > 0) await run(job, job.warmup, agent);
    return await run(job, job.measured, agent);
  } finally {
    agent.destroy();
  }
}

async function run({ url, rate, headerSets }: PacedJob, load: PlannedLoad, agent: Agent): Promise<PacedResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const total = load.paths.length;
  let sent = 0;
  let finished = 0;
  let errors = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const done = () => {
      finished += 1;
      if (finished === total) resolve();
    };
    /** The request at `at` of the load, timed from when it was due. */
    const send = (at: number) => {
      const dueAt = start + (at / rate) * 1000;
      const req = request(`${url}${load.paths[at]}`, { agent, headers: headerSets[load.headers[at]!] }, (res) => {
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
      for (; sent < due; sent++) send(sent);
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
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
