/** The small part of autocannon 8's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
  }

  export interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
    warmup?: { connections?: number; duration?: number };
    /** Stop after this many requests in all instead of after `duration`. */
    amount?: number;
  }

  export interface Histogram {
    average: number;
    mean: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }

  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    /** Every answer that is not 2xx: 1xx, 3xx, 4xx and 5xx together. */
    non2xx: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    /** Answers by exact status code. */
    statusCodeStats: Record<string, { count: number }>;
    /** With a warm-up: its own result. */
    warmup?: Result;
    duration: number;
  }

  export default function autocannon(options: Options): Promise<Result>;
}
