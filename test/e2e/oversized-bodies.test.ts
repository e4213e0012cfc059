import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * Bodies past the size caps, sent chunked (no Content-Length, so the cap is only seen while reading), against the
 * real server process: each gets 413 and the process goes on answering. Once, the first of these killed it.
 */
let dir: string;
let server: ServerProcess;
let port: number;
let scopedToken: string;
let fullToken: string;

async function cliJson(dbPath: string, ...args: string[]) {
  const run = await runCli(dbPath, ...args, '--json');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-oversized-'));
  const dbPath = join(dir, 'oversized.db');
  const person = await cliJson(dbPath, 'person', 'add', '--email', 'big@example.com', '--agree-terms');
  const team = await cliJson(dbPath, 'team', 'add', '--name', 'Big', '--owner', person.email);
  // A token limited to one operation will do: the body is read before the scope is known to be wrong.
  scopedToken = (await cliJson(dbPath, 'token', 'create', '--email', person.email, '--team', team.id, '--scopes', 'listTeams')).token;
  fullToken = (await cliJson(dbPath, 'token', 'create', '--email', person.email, '--team', team.id)).token;
  server = await startServerProcess({ dbPath });
  port = server.port;
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Sent {
  status: number | null;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  error: string | null;
}

/** POSTs `bytes` of body in chunks with no Content-Length; resolves with the answer, or the error that ended it. */
function sendChunked(path: string, bytes: number, headers: Record<string, string>): Promise<Sent> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers });
    let settled = false;
    const settle = (sent: Sent) => {
      if (!settled) (settled = true), resolve(sent);
    };
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => settle({ status: res.statusCode ?? null, headers: res.headers, body, error: null }));
      res.on('error', (error) => settle({ status: res.statusCode ?? null, headers: res.headers, body, error: error.message }));
    });
    req.on('error', (error) => settle({ status: null, headers: {}, body: '', error: error.message }));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    const pump = () => {
      while (written < bytes) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.write('{"pad":"');
    pump();
  });
}

const api = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

async function expectStillServing(): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/listTeams`, { method: 'POST', headers: api(fullToken), body: '{}' });
  expect(res.status).toBe(200);
  expect(server.exitCode()).toBeNull();
  expect(server.output()).not.toMatch(/TypeError|Unhandled|unhandled/);
}

describe('bodies past the size cap, sent chunked', () => {
  it('/v1 answers 413 content_too_large, even on an operation outside the token\'s scopes, and goes on', async () => {
    for (const operation of ['createLink', 'listTeams']) {
      const sent = await sendChunked(`/v1/${operation}`, 600 * 1024, api(scopedToken));
      expect(sent.error).toBeNull();
      expect(sent.status).toBe(413);
      expect(JSON.parse(sent.body)).toMatchObject({
        status: 413,
        code: 'content_too_large',
        detail: 'The body is larger than 512 KiB.',
        field: null,
      });
    }
    await expectStillServing();
  });

  it('/v1 answers 413 content_too_large for a declared Content-Length over the cap, before reading it', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/createLink`, {
      method: 'POST',
      headers: api(fullToken),
      body: JSON.stringify({ pad: 'a'.repeat(600 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ status: 413, code: 'content_too_large', detail: 'The body is larger than 512 KiB.' });
    await expectStillServing();
  });

  it('/mcp answers 413 with a JSON-RPC error and goes on', async () => {
    const headers = { ...api(scopedToken), accept: 'application/json, text/event-stream' };
    const sent = await sendChunked('/mcp', 5 * 1024 * 1024, headers);
    expect(sent.error).toBeNull();
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'The body is larger than 4 MiB.' },
      id: null,
    });
    await expectStillServing();
  });

  it('the web app and OAuth forms answer 413 and the process goes on', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const path of ['/signup', '/signin', '/authorize']) {
      const sent = await sendChunked(path, 200 * 1024, form);
      expect(sent.error, path).toBeNull();
      expect(sent.status, path).toBe(413);
    }
    // The token endpoints answer 413 too, with RFC 6749's JSON error object.
    for (const path of ['/token', '/revoke']) {
      const sent = await sendChunked(path, 200 * 1024, form);
      expect(sent.error, path).toBeNull();
      expect(sent.status, path).toBe(413);
      expect(sent.headers['cache-control'], path).toBe('no-store');
      expect(JSON.parse(sent.body), path).toEqual({ error: 'invalid_request', error_description: 'The body is too large.' });
    }
    // Registration answers 413 with RFC 7591's own error object.
    const sent = await sendChunked('/register', 200 * 1024, { 'content-type': 'application/json' });
    expect(sent.error).toBeNull();
    expect(sent.status).toBe(413);
    expect(sent.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(sent.body)).toEqual({ error: 'invalid_client_metadata', error_description: 'The body must be a JSON object of at most 16 KiB.' });
    await expectStillServing();
  });

  it('a client that hangs up mid-way through a chunked body does not end the process', async () => {
    await new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/v1/createLink', method: 'POST', headers: api(scopedToken) });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(300 * 1024, 'a'));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expectStillServing();
  });
});
