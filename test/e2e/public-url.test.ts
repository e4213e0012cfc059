import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runCli } from '../helpers/cli.js';
import { startServer } from '../helpers/server.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/** `PORT` alone (no PUBLIC_URL), as a newcomer runs it: the public address follows the port, and /mcp works. */
let dir: string;
let server: ServerProcess;
let port: number;
let token: string;
let dbPath: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-port-'));
  dbPath = join(dir, 'port.db');
  const json = async (...args: string[]) => JSON.parse((await runCli(dbPath, ...args, '--json')).stdout);
  const person = await json('person', 'add', '--email', 'port@example.com', '--agree-terms');
  const team = await json('team', 'add', '--name', 'Port', '--owner', person.email);
  token = (await json('token', 'create', '--email', person.email, '--team', team.id)).token;
  server = await startServerProcess({ dbPath, env: { PUBLIC_URL: undefined } });
  port = server.port;
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** An MCP initialize POSTed to the server with the given Host header; resolves with the status and body. */
function initializeWithHost(
  host: string,
  { origin, to = port, bearer = token }: { origin?: string; to?: number; bearer?: string } = {},
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host-test', version: '1' } },
  });
  const headers: Record<string, string> = {
    host,
    authorization: `Bearer ${bearer}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(origin ? { origin } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: to, path: '/mcp', method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('PUBLIC_URL follows PORT', () => {
  it('defaults to http://localhost:<PORT>, and an explicit PUBLIC_URL wins', () => {
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
    expect(loadConfig({}).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '4000', PUBLIC_URL: 'https://links.example.com/' }).publicUrl).toBe('https://links.example.com');
  });

  it('logs the address it serves and the database it uses at start', async () => {
    await expect.poll(() => server.log().map((line) => line.msg)).toContain(`database: ${dbPath}`);
    const [serving] = server.log();
    expect(serving).toMatchObject({
      level: 'info',
      msg: `shortlinks serves http://localhost:${port} (listening on 127.0.0.1:${port})`,
      publicUrl: `http://localhost:${port}`,
      address: `127.0.0.1:${port}`,
      database: { kind: 'sqlite', path: dbPath },
    });
  });

  it('names the public address in what it serves: the OpenAPI servers and problem types', async () => {
    const openApi = await (await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).json();
    expect(openApi.servers).toEqual([{ url: `http://localhost:${port}/v1` }]);
    const refused = await (await fetch(`http://127.0.0.1:${port}/v1/nothing`, { method: 'POST' })).json();
    expect(refused.type).toBe(`http://localhost:${port}/docs/errors#not_found`);
  });

  it("the SDK's client connects to /mcp by a loopback spelling and lists the tools", async () => {
    const client = new Client({ name: 'port-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('createLink');
    await client.close();
  });
});

describe('the Host check when PUBLIC_URL is loopback', () => {
  it('accepts every loopback spelling with the public port', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      expect((await initializeWithHost(host)).status, host).toBe(200);
    }
  });

  it('refuses another port or a name that is not loopback, naming PUBLIC_URL and the Host it got', async () => {
    for (const host of [`localhost:${port + 1}`, `evil.example:${port}`, `127.0.0.2:${port}`, 'localhost']) {
      const answer = await initializeWithHost(host);
      expect(answer.status, host).toBe(403);
      expect(JSON.parse(answer.body)).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message:
            `Forbidden: this server's PUBLIC_URL is http://localhost:${port}, but the request was sent to Host "${host}". ` +
            `Connect to http://localhost:${port}/mcp, or set PUBLIC_URL to the address clients use.`,
        },
        id: null,
      });
    }
  });

  it('accepts a browser Origin of any loopback spelling, and refuses a foreign one by name', async () => {
    expect((await initializeWithHost(`127.0.0.1:${port}`, { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    const refused = await initializeWithHost(`127.0.0.1:${port}`, { origin: 'http://evil.example' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error.message).toBe(
      `Forbidden: the Origin "http://evil.example" is not allowed; it must be http://localhost:${port} or one listed in ALLOWED_ORIGINS.`,
    );
  });
});

describe('the Host check when PUBLIC_URL is not loopback', () => {
  it('accepts only the public host: a loopback spelling is refused', async () => {
    const remote = await startServer({ env: { PUBLIC_URL: 'https://links.example.com' } });
    try {
      const remotePort = Number(new URL(remote.url).port);
      const { token: bearer } = await remote.person();
      expect((await initializeWithHost('links.example.com', { to: remotePort, bearer })).status).toBe(200);
      const refused = await initializeWithHost(`127.0.0.1:${remotePort}`, { to: remotePort, bearer });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.message).toContain(`the request was sent to Host "127.0.0.1:${remotePort}"`);
    } finally {
      await remote.stop();
    }
  });
});
