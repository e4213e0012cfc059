/**
 * The MCP surface end to end: the SDK's own Client over real HTTP against the real server (loopback, SQLite file).
 * Raw `fetch` (or `node:http`, for a forged Host) only where the SDK cannot express the case.
 * Checklist: shared/research/mcp-oauth.md sections 2 (R6–R9) and 4 (T1–T6); docs/behaviour.md "Assistants (MCP)".
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  McpError,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';

const PROTOCOL = '2025-11-25';
const TOOL_NAMES = [
  'myTeams',
  'teamLinks',
  'linkByCode',
  'linkClicks',
  'createLink',
  'createLinks',
  'changeDestination',
  'setNote',
  'renameLink',
  'deleteLink',
  'askForReview',
  'reportLink',
];
const READS = ['myTeams', 'teamLinks', 'linkByCode', 'linkClicks'];
const PROBLEM_KEYS = ['code', 'detail', 'field', 'status', 'title', 'type'];

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

/** An SDK client connected as the token's person; with `elicit`, it declares form elicitation and answers with it. */
async function connect(
  token: string,
  elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>,
): Promise<Connected> {
  const client = elicit
    ? new Client({ name: 'e2e-elicit', version: '1' }, { capabilities: { elicitation: { form: {} } } })
    : new Client({ name: 'e2e', version: '1' });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (req) => elicit(req));
  const transport = new StreamableHTTPClientTransport(mcpUrl, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  open.push(client);
  return { client, transport };
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

function textsOf(result: ToolResult): string[] {
  const content = result.content as Array<{ type: string; text?: string }>;
  expect(content.every((block) => block.type === 'text')).toBe(true);
  return content.map((block) => block.text!);
}

function textOf(result: ToolResult): string {
  const texts = textsOf(result);
  expect(texts).toHaveLength(1);
  return texts[0]!;
}

/** A successful result: structuredContent, a first text block holding the same JSON, and, when the result returns
 * links, a second one naming their addresses (test/e2e/mcp-addresses.test.ts checks it). */
function ok(result: ToolResult): any {
  expect(result.isError ?? false, `unexpected error result: ${JSON.stringify(result.content)}`).toBe(false);
  expect(result.structuredContent).toBeTypeOf('object');
  expect(result.structuredContent).not.toBeNull();
  const texts = textsOf(result);
  expect(texts.length).toBeLessThanOrEqual(2);
  expect(JSON.parse(texts[0]!)).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** A failed result: isError with the HTTP API's problem body as JSON text. */
function problemOf(result: ToolResult): any {
  expect(result.isError, `expected an error result, got ${JSON.stringify(result)}`).toBe(true);
  const problem = JSON.parse(textOf(result));
  expect(Object.keys(problem).sort()).toEqual(PROBLEM_KEYS);
  expect(problem.type).toBe(`${server.url}/docs/errors#${problem.code}`);
  expect(problem.title).toBeTypeOf('string');
  expect(problem.detail).toBeTypeOf('string');
  return problem;
}

async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return client.callTool({ name, arguments: args });
}

async function newLink(client: Client, team: string, fields: Record<string, unknown> = {}): Promise<any> {
  return ok(await tool(client, 'createLink', { team, destination: 'https://example.com/page', ...fields }));
}

let nameCounter = 0;
const uniqueName = (base: string) => `${base}-${process.pid}-${++nameCounter}`;

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
    expect((await rpcMessage(listed)).result.tools).toHaveLength(12);
  });
});

