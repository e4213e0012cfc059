/**
 * The MCP surface end to end: the SDK's own Client over real HTTP against the real server (loopback, SQLite file).
 * Raw `fetch` (or `node:http`, for a forged Host) only where the SDK cannot express the case. What each tool
 * answers through MCP is test/mcp/tool-calls.test.ts's, in process.
 * Checklist: shared/research/mcp-oauth.md sections 2 (R6–R9) and 4 (T1–T6); docs/behaviour.md "Assistants (MCP)".
 */
import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { tools as registry } from '../../src/tools/index.js';
import { problemOf as problemAt, tool, type ToolResult } from '../helpers/mcp-results.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';

const PROTOCOL = '2025-11-25';

let server: TestServer;
let mcpUrl: URL;
const open: Client[] = [];

beforeAll(async () => {
  server = await startServer();
  mcpUrl = new URL(`${server.url}/mcp`);
});
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((client) => client.close()));
});
afterAll(() => server.stop());

// ---------------------------------------------------------------------------------------------------------------
// Helpers

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

/** An SDK client connected as the token's person. */
async function connect(token: string): Promise<Connected> {
  const client = new Client({ name: 'e2e', version: '1' });
  const transport = new StreamableHTTPClientTransport(mcpUrl, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  open.push(client);
  return { client, transport };
}

/** A failed result, its problem's type under this server's address (mcp-results.ts). */
function problemOf(result: ToolResult): any {
  return problemAt(result, server.url);
}

const initializeBody = (id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const listBody = (id: number | string = 2) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

/** A raw POST /mcp as a Streamable HTTP client would send it. */
async function post(
  body: unknown,
  options: { token?: string; session?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.session ? { 'mcp-session-id': options.session } : {}),
      ...options.headers,
    },
    body: JSON.stringify(body),
  });
}

/** The JSON-RPC message of an answer, whether it came as JSON or as one SSE event. */
async function rpcMessage(res: Response): Promise<any> {
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice('data:'.length).trim())
      .find((line) => line !== '');
    return data === undefined ? undefined : JSON.parse(data);
  }
  return text === '' ? undefined : JSON.parse(text);
}

/** A raw request with `node:http`, which (unlike fetch) lets a test forge the Host header. */
function rawRequest(
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: mcpUrl.hostname, port: Number(mcpUrl.port), path: '/mcp', method, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function headerList(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '');
}

// ---------------------------------------------------------------------------------------------------------------

