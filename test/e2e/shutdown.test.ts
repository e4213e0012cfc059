import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorSetUp } from '../helpers/cli.js';
import { testDatabase } from '../helpers/database-env.js';
import { holdRequest, rawRequest } from '../helpers/held-request.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * SIGTERM and SIGINT on the real server process (`npm start`'s entry): it stops taking connections, lets the
 * requests in flight finish with their answers (for SHUTDOWN_TIMEOUT_MS at most), writes the click counts, closes
 * the database and exits 0. Requests are held in flight on connections of their own, in their headers or their
 * body, and finished after the signal. Runs on both stores.
 */
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';

let dir: string;
let dbPath: string;
let database: Record<string, string>;
let token: string;
let team: string;
const started: ServerProcess[] = [];

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServerProcess({ dbPath, env: { ...database, ...env } });
  started.push(server);
  return server;
}

async function api(server: ServerProcess, op: string, body: unknown) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const res = await fetch(`http://127.0.0.1:${server.port}/v1/${op}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** A createLink held in flight halfway through its body; sent once the server has read its headers. */
function heldCreate(server: ServerProcess, destination: string) {
  const body = JSON.stringify({ team, destination });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', expect: '100-continue' };
  const request = rawRequest(server.port, 'POST', '/v1/createLink', headers, body);
  return holdRequest(server.port, request, request.length - Math.floor(body.length / 2));
}

/**
 * A browser's visit to a short link held in flight before the end of its headers, on a connection the server has
 * taken. Nothing tells when the server has read those headers; a held createLink sent after it, once the server
 * has read its own, shows that it did (one process reads its connections in the order their data came).
 */
function heldVisit(server: ServerProcess, code: string) {
  const request = rawRequest(server.port, 'GET', `/${code}`, { 'user-agent': BROWSER });
  return holdRequest(server.port, request, request.length - 2, { served: true });
}

/** The process's exit: its code, and how long after `since` (performance.now()) it came. */
function exitOf(server: ServerProcess, since: number): Promise<{ code: number | null; afterMs: number }> {
  return new Promise((resolve) => {
    const done = () => resolve({ code: server.child.exitCode, afterMs: performance.now() - since });
    if (server.child.exitCode !== null) done();
    else server.child.once('exit', done);
  });
}

/**
 * Whether a new connection to the port is refused now. A connection of its own: a fetch would take one of the
 * kept-alive connections of earlier fetches, which closing leaves open until idle, and be answered.
 */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-shutdown-'));
  dbPath = join(dir, 'shutdown.db');
  database = await testDatabase(dbPath);
  ({ team, token } = await operatorSetUp(dbPath, 'shutdown@example.com'));
});
afterAll(async () => {
  // stop() also stops each process's DNS stand-in, so it is called once for every process, exited or not.
  for (const server of started) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('closing on SIGTERM', () => {
  it('finishes the requests in flight with their answers, refuses new connections, keeps every click, exits 0', async () => {
    const server = await start();
    const link = (await api(server, 'createLink', { team, destination: 'https://example.com/clicked' })).body;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${server.port}/${link.code}`, { headers: { 'user-agent': BROWSER }, redirect: 'manual' });
      expect(res.status).toBe(302);
    }
    const visit = heldVisit(server, link.code);
    await visit.sent;
    const upload = heldCreate(server, 'https://example.com/made-while-closing');
    await upload.sent;

    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const exited = exitOf(server, signalled);
    // The listening socket is closed at once; the held requests keep the process running.
    await until(() => refused(server.port));
    expect(server.exitCode()).toBeNull();

    upload.finish();
    visit.finish();
    const made = await upload.answer;
    expect(made.status).toBe(200);
    expect(made.headers.connection).toBe('close');
    expect(JSON.parse(made.body)).toMatchObject({ destination: 'https://example.com/made-while-closing', state: 'active' });
    const visited = await visit.answer;
    expect(visited.status).toBe(302);
    expect(visited.headers.location).toBe('https://example.com/clicked');

    expect(await exited).toMatchObject({ code: 0 });
    expect(server.output()).toContain('SIGTERM: closing');
    expect(server.output()).not.toContain('cut off');

    // Everything answered is there after a restart: the link made while closing, and all 4 clicks, the one answered
    // while closing included.
    const again = await start();
    expect((await api(again, 'getLink', { code: JSON.parse(made.body).code })).status).toBe(200);
    expect((await api(again, 'linkClicks', { code: link.code })).body.last7).toBe(4);
  });

  it('cuts off a request still running at the deadline (SHUTDOWN_TIMEOUT_MS) and exits 0 right after it, on SIGINT too', async () => {
    const server = await start({ SHUTDOWN_TIMEOUT_MS: '1000' });
    const stalled = heldCreate(server, 'https://example.com/never-finished');
    await stalled.sent;
    const signalled = performance.now();
    server.child.kill('SIGINT');
    const { code, afterMs } = await exitOf(server, signalled);
    expect(code).toBe(0);
    expect(afterMs).toBeGreaterThanOrEqual(1000);
    // Closing after the cut-off (the clicks written, the store closed) takes a few hundred ms on an idle machine; on
    // PostgreSQL under a full test run it once took 1.7 s. Waiting for the next request to end would take far longer.
    expect(afterMs).toBeLessThan(3000);
    expect((await stalled.answer).status).toBeNull();
    expect(server.output()).toContain('SIGINT: closing');
    expect(server.output()).toContain('closing: cut off 1 request still running after 1000 ms');
  });

  it('ends an MCP session\'s listening stream at once rather than waiting for the deadline', async () => {
    const server = await start();
    const mcp = `http://127.0.0.1:${server.port}/mcp`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'listener', version: '1' } };
    const opened = await fetch(mcp, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params }) });
    expect(opened.status).toBe(200);
    await opened.text();
    const session = { ...headers, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    const initialized = await fetch(mcp, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    expect(initialized.status).toBe(202);
    const stream = await fetch(mcp, { headers: { ...session, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const signalled = performance.now();
    server.child.kill('SIGTERM');
    // The stream ends cleanly (no error reading it), and the process exits well before the 10 s deadline.
    await stream.text();
    const { code, afterMs } = await exitOf(server, signalled);
    expect(code).toBe(0);
    expect(afterMs).toBeLessThan(3000);
    expect(server.output()).not.toContain('cut off');
  });

  it('resets no kept-alive connection: busy ones are answered with Connection: close, idle ones closed while idle', async () => {
    const server = await start();
    const outcomes = new Map<string, number>();
    const note = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    /** A GET /healthz on `agent`'s kept-alive connections: its status and Connection, or its error's code. */
    const get = (agent: Agent) =>
      new Promise<string>((resolve) => {
        const req = request({ host: '127.0.0.1', port: server.port, path: '/healthz', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(`${res.statusCode} ${res.headers.connection}`));
          res.on('error', (error: NodeJS.ErrnoException) => resolve(String(error.code)));
        });
        req.on('error', (error: NodeJS.ErrnoException) => resolve(String(error.code)));
        req.end();
      });
    // 30 connections each sending its next request as soon as the last is answered, until one is refused (the
    // listener is closed) or fails; and 20 left idle after one request each.
    const busy = new Agent({ keepAlive: true, maxSockets: 30 });
    const idle = new Agent({ keepAlive: true, maxSockets: 20 });
    let answered = 0;
    const loops = Array.from({ length: 30 }, async () => {
      for (;;) {
        const outcome = await get(busy);
        if (outcome === '200 keep-alive') answered += 1;
        else note(outcome);
        if (!outcome.startsWith('200 ')) return;
      }
    });
    expect(await Promise.all(Array.from({ length: 20 }, () => get(idle)))).toEqual(Array(20).fill('200 keep-alive'));
    await until(async () => answered >= 100);

    const signalled = performance.now();
    server.child.kill('SIGTERM');
    // Requests on the idle connections, sent as closing begins: each is answered (200 when it came before the
    // process took the signal, with Connection: close when still in flight then), or finds its connection closed
    // while idle and is refused on a new one; none is reset.
    const late = await Promise.all(Array.from({ length: 20 }, () => get(idle)));
    await Promise.all(loops);
    expect(await exitOf(server, signalled)).toMatchObject({ code: 0 });
    busy.destroy();
    idle.destroy();
    // A request in flight or arriving on a busy connection was answered (200 then, 503 once closing) with
    // Connection: close; the next, on a new connection, was refused. Before, every busy connection was reset.
    expect([...outcomes.keys()].filter((outcome) => !['200 close', '503 close', 'ECONNREFUSED'].includes(outcome))).toEqual([]);
    expect((outcomes.get('200 close') ?? 0) + (outcomes.get('503 close') ?? 0)).toBeGreaterThan(0);
    expect((outcomes.get('503 close') ?? 0) + (outcomes.get('ECONNREFUSED') ?? 0)).toBe(30);
    expect(late.filter((outcome) => !['200 keep-alive', '200 close', '503 close', 'ECONNREFUSED'].includes(outcome))).toEqual([]);
  });

  it('with WORKERS=2, passes the signal to the workers, which finish their requests in flight; the primary exits 0', async () => {
    const server = await start({ WORKERS: '2' });
    const uploads = [heldCreate(server, 'https://example.com/w1'), heldCreate(server, 'https://example.com/w2')];
    await Promise.all(uploads.map((upload) => upload.sent));
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const exited = exitOf(server, signalled);
    await until(() => refused(server.port));
    expect(server.exitCode()).toBeNull();
    for (const upload of uploads) upload.finish();
    const answers = await Promise.all(uploads.map((upload) => upload.answer));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    // Round-robin handed the two connections to the two workers.
    expect(new Set(answers.map((answer) => answer.headers['x-served-by'])).size).toBe(2);
    expect(await exited).toMatchObject({ code: 0 });
    expect(server.output()).toContain('SIGTERM: closing 2 workers');
    expect(server.output()).not.toContain('while closing');
  });
});

/** Waits (5 s at most) until `done` resolves true. */
async function until(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(await done()).toBe(true);
}