describe('tools/list', () => {
  let tools: Awaited<ReturnType<Client['listTools']>>['tools'];
  beforeAll(async () => {
    const alice = await server.person();
    const { client } = await connect(alice.token);
    tools = (await client.listTools()).tools;
    await client.close();
  });

  it('lists exactly the 12 tools, in registry order', () => {
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
  });

  it('gives every tool a valid name, title, description, closed input schema, object output schema and four boolean annotations', () => {
    for (const t of tools) {
      const where = `tool ${t.name}`;
      expect(t.name, where).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
      expect(t.title, where).toBeTypeOf('string');
      expect(t.title!.length, where).toBeGreaterThan(0);
      expect(t.description, where).toBeTypeOf('string');
      expect(t.description!.length, where).toBeGreaterThan(20);
      expect(t.inputSchema.type, where).toBe('object');
      expect((t.inputSchema as any).additionalProperties, where).toBe(false);
      expect(t.outputSchema?.type, where).toBe('object');
      const annotations = t.annotations ?? {};
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(annotations[hint], `${where} ${hint}`).toBeTypeOf('boolean');
      }
    }
  });

  it('marks reads read-only and not destructive, what overwrites destructive, and deleteLink taking confirm', () => {
    for (const name of READS) {
      const t = tools.find((x) => x.name === name)!;
      expect(t.annotations?.readOnlyHint, name).toBe(true);
      expect(t.annotations?.destructiveHint, name).toBe(false);
      expect(t.annotations?.openWorldHint, name).toBe(false);
    }
    for (const t of tools.filter((x) => !READS.includes(x.name))) {
      expect(t.annotations?.readOnlyHint, t.name).toBe(false);
    }
    const del = tools.find((t) => t.name === 'deleteLink')!;
    expect(del.annotations?.destructiveHint).toBe(true);
    expect(del.annotations?.idempotentHint).toBe(true);
    expect(del.inputSchema.properties).toHaveProperty('confirm');
    expect((del.inputSchema.properties as any).confirm.type).toBe('boolean');
    expect(del.inputSchema.required ?? []).not.toContain('confirm');
    // MCP: destructive unless it "performs only additive updates". A new destination, name or note replaces the old.
    const overwriting = ['deleteLink', 'changeDestination', 'renameLink', 'setNote'];
    for (const t of tools) expect(t.annotations?.destructiveHint, t.name).toBe(overwriting.includes(t.name));
    for (const t of tools.filter((x) => x.name !== 'deleteLink')) {
      expect(t.inputSchema.properties ?? {}, t.name).not.toHaveProperty('confirm');
    }
  });

  it('keeps the public contract of every tool (review a change to this snapshot)', async () => {
    // The test server's port changes from run to run; the snapshot holds the placeholder, as docs/tools.md does.
    const contract = JSON.stringify(tools, null, 2).replaceAll(server.url, 'PUBLIC_URL');
    // One reviewed file per tool, kept in step with the registry by test/tools/contract.test.ts.
    const snapshots = TOOL_NAMES.map((name) =>
      JSON.parse(readFileSync(new URL(`../tools/__snapshots__/${name}.json`, import.meta.url), 'utf8')),
    );
    expect(contract).toBe(JSON.stringify(snapshots, null, 2));
  });
});

