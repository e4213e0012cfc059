/**
 * `first_step` as a way forward on /mcp (issue 10, item 4). A person who has not agreed to the terms is sent to
 * PUBLIC_URL/welcome by URL-mode elicitation when their client declared it can follow one: under 2025-11-25 as the
 * URLElicitationRequiredError (-32042), under 2026-07-28 as an input-required result. Once they agreed, the same
 * call works. A client that cannot follow a link keeps the 403 `first_step` problem.
 */
import { Client as Client2026, StreamableHTTPClientTransport as Transport2026 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_INFO } from '../../src/mcp/server.js';
import { tools } from '../../src/tools/index.js';
import { rpc2026 } from '../helpers/mcp-2026.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';

let server: TestServer;
let welcome: string;
let message: string;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  server = await startServer();
  welcome = `${server.url}/welcome`;
  message = `Before shortlinks can work for you, sign in at ${welcome} and agree to the terms; then try again.`;
});
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((client) => client.close()));
});
afterAll(() => server.stop());

/** Client capabilities that do not include URL-mode elicitation (a bare `elicitation: {}` means forms only). */
const CANNOT_FOLLOW = [
  ['no capabilities', {}],
  ['form elicitation', { elicitation: { form: {} } }],
  ['bare elicitation (form only)', { elicitation: {} }],
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Today's refusal, exactly: the spec's problem for a personal token of a person who has not agreed. */
function firstStepProblem() {
  return {
    type: `${server.url}/docs/errors#first_step`,
    title: 'First step',
    status: 403,
    code: 'first_step',
    detail: `Agree to the terms at ${welcome} first; the token works from then on.`,
    field: null,
  };
}

function agree(person: Actor): Promise<void> {
  return server.app.ctx.store.people.agreeTerms(person.personId, server.clock.now());
}

function newcomer(): Promise<Actor> {
  return server.person({ agreed: false });
}

/** A 2025-11-25 client (SDK 1.x) for the token's person, declaring `capabilities`. */
async function connect2025(token: string, capabilities: Record<string, unknown>): Promise<Client> {
  const client = new Client({ name: 'e2e-first-step', version: '1' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  open.push(client);
  return client;
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A raw 2025-11-25 POST of one JSON-RPC message, in the session `sessionId` when given. */
async function post2025(token: string, message: Record<string, unknown>, sessionId?: string) {
  const session = sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
  const res = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, ...session },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  const type = res.headers.get('content-type');
  return { status: res.status, type, sessionId: res.headers.get('mcp-session-id'), body: messageOf(await res.text()) };
}

/** A raw 2025-11-25 initialize, as a client declaring `capabilities` sends it. */
function initialize(token: string, capabilities: Record<string, unknown>) {
  const params = { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } };
  return post2025(token, { id: 1, method: 'initialize', params });
}

/** The one JSON-RPC message of an answer, sent as JSON or as a server-sent event. */
function messageOf(text: string): unknown {
  const event = /^data: (.*)$/m.exec(text);
  return JSON.parse(event ? event[1]! : text);
}

describe('2025-11-25: a client that declared URL-mode elicitation', () => {
  it('connects and lists the tools, and a tool call answers -32042 naming PUBLIC_URL/welcome', async () => {
    const person = await newcomer();
    const client = await connect2025(person.token, { elicitation: { url: {} } });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    const error = await rejectionOf(client.callTool({ name: 'myTeams', arguments: {} }));
    expect(error).toBeInstanceOf(McpError);
    const { code, data } = error as McpError;
    expect(code).toBe(-32042);
    expect((error as McpError).message).toBe(`MCP error -32042: ${message}`);
    expect(data).toEqual({ elicitations: [{ mode: 'url', elicitationId: expect.stringMatching(UUID), url: welcome, message }] });
  });

  it('on the wire: the JSON-RPC error -32042 with the elicitation, exactly', async () => {
    const person = await newcomer();
    const opened = await initialize(person.token, { elicitation: { url: {} } });
    expect(opened.status).toBe(200);
    const res = await post2025(person.token, { id: 2, method: 'tools/call', params: { name: 'myTeams', arguments: {} } }, opened.sessionId!);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32042, message, data: { elicitations: [{ mode: 'url', elicitationId: expect.stringMatching(UUID), url: welcome, message }] } },
    });
  });

  it('the same call in the same session works once the person agreed', async () => {
    const person = await newcomer();
    const client = await connect2025(person.token, { elicitation: { form: {}, url: {} } });
    await expect(client.callTool({ name: 'myTeams', arguments: {} })).rejects.toMatchObject({ code: -32042 });
    await agree(person);
    const result = await client.callTool({ name: 'myTeams', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ data: [{ id: person.teamId }] });
  });

  it('every call gets a fresh elicitation id', async () => {
    const person = await newcomer();
    const client = await connect2025(person.token, { elicitation: { url: {} } });
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const error = (await rejectionOf(client.callTool({ name: 'linkByCode', arguments: { code: 'Abcdefg' } }))) as McpError;
      ids.push((error.data as { elicitations: Array<{ elicitationId: string }> }).elicitations[0]!.elicitationId);
    }
    expect(new Set(ids).size).toBe(2);
  });
});