describe('initialize', () => {
  it('names the server, negotiates 2025-11-25, offers tools and tells the assistant to ask before deleting', async () => {
    const alice = await server.person();
    const { client, transport } = await connect(alice.token);
    expect(client.getServerVersion()?.name).toBe('shortlinks');
    expect(transport.protocolVersion).toBe(PROTOCOL);
    expect(transport.sessionId).toMatch(/^[\w-]{16,}$/);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/delet/i);
    expect(client.getInstructions()).toContain(`${server.url}/<code>`);
  });

  it('answers a raw initialize with protocolVersion 2025-11-25 and a session id header', async () => {
    const alice = await server.person();
    const res = await post(initializeBody(), { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeTruthy();
    const message = await rpcMessage(res);
    expect(message.result.protocolVersion).toBe(PROTOCOL);
    expect(message.result.serverInfo.name).toBe('shortlinks');
  });

  it('an initialize whose MCP-Protocol-Version header names a version not served: HTTP 400, and no session', async () => {
    const alice = await server.person();
    const res = await post(initializeBody(), { token: alice.token, headers: { 'mcp-protocol-version': '1900-01-01' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Bad Request: Unsupported protocol version: 1900-01-01 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)' },
    });
    // One the server speaks, even another than the body's, is no fault: the body's protocolVersion is negotiated.
    const older = await post(initializeBody(), { token: alice.token, headers: { 'mcp-protocol-version': '2025-06-18' } });
    expect(older.status).toBe(200);
    expect((await rpcMessage(older)).result.protocolVersion).toBe(PROTOCOL);
  });

  const malformed: [string, unknown, string][] = [
    ['no params', undefined, 'protocolVersion: Invalid input: expected string, received undefined; capabilities: Invalid input: expected object, received undefined; clientInfo: Invalid input: expected object, received undefined'],
    ['a protocolVersion that is a number', { ...initializeBody().params, protocolVersion: 5 }, 'protocolVersion: Invalid input: expected string, received number'],
    ['capabilities that are a list', { ...initializeBody().params, capabilities: [] }, 'capabilities: Invalid input: expected object, received array'],
    ['a clientInfo without a version', { ...initializeBody().params, clientInfo: { name: 'raw' } }, 'clientInfo.version: Invalid input: expected string, received undefined'],
  ];

  it.each(malformed)('an initialize with %s: HTTP 400, invalid params (-32602) naming the field, and no session', async (_, params, why) => {
    const alice = await server.person();
    const res = await post({ ...initializeBody(), params }, { token: alice.token });
    expect(res.status).toBe(400);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32602, message: `Invalid params for initialize: ${why}` } });
  });

  it('an initialize again inside a session: malformed is invalid params (-32602), whole is "already initialized"; the session goes on', async () => {
    const alice = await server.person();
    const session = (await post(initializeBody(), { token: alice.token })).headers.get('mcp-session-id')!;
    const bad = await post({ ...initializeBody(3), params: {} }, { token: alice.token, session });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe(-32602);
    // In a batch, beside a good request, too: the SDK would answer the good one and fault on the other (-32603).
    const batch = await post([listBody(4), { ...initializeBody(5), params: { capabilities: {} } }], { token: alice.token, session });
    expect(batch.status).toBe(400);
    expect((await batch.json()).error.message).toMatch(/^Invalid params for initialize: protocolVersion: /);
    const again = await post(initializeBody(6), { token: alice.token, session });
    expect(again.status).toBe(400);
    expect((await rpcMessage(again)).error).toMatchObject({ code: -32600, message: 'Invalid Request: Server already initialized' });
    const listed = await post(listBody(7), { token: alice.token, session });
    expect(listed.status).toBe(200);
    expect((await rpcMessage(listed)).result.tools).toHaveLength(registry.length);
  });
});

describe('errors', () => {
  let alice: Actor;
  let client: Client;
  beforeAll(async () => {
    alice = await server.person();
  });

  it('a bad name is an isError result holding the HTTP API\'s problem', async () => {
    client = (await connect(alice.token)).client;
    const input = { team: alice.teamId, destination: 'https://example.com/', name: 'No Capitals!' };
    const result = await tool(client, 'createLink', input);
    const problem = problemOf(result);
    expect(problem).toMatchObject({ status: 400, code: 'invalid_name', field: 'name', title: 'Invalid name' });
    const http = await call(server, 'createLink', input, alice.token);
    expect(http.status).toBe(400);
    expect(problem).toEqual(http.body);
  });

  it('an input of the wrong type is bad_request naming the field, as over HTTP', async () => {
    client = (await connect(alice.token)).client;
    const input = { team: alice.teamId, destination: 42 };
    const problem = problemOf(await tool(client, 'createLink', input));
    expect(problem).toMatchObject({ status: 400, code: 'bad_request', field: 'destination' });
    const http = await call(server, 'createLink', input, alice.token);
    expect(problem).toEqual(http.body);
  });

  it("a link's name given to linkByCode: the problem says what a code is and how to find a name, as over HTTP", async () => {
    client = (await connect(alice.token)).client;
    const byName = "to find a link by its name, search the team's links for it: listLinks with q (teamLinks for an assistant)";
    const long = problemOf(await tool(client, 'linkByCode', { code: 'team-handbook' }));
    expect(long).toMatchObject({ status: 400, code: 'bad_request', field: 'code' });
    expect(long.detail).toBe(`code is a link's 7-character code, not its name; ${byName}.`);
    expect(long).toEqual((await call(server, 'getLink', { code: 'team-handbook' }, alice.token)).body);
    const seven = problemOf(await tool(client, 'linkByCode', { code: 'go-docs' }));
    expect(seven).toMatchObject({ status: 404, code: 'not_found', field: 'code' });
    expect(seven.detail).toBe(`No link has that code: codes are 7 characters of A-Z, a-z and 0-9; ${byName}.`);
    expect(seven).toEqual((await call(server, 'getLink', { code: 'go-docs' }, alice.token)).body);
  });
});