describe('each tool through MCP', () => {
  let alice: Actor;
  let client: Client;
  beforeAll(async () => {
    alice = await server.person({ teamName: 'Alice team' });
  });
  // Clients are closed after each test; each test connects its own.
  const connectAlice = async () => (client = (await connect(alice.token)).client);

  it('myTeams lists the person\'s team', async () => {
    await connectAlice();
    const teams = ok(await tool(client, 'myTeams'));
    expect(teams).toEqual({ data: [{ id: alice.teamId, name: 'Alice team' }], next: null });
  });

  it('createLink, linkByCode and teamLinks agree on the new link', async () => {
    const bob = await server.person();
    const client = (await connect(bob.token)).client;
    const made = await newLink(client, bob.teamId, { destination: 'https://example.com/one', note: 'first' });
    expect(made).toMatchObject({ destination: 'https://example.com/one', note: 'first', name: null, state: 'active' });
    expect(made.code).toMatch(/^.{7}$/);
    expect(ok(await tool(client, 'linkByCode', { code: made.code }))).toEqual(made);
    const second = await newLink(client, bob.teamId, { destination: 'https://example.com/two' });
    const page = ok(await tool(client, 'teamLinks', { team: bob.teamId }));
    expect(page.next).toBeNull();
    expect(page.data.map((l: any) => l.code)).toEqual([second.code, made.code]);
    const found = ok(await tool(client, 'teamLinks', { team: bob.teamId, q: 'two' }));
    expect(found.data.map((l: any) => l.code)).toEqual([second.code]);
  });

  it('linkClicks answers 30 days ending today, with totals', async () => {
    await connectAlice();
    const made = await newLink(client, alice.teamId);
    const clicks = ok(await tool(client, 'linkClicks', { code: made.code }));
    expect(clicks.days).toHaveLength(30);
    expect(clicks.days.at(-1)).toEqual({ date: '2026-11-21', clicks: 0 });
    expect(clicks.days[0].date).toBe('2026-10-23');
    expect(clicks).toMatchObject({ last7: 0, last30: 0 });
  });

  it('createLinks makes each item on its own', async () => {
    await connectAlice();
    const answer = ok(
      await tool(client, 'createLinks', {
        team: alice.teamId,
        links: [{ destination: 'https://example.com/batch' }, { destination: 'https://example.com/x', name: 'Bad Name' }],
      }),
    );
    expect(answer.results).toHaveLength(2);
    expect(answer.results[0]).toMatchObject({ status: 200, code: null, message: null });
    expect(answer.results[0].link.destination).toBe('https://example.com/batch');
    expect(answer.results[1]).toMatchObject({ link: null, status: 400, code: 'invalid_name' });
    expect(answer.results[1].message).toBeTypeOf('string');
  });

  it('changeDestination, setNote and renameLink change the link', async () => {
    await connectAlice();
    const made = await newLink(client, alice.teamId);
    const moved = ok(await tool(client, 'changeDestination', { code: made.code, destination: 'https://example.org/new' }));
    expect(moved).toMatchObject({ code: made.code, destination: 'https://example.org/new' });
    const noted = ok(await tool(client, 'setNote', { code: made.code, note: 'for the flyer' }));
    expect(noted).toMatchObject({ code: made.code, note: 'for the flyer' });
    const name = uniqueName('renamed');
    const renamed = ok(await tool(client, 'renameLink', { code: made.code, name }));
    expect(renamed).toMatchObject({ code: made.code, name, destination: 'https://example.org/new', note: 'for the flyer' });
    expect(ok(await tool(client, 'linkByCode', { code: made.code }))).toEqual(renamed);
  });

  it('askForReview refuses a link that is not flagged (conflict) and takes a flagged one', async () => {
    await connectAlice();
    const made = await newLink(client, alice.teamId);
    const refused = problemOf(await tool(client, 'askForReview', { code: made.code, reason: 'it is fine' }));
    expect(refused).toMatchObject({ status: 409, code: 'conflict' });
    await server.app.ctx.store.links.setState(made.code, 'flagged', new Date());
    const reviewed = ok(await tool(client, 'askForReview', { code: made.code, reason: 'it is fine' }));
    expect(reviewed).toMatchObject({ code: made.code, state: 'flagged', destination: made.destination });
  });

  it('reportLink reports any team\'s link; three different established people flag it, one person many times does not', async () => {
    await connectAlice();
    const made = await newLink(client, alice.teamId);
    // Established at once: added by the operator (fresh sign-ups do not count, see test/e2e/reports.test.ts).
    const established = { addedByOperator: true };
    const reporters = [await server.person(established), await server.person(established), await server.person(established)];

    const first = (await connect(reporters[0]!.token)).client;
    for (let i = 0; i < 3; i++) {
      expect(ok(await tool(first, 'reportLink', { code: made.code, reason: 'phishing' }))).toEqual({
        code: made.code,
        reported: true,
      });
    }
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('active');

    const second = (await connect(reporters[1]!.token)).client;
    ok(await tool(second, 'reportLink', { code: made.code, reason: 'spam' }));
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('active');

    const third = (await connect(reporters[2]!.token)).client;
    expect(ok(await tool(third, 'reportLink', { code: made.code, reason: 'malware' }))).toEqual({
      code: made.code,
      reported: true,
    });
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('flagged');
  });

  it('reportLink of an unknown code is not_found', async () => {
    await connectAlice();
    expect(problemOf(await tool(client, 'reportLink', { code: 'zzzzzzz', reason: 'spam' }))).toMatchObject({
      status: 404,
      code: 'not_found',
      field: 'code',
    });
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

  it('an unknown param is bad_request naming the param', async () => {
    client = (await connect(alice.token)).client;
    const problem = problemOf(await tool(client, 'linkByCode', { code: 'abcdefg', colour: 'red' }));
    expect(problem).toMatchObject({ status: 400, code: 'bad_request', field: 'colour' });
  });

  it('an unknown tool is a JSON-RPC error (-32602 invalid params), not a tool result', async () => {
    client = (await connect(alice.token)).client;
    const failure = await tool(client, 'noSuchTool', {}).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    expect('error' in failure, `expected a JSON-RPC error, got ${JSON.stringify(failure)}`).toBe(true);
    const error = (failure as { error: unknown }).error;
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('noSuchTool');
  });
});

describe('deleteLink without elicitation', () => {
  it('refuses without confirm (bad_request on confirm) and keeps the link', async () => {
    const alice = await server.person();
    const { client } = await connect(alice.token);
    const made = await newLink(client, alice.teamId);
    const problem = problemOf(await tool(client, 'deleteLink', { code: made.code }));
    expect(problem).toMatchObject({ status: 400, code: 'bad_request', field: 'confirm' });
    expect(problem.detail).toContain(made.code);
    const refusedFalse = problemOf(await tool(client, 'deleteLink', { code: made.code, confirm: false }));
    expect(refusedFalse).toMatchObject({ status: 400, code: 'bad_request', field: 'confirm' });
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('active');
  });

  it('deletes with confirm: true, answering {result: null}', async () => {
    const alice = await server.person();
    const { client } = await connect(alice.token);
    const made = await newLink(client, alice.teamId);
    const deleted = ok(await tool(client, 'deleteLink', { code: made.code, confirm: true }));
    expect(deleted).toEqual({ result: null });
    expect(problemOf(await tool(client, 'linkByCode', { code: made.code }))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});

describe('deleteLink with elicitation', () => {
  it('asks the person, naming the code, and deletes on accept', async () => {
    const alice = await server.person();
    const asked: ElicitRequest[] = [];
    const { client } = await connect(alice.token, (req) => {
      asked.push(req);
      return { action: 'accept', content: { confirm: true } };
    });
    const made = await newLink(client, alice.teamId);
    const deleted = ok(await tool(client, 'deleteLink', { code: made.code }));
    expect(deleted).toEqual({ result: null });
    expect(asked).toHaveLength(1);
    const params = asked[0]!.params as any;
    expect(params.message).toContain(made.code);
    expect(params.requestedSchema.properties.confirm.type).toBe('boolean');
    expect(problemOf(await tool(client, 'linkByCode', { code: made.code }))).toMatchObject({ code: 'not_found' });
  });

  it('deletes nothing when the person declines (conflict), even if the assistant passed confirm: true', async () => {
    const alice = await server.person();
    let asked = 0;
    const { client } = await connect(alice.token, () => {
      asked++;
      return { action: 'decline' };
    });
    const made = await newLink(client, alice.teamId);
    expect(problemOf(await tool(client, 'deleteLink', { code: made.code }))).toMatchObject({
      status: 409,
      code: 'conflict',
    });
    expect(problemOf(await tool(client, 'deleteLink', { code: made.code, confirm: true }))).toMatchObject({
      status: 409,
      code: 'conflict',
    });
    expect(asked).toBe(2);
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('active');
  });

  it('deletes nothing when the person cancels or accepts without ticking the box', async () => {
    const alice = await server.person();
    const answers: ElicitResult[] = [{ action: 'cancel' }, { action: 'accept', content: { confirm: false } }];
    const { client } = await connect(alice.token, () => answers.shift()!);
    const made = await newLink(client, alice.teamId);
    for (let i = 0; i < 2; i++) {
      expect(problemOf(await tool(client, 'deleteLink', { code: made.code }))).toMatchObject({ code: 'conflict' });
    }
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('active');
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
    expect((await rpcMessage(own)).result.tools).toHaveLength(12);
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
