import autocannon, { type Request, type Result } from 'autocannon';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { asLoadGenerator } from './pin.js';

export interface LoadOptions {
  url: string;
  path: string;
  headers: Record<string, string>;
  /** A fixed body, or one made afresh for every request. */
  body: string | (() => string);
  /** Headers made afresh for every request, over `headers` (a token per request, for many callers at once). */
  headersEach?: () => Record<string, string>;
  connections?: number;
  seconds?: number;
  warmupSeconds?: number;
}

export interface LoadResult {
  rps: number;
  /** The slowest and fastest second of the run. */
  rpsMin: number;
  rpsMax: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  /** Completed answers in the measured seconds. */
  total: number;
  /** Completed answers in the warm-up. */
  warmupTotal: number;
}

/** autocannon under load: `connections` at pipelining 1 for `seconds` after a warm-up. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const { url, path, headers, body, headersEach, connections = 50, seconds = 8, warmupSeconds = 2 } = options;
  const base: Request = { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers } };
  const requests: Request[] =
    typeof body === 'string' && !headersEach
      ? [{ ...base, body }]
      : [
          {
            ...base,
            setupRequest: (req) => ({
              ...req,
              body: typeof body === 'string' ? body : body(),
              ...(headersEach ? { headers: { ...req.headers, ...headersEach() } } : {}),
            }),
          },
        ];
  const result = await asLoadGenerator(() => autocannon({
    url,
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    requests,
    warmup: { connections, duration: warmupSeconds },
  }));
  return {
    rps: result.requests.average,
    rpsMin: result.requests.min,
    rpsMax: result.requests.max,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: answers(result.statusCodeStats),
    warmupTotal: answers(result.warmup?.statusCodeStats),
  };
}

function answers(stats: Result['statusCodeStats'] | undefined): number {
  return Object.values(stats ?? {}).reduce((sum, { count }) => sum + count, 0);
}

/** User + system CPU time of a process so far, in microseconds (from /proc, 100 ticks a second; Linux). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

export interface Latencies {
  n: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Set<number>;
  /** The last answer, to check it. */
  lastBody: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function post(url: string, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** One request at a time over one kept-alive connection: `count` requests (after 20 unmeasured), at most `maxMs`. */
export async function sequential(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  count = 300,
  maxMs = 30_000,
): Promise<Latencies> {
  for (let i = 0; i < 20; i++) await post(url, path, headers, body);
  const times: number[] = [];
  const statuses = new Set<number>();
  let lastBody = '';
  const started = performance.now();
  while (times.length < count && performance.now() - started < maxMs) {
    const t0 = performance.now();
    const answer = await post(url, path, headers, body);
    times.push(performance.now() - t0);
    statuses.add(answer.status);
    lastBody = answer.body;
  }
  times.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? 0, statuses, lastBody };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One request, to check a server answers what it should before loading it. */
export function once(url: string, path: string, headers: Record<string, string>, body: string) {
  return post(url, path, headers, body);
}

export const int = (n: number) => Math.round(n).toLocaleString('en-US');
export const pct = (a: number, b: number) => `${Math.round((100 * a) / b)}%`;
export const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

/** Lets the process exit: drops the kept-alive connection. */
export function closeClients(): void {
  agent.destroy();
}

export interface GetLoadOptions {
  url: string;
  /** One path for every request, or a function drawing the path of each request. */
  path: string | (() => string);
  headers: Record<string, string>;
  /** Instead of `headers` for each request: headers drawn afresh (varied visitors, for the analytics section). */
  headersEach?: () => Record<string, string>;
  connections?: number;
  seconds?: number;
  warmupSeconds?: number;
  /** Send this many requests in all (no warm-up) instead of running for `seconds`. */
  amount?: number;
  /** Requests per second in all, at most (autocannon's overallRate); unset, as fast as the server answers. */
  rate?: number;
}

export interface GetLoadResult extends LoadResult {
  /** Answers by status code class, and by exact code (e.g. { 302: 80000 }). */
  byClass: { '1xx': number; '2xx': number; '3xx': number; '4xx': number; '5xx': number };
  byStatus: Record<string, number>;
}

/**
 * autocannon GET (no body) under load: `connections` at pipelining 1 for `seconds` after a warm-up. autocannon's
 * `non2xx` counts 3xx too, so the result keeps every class apart; latencies are of every answer.
 */
export async function loadGet(options: GetLoadOptions): Promise<GetLoadResult> {
  const { url, path, headers, headersEach, connections = 50, seconds = 8, warmupSeconds = 2, amount, rate } = options;
  const base: Request = { method: 'GET', path: typeof path === 'string' ? path : path(), headers };
  const pathOf = typeof path === 'string' ? () => path : path;
  const requests: Request[] =
    typeof path === 'string' && !headersEach
      ? [base]
      : // autocannon hands setupRequest a fresh copy of the request each time: setting its path (and headers) is enough.
        [{ ...base, setupRequest: (req) => Object.assign(req, headersEach ? { path: pathOf(), headers: headersEach() } : { path: pathOf() }) }];
  const result = await asLoadGenerator(() => autocannon({
    url,
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    requests,
    ...(amount ? { amount } : { warmup: { connections, duration: warmupSeconds } }),
    ...(rate ? { overallRate: rate } : {}),
  }));
  const byClass = { '1xx': result['1xx'], '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'], '5xx': result['5xx'] };
  const byStatus = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  return {
    rps: result.requests.average,
    rpsMin: result.requests.min,
    rpsMax: result.requests.max,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'] + result['3xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    byClass,
    byStatus,
    total: answers(result.statusCodeStats),
    warmupTotal: answers(result.warmup?.statusCodeStats),
  };
}

/** One GET, to check what a server answers (status and headers) before loading it. */
export function getOnce(
  url: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'GET', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}