describe('sessions (R8, R9)', () => {
  it("another person's session id answers 404 Session not found, and the owner keeps the session", async () => {
    const alice = await server.person();
    const mallory = await server.person();
    const { transport } = await connect(alice.token);
    const session = transport.sessionId!;
    const stolen = await post(listBody(), { token: mallory.token, session });
    expect(stolen.status).toBe(404);
    expect((await rpcMessage(stolen)).error.message).toMatch(/session not found/i);
    const own = await post(listBody(), { token: alice.token, session });
    expect(own.status).toBe(200);
    expect((await rpcMessage(own)).result.tools).toHaveLength(registry.length);
  });

  it('an unknown session id answers 404', async () => {
    const alice = await server.person();
    const res = await post(listBody(), { token: alice.token, session: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d' });
    expect(res.status).toBe(404);
    expect((await rpcMessage(res)).error.message).toMatch(/session not found/i);
  });

  it('a request other than initialize without a session answers 400', async () => {
    const alice = await server.person();
    const res = await post(listBody(), { token: alice.token });
    expect(res.status).toBe(400);
    expect((await rpcMessage(res)).error).toBeDefined();
  });

  it('DELETE ends the session; the id then answers 404', async () => {
    const alice = await server.person();
    const { transport } = await connect(alice.token);
    const session = transport.sessionId!;
    expect((await post(listBody(), { token: alice.token, session })).status).toBe(200);
    const ended = await fetch(mcpUrl, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${alice.token}`, 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL },
    });
    expect(ended.status).toBe(200);
    const after = await post(listBody(), { token: alice.token, session });
    expect(after.status).toBe(404);
  });

  it('another person cannot DELETE a session', async () => {
    const alice = await server.person();
    const mallory = await server.person();
    const { transport } = await connect(alice.token);
    const session = transport.sessionId!;
    const ended = await fetch(mcpUrl, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${mallory.token}`, 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL },
    });
    expect(ended.status).toBe(404);
    expect((await post(listBody(), { token: alice.token, session })).status).toBe(200);
  });
});

describe('transport (T1)', () => {
  it('answers a notification with 202', async () => {
    const alice = await server.person();
    const { transport } = await connect(alice.token);
    const res = await post(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { token: alice.token, session: transport.sessionId! },
    );
    expect(res.status).toBe(202);
  });

  it('refuses an unsupported MCP-Protocol-Version with 400', async () => {
    const alice = await server.person();
    const { transport } = await connect(alice.token);
    const res = await post(listBody(), {
      token: alice.token,
      session: transport.sessionId!,
      headers: { 'mcp-protocol-version': '1999-01-01' },
    });
    expect(res.status).toBe(400);
  });
});

describe('authentication (R3)', () => {
  it('no token: 401 with a Bearer challenge', async () => {
    const res = await post(initializeBody());
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer/);
    expect(res.headers.get('content-type') ?? '').toContain('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 401, code: 'invalid_token' });
  });

  it('a bad token: 401 with a Bearer challenge', async () => {
    const res = await post(initializeBody(), { token: 'sl_not-a-real-token' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer/);
    expect(await res.json()).toMatchObject({ status: 401, code: 'invalid_token' });
  });

  it('the SDK client cannot connect without a token', async () => {
    const client = new Client({ name: 'anon', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(mcpUrl))).rejects.toThrow();
  });

  it('a person who has not agreed to the terms: 403 first_step as problem+json', async () => {
    const newcomer = await server.person({ agreed: false });
    const res = await post(initializeBody(), { token: newcomer.token });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type') ?? '').toContain('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 403, code: 'first_step' });
  });
});

