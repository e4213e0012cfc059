import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceMetrics } from '../../src/observability/metrics.js';
import { RedirectLog } from '../../src/observability/redirect-log.js';

/** A logger at `level` whose lines land in `lines`, parsed. */
function loggerInto(lines: Array<Record<string, unknown>>, level: 'info' | 'debug') {
  return pino({ level, base: null, timestamp: false }, { write: (line: string) => void lines.push(JSON.parse(line)) });
}

const GET = { method: 'GET' } as IncomingMessage;
const answer = (statusCode: number) => ({ statusCode }) as ServerResponse;

describe('the redirect summary', () => {
  let lines: Array<Record<string, unknown>>;
  let metrics: ServiceMetrics;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    lines = [];
    metrics = new ServiceMetrics();
  });
  afterEach(() => vi.useRealTimers());

  it('writes, every minute, the redirects by status and the clicks counted since the last summary', () => {
    const log = new RedirectLog(loggerInto(lines, 'info'), metrics);
    for (const status of [302, 302, 404]) log.answered(GET, answer(status), false, null, 'id', performance.now());
    log.answered(GET, answer(200), true, 'link_1', 'id', performance.now());
    metrics.clicksCounted.value += 2;
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual([{ level: 30, surface: 'redirect', seconds: 60, visits: { 302: 2, 404: 1 }, qr: { 200: 1 }, clicks: 2, msg: 'redirects' }]);
    log.answered(GET, answer(302), false, 'link_1', 'id', performance.now());
    vi.advanceTimersByTime(60_000);
    expect(lines[1]).toMatchObject({ visits: { 302: 1 }, qr: {}, clicks: 0 });
    log.close();
  });

  it('writes nothing for a minute without redirects, and the rest when it closes', () => {
    const log = new RedirectLog(loggerInto(lines, 'info'), metrics);
    vi.advanceTimersByTime(120_000);
    expect(lines).toEqual([]);
    log.answered(GET, answer(410), false, 'link_2', 'id', performance.now());
    log.close();
    expect(lines).toEqual([expect.objectContaining({ msg: 'redirects', visits: { 410: 1 } })]);
    vi.advanceTimersByTime(120_000);
    expect(lines).toHaveLength(1);
  });

  it('at info, writes no line per redirect; at debug, one each, naming the link by id', () => {
    const quiet = new RedirectLog(loggerInto(lines, 'info'), metrics);
    quiet.answered(GET, answer(302), false, 'link_3', 'req-1', performance.now());
    expect(lines).toEqual([]);
    quiet.close();
    lines.length = 0;
    const loud = new RedirectLog(loggerInto(lines, 'debug'), metrics);
    loud.answered(GET, answer(302), false, 'link_3', 'req-2', performance.now());
    expect(lines).toEqual([
      { level: 20, requestId: 'req-2', surface: 'redirect', method: 'GET', route: '/:code', operation: 'visit', status: 302, durationMs: 0, link: 'link_3', msg: 'redirect' },
    ]);
    loud.close();
  });

  it('counts into the request metrics, by status, with the time in the histogram', async () => {
    const log = new RedirectLog(loggerInto(lines, 'info'), metrics);
    const started = performance.now();
    vi.advanceTimersByTime(3);
    log.answered(GET, answer(302), false, 'link_4', 'id', started);
    expect(metrics.requests.of('redirect', 'visit', '302').value).toBe(1);
    const seconds = metrics.durations.of('redirect', 'visit');
    expect([seconds.count, seconds.sum]).toEqual([1, 0.003]);
    log.close();
  });
});