describe('2025-11-25: a client that cannot follow a link keeps the 403 first_step problem', () => {
  for (const [label, capabilities] of CANNOT_FOLLOW) {
    it(`${label}: initialize answers 403 first_step as problem+json`, async () => {
      const person = await newcomer();
      const reply = await initialize(person.token, capabilities);
      expect(reply.status).toBe(403);
      expect(reply.type).toBe('application/problem+json; charset=utf-8');
      expect(reply.body).toEqual(firstStepProblem());
    });
  }

  it("a session id that is not the person's own URL-capable session: 403 first_step", async () => {
    const person = await newcomer();
    const other = await newcomer();
    const opened = await initialize(other.token, { elicitation: { url: {} } });
    expect(opened.status).toBe(200);
    for (const id of [opened.sessionId!, 'not-a-session']) {
      const res = await post2025(person.token, { id: 2, method: 'tools/list', params: {} }, id);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(firstStepProblem());
    }
  });

  it('the SDK client cannot connect', async () => {
    const person = await newcomer();
    await expect(connect2025(person.token, { elicitation: { form: {} } })).rejects.toThrow();
  });
});

describe('2026-07-28: a request that declares URL-mode elicitation', () => {
  const following = () => rpc2026(server.url, { elicitation: { url: {} } });

  /** The 2026 answer, exactly: one URL-mode elicitation of PUBLIC_URL/welcome, and no requestState. */
  const sentToWelcome = () => ({
    jsonrpc: '2.0',
    id: 1,
    result: {
      resultType: 'input_required',
      inputRequests: { first_step: { method: 'elicitation/create', params: { mode: 'url', message, url: welcome } } },
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    },
  });

  it('a tool call answers input_required with the URL elicitation of PUBLIC_URL/welcome, and no state', async () => {
    const person = await newcomer();
    const res = await following().call(person.token, 'myTeams', {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(sentToWelcome());
  });

  it('the tools are listed, so the assistant can see what it will be able to do', async () => {
    const person = await newcomer();
    const res = await following().send(person.token, 'tools/list', {});
    expect(res.status).toBe(200);
    expect(res.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(tools.map((tool) => tool.name));
  });

  it('a retry before the person agreed gets the link again; a decline gets first_step as the tool error', async () => {
    const person = await newcomer();
    const accepted = await following().call(person.token, 'myTeams', {}, {}, { inputResponses: { first_step: { action: 'accept' } } });
    expect(accepted.body).toEqual(sentToWelcome());
    for (const action of ['decline', 'cancel']) {
      const declined = await following().call(person.token, 'myTeams', {}, {}, { inputResponses: { first_step: { action } } });
      expect(declined.status).toBe(200);
      expect(declined.body.result.isError).toBe(true);
      expect(JSON.parse(declined.body.result.content[0].text)).toEqual(firstStepProblem());
    }
  });

  it('the retry after the person agreed answers the call', async () => {
    const person = await newcomer();
    expect((await following().call(person.token, 'myTeams', {})).body).toEqual(sentToWelcome());
    await agree(person);
    const res = await following().call(person.token, 'myTeams', {}, {}, { inputResponses: { first_step: { action: 'accept' } } });
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBeUndefined();
    expect(res.body.result.structuredContent).toMatchObject({ data: [{ id: person.teamId }] });
  });

  it('deleteLink sends the person to /welcome before it asks anything', async () => {
    const person = await newcomer();
    const res = await rpc2026(server.url, { elicitation: { form: {}, url: {} } }).call(person.token, 'deleteLink', { code: 'Abcdefg' });
    expect(res.body).toEqual(sentToWelcome());
  });
});

describe('2026-07-28: a request that cannot follow a link keeps the 403 first_step problem', () => {
  for (const [label, capabilities] of CANNOT_FOLLOW) {
    it(`${label}: tools/call and tools/list answer 403 first_step as problem+json`, async () => {
      const person = await newcomer();
      const plain = rpc2026(server.url, capabilities);
      for (const res of [await plain.call(person.token, 'myTeams', {}), await plain.send(person.token, 'tools/list', {})]) {
        expect(res.status).toBe(403);
        expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
        expect(res.body).toEqual(firstStepProblem());
      }
    });
  }
});

describe('the official 2026-07-28 client', () => {
  it('shows the person the welcome link, and its retry works once they agreed in the browser', async () => {
    const person = await newcomer();
    const shown: unknown[] = [];
    const client = new Client2026(
      { name: 'e2e-2026', version: '1' },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      shown.push(request.params);
      await agree(person); // the person opens the link, signs in and agrees
      return { action: 'accept' as const };
    });
    await client.connect(new Transport2026(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${person.token}` } } }));
    open.push(client);
    const result = await client.callTool({ name: 'myTeams', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ data: [{ id: person.teamId }] });
    expect(shown).toEqual([{ mode: 'url', message, url: welcome }]);
  });
});

describe('deleteLink from a client that follows links but shows no forms (elicitation: { url: {} })', () => {
  async function linkOf(person: Actor): Promise<string> {
    const made = await call(server, 'createLink', { team: person.teamId, destination: 'https://example.com/url-only' }, person.token);
    return made.body.code;
  }

  it('2026-07-28: it cannot be asked, so confirm: true deletes and no form is sent', async () => {
    const person = await server.person();
    const code = await linkOf(person);
    const urlOnly = rpc2026(server.url, { elicitation: { url: {} } });
    const refused = await urlOnly.call(person.token, 'deleteLink', { code });
    expect(JSON.parse(refused.body.result.content[0].text)).toMatchObject({ status: 400, code: 'bad_request', field: 'confirm' });
    const deleted = await urlOnly.call(person.token, 'deleteLink', { code, confirm: true });
    expect(deleted.body.result.structuredContent).toEqual({ result: null });
  });

  it('2025-11-25: the same', async () => {
    const person = await server.person();
    const code = await linkOf(person);
    const client = await connect2025(person.token, { elicitation: { url: {} } });
    const refused = await client.callTool({ name: 'deleteLink', arguments: { code } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ code: 'bad_request', field: 'confirm' });
    const deleted = await client.callTool({ name: 'deleteLink', arguments: { code, confirm: true } });
    expect(deleted.structuredContent).toEqual({ result: null });
  });
});