describe('Origin and Host (R7, DNS rebinding)', () => {
  it('refuses a foreign Origin with 403', async () => {
    const alice = await server.person();
    const res = await post(initializeBody(), { token: alice.token, headers: { origin: 'http://evil.example' } });
    expect(res.status).toBe(403);
  });

  it('refuses a foreign Origin before authentication', async () => {
    const res = await post(initializeBody(), { headers: { origin: 'http://evil.example' } });
    expect(res.status).toBe(403);
  });

  it("accepts the service's own Origin", async () => {
    const alice = await server.person();
    const res = await post(initializeBody(), { token: alice.token, headers: { origin: server.url } });
    expect(res.status).not.toBe(403);
    expect(res.status).toBe(200);
  });

  it('refuses its own host name under another port or scheme: an origin is its scheme, host and port together', async () => {
    const alice = await server.person();
    const own = new URL(server.url);
    for (const origin of [`${own.protocol}//${own.hostname}:${Number(own.port) + 1}`, `https://${own.host}`]) {
      const res = await post(initializeBody(), { token: alice.token, headers: { origin } });
      expect(res.status, origin).toBe(403);
    }
  });

  it('refuses a wrong Host with 403', async () => {
    const alice = await server.person();
    const res = await rawRequest(
      'POST',
      {
        host: `evil.example:${mcpUrl.port}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${alice.token}`,
      },
      JSON.stringify(initializeBody()),
    );
    expect(res.status).toBe(403);
  });

  it('accepts the right Host through node:http too (the 403 above is about the Host)', async () => {
    const alice = await server.person();
    const res = await rawRequest(
      'POST',
      {
        host: mcpUrl.host,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${alice.token}`,
      },
      JSON.stringify(initializeBody()),
    );
    expect(res.status).toBe(200);
  });
});

describe('CORS (R6)', () => {
  it('answers a preflight before authentication', async () => {
    const res = await fetch(mcpUrl, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeTruthy();
    const allowed = headerList(res.headers.get('access-control-allow-headers'));
    // The last two are what a browser sends on every 2026-07-28 request.
    for (const name of ['authorization', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'mcp-method', 'mcp-name']) {
      expect(allowed, name).toContain(name);
    }
    expect(headerList(res.headers.get('access-control-allow-methods'))).toEqual(
      expect.arrayContaining(['post', 'get', 'delete']),
    );
  });

  it('exposes WWW-Authenticate and Mcp-Session-Id on answers to a browser', async () => {
    const alice = await server.person();
    const headers = { origin: new URL(mcpUrl).origin };
    for (const res of [await post(initializeBody(), { headers }), await post(initializeBody(), { token: alice.token, headers })]) {
      const exposed = headerList(res.headers.get('access-control-expose-headers'));
      expect(exposed).toContain('www-authenticate');
      expect(exposed).toContain('mcp-session-id');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('sends no CORS headers to a client that names no Origin', async () => {
    const alice = await server.person();
    const res = await post(initializeBody(), { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toBeNull();
  });
});

describe('rate limit headers', () => {
  it('sends RateLimit and RateLimit-Policy on /mcp answers, counting down', async () => {
    const alice = await server.person();
    const first = await post(initializeBody(), { token: alice.token });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toMatch(/^"minute";q=\d+;w=60$/);
    expect(first.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
    const session = first.headers.get('mcp-session-id')!;
    const second = await post(listBody(), { token: alice.token, session });
    expect(second.status).toBe(200);
    const left = (res: Response) => Number(/r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);
    expect(left(second)).toBe(left(first) - 1);
  });

  it('sends them on refusals too', async () => {
    const res = await post(initializeBody(), { token: 'sl_not-a-real-token' });
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit')).toBeTruthy();
    expect(res.headers.get('ratelimit-policy')).toBeTruthy();
  });
});
