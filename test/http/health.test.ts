import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHealth, type Health } from '../../src/http/health.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

/**
 * The states of /healthz that a running server cannot be brought into from outside without closing it: a
 * database connection already closed, and a process that began closing. On a real store and a real HTTP server.
 */
let server: Server | undefined;

afterEach(async () => {
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/** Requests the server has taken so far. */
let taken = 0;

async function serve(health: Health): Promise<string> {
  taken = 0;
  server = createServer((req, res) => {
    taken++;
    void health.answer(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`;
}

const PUBLIC_URL = 'http://links.test';

describe('createHealth', () => {
  it('answers 503 once the database connection is closed', async () => {
    const store = openSqliteStore(':memory:');
    const lines: string[] = [];
    const url = await serve(createHealth({ ready: () => store.ready(), publicUrl: PUBLIC_URL, log: (line) => lines.push(line) }));
    expect((await fetch(url)).status).toBe(200);
    await store.close();
    const res = await fetch(url);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await res.json()).toEqual({
      type: `${PUBLIC_URL}/docs/errors#service_unavailable`,
      title: 'Service unavailable',
      status: 503,
      code: 'service_unavailable',
      detail: 'The service cannot reach its database.',
      field: null,
    });
    expect(lines).toEqual(['health: the database cannot serve (The database connection is not open); /healthz answers 503']);
  });

  it('answers 503 from the moment the process begins closing, the database still open', async () => {
    const store = openSqliteStore(':memory:');
    try {
      const health = createHealth({ ready: () => store.ready(), publicUrl: PUBLIC_URL });
      const url = await serve(health);
      expect((await fetch(url)).status).toBe(200);
      health.closing();
      const res = await fetch(url);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'service_unavailable', detail: 'The service is shutting down.' });
    } finally {
      await store.close();
    }
  });

  it('gives one answer to every probe while one check runs, and checks again after it', async () => {
    let checks = 0;
    let release = () => {};
    const ready = () => {
      checks++;
      return new Promise<void>((resolve) => (release = resolve));
    };
    const url = await serve(createHealth({ ready, publicUrl: PUBLIC_URL }));
    const probes = Promise.all(Array.from({ length: 5 }, () => fetch(url)));
    // Every probe in before the check ends (a fixed wait let late ones start a second check on a loaded runner).
    await vi.waitFor(() => expect(taken).toBe(5), { timeout: 5_000, interval: 10 });
    release();
    expect((await probes).map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(checks).toBe(1);
    const next = fetch(url);
    await vi.waitFor(() => expect(checks).toBe(2), { timeout: 5_000, interval: 10 });
    release();
    expect((await next).status).toBe(200);
    expect(checks).toBe(2);
  });
});
