import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { holdRequest, rawRequest } from '../helpers/held-request.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS and KEEP_ALIVE_TIMEOUT_MS on the real server: a client that sends its
 * headers or its body too slowly gets 408 and its connection closed; an idle kept-alive connection is closed.
 * Short values here (1 s, 2 s, 1 s), so each limit shows within a test; Node checks the first two every second.
 */
let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await startServer({ env: { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '1000' } });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server.stop();
});

/** How long after `since` (performance.now()) the held request's connection was closed, and what came back. */
async function closedAfter(held: ReturnType<typeof holdRequest>, since: number) {
  const answer = await held.answer;
  return { answer, ms: performance.now() - since };
}

describe('the server\'s timeouts', () => {
  it('answers 408 and closes the connection when the headers are not all in within HEADERS_TIMEOUT_MS', async () => {
    const held = holdRequest(port, rawRequest(port, 'GET', '/healthz', {}), 20);
    await held.sent;
    const { answer, ms } = await closedAfter(held, performance.now());
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3000);
  });

  it('answers 408 and closes the connection when the body is not all in within REQUEST_TIMEOUT_MS', async () => {
    const request = rawRequest(port, 'POST', '/signin', { 'content-type': 'application/x-www-form-urlencoded' }, 'email=a%40example.com&password=x');
    const held = holdRequest(port, request, request.length - 5);
    await held.sent;
    const { answer, ms } = await closedAfter(held, performance.now());
    expect(answer.status).toBe(408);
    expect(ms).toBeGreaterThanOrEqual(1900);
    expect(ms).toBeLessThan(3500);
  });

  it('closes a kept-alive connection idle for KEEP_ALIVE_TIMEOUT_MS (Node gives it up to a second more), and says so in Keep-Alive', async () => {
    const held = holdRequest(port, rawRequest(port, 'GET', '/healthz', {}), Infinity);
    await held.sent;
    const sent = performance.now();
    const { answer, ms } = await closedAfter(held, sent);
    expect(answer.status).toBe(200);
    expect(answer.headers['keep-alive']).toBe('timeout=1');
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3000);
  });

  it('closes a connection whose answer went out before its body came in, once the request\'s time is up', async () => {
    const body = JSON.stringify({ destination: 'https://example.com/' });
    const request = rawRequest(port, 'POST', '/v1/createLink', { 'content-type': 'application/json', authorization: 'Bearer sl_x' }, body);
    const held = holdRequest(port, request, request.length - 5);
    await held.sent;
    const { answer, ms } = await closedAfter(held, performance.now());
    // The API refuses an unknown token before it reads the body.
    expect(answer.status).toBe(401);
    expect(ms).toBeGreaterThanOrEqual(1900);
    expect(ms).toBeLessThan(3500);
  });
});

describe('the timeouts\' configuration', () => {
  it('defaults to 20 s for headers, 60 s for a request, 65 s for an idle connection and 10 s to close', async () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ headersTimeoutMs: 20_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 65_000, shutdownTimeoutMs: 10_000 });
    const other = await startServer({ env: { HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '60000', KEEP_ALIVE_TIMEOUT_MS: '65000' } });
    try {
      const res = await fetch(`${other.url}/healthz`);
      expect(res.headers.get('keep-alive')).toBe('timeout=65');
      expect(other.app.server).toMatchObject({ headersTimeout: 20_000, requestTimeout: 60_000, keepAliveTimeout: 65_000 });
    } finally {
      await other.stop();
    }
  });

  it('refuses a HEADERS_TIMEOUT_MS above REQUEST_TIMEOUT_MS, and values that are not milliseconds', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '30000', REQUEST_TIMEOUT_MS: '20000' })).toThrow(
      'Bad configuration: HEADERS_TIMEOUT_MS: must not be more than REQUEST_TIMEOUT_MS',
    );
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '-1' })).toThrow(/^Bad configuration: SHUTDOWN_TIMEOUT_MS: /);
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(/^Bad configuration: KEEP_ALIVE_TIMEOUT_MS: /);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/^Bad configuration: REQUEST_TIMEOUT_MS: /);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_MS: '0' }).shutdownTimeoutMs).toBe(0);
  });
});
