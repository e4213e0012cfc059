/**
 * /mcp under MCP 2026-07-28, spoken over raw HTTP exactly as the revision writes it: no initialize, no session,
 * every request carrying its protocol version and capabilities in `_meta` and the matching headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/index.js';
import { TOOL_LIST_TTL_MS } from '../../src/mcp/server.js';
import { browserOf, register, signIn } from '../helpers/oauth.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { envelope, rpc2026 } from '../helpers/mcp-2026.js';

let server: TestServer;
let rpc: ReturnType<typeof rpc2026>;

beforeAll(async () => {
  server = await startServer();
  rpc = rpc2026(server.url);
});
afterAll(() => server.stop());

describe('server/discover', () => {
  it('lists 2026-07-28, the tools and resources capabilities and the MCP Apps extension, and opens no session', async () => {
    const alice = await server.person();
    const res = await rpc.send(alice.token, 'server/discover', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.body.result.supportedVersions).toContain('2026-07-28');
    expect(res.body.result.capabilities).toEqual({
      tools: { listChanged: false },
      resources: { listChanged: false },
      extensions: { 'io.modelcontextprotocol/ui': {} },
    });
    expect(res.body.result.instructions).toContain('Always ask the person before deleting');
  });
});

describe('tools/list', () => {
  it('answers without a handshake, in registry order, private to the caller for a minute', async () => {
    const alice = await server.person();
    const first = await rpc.send(alice.token, 'tools/list', {});
    const again = await rpc.send(alice.token, 'tools/list', {});
    expect(first.status).toBe(200);
    expect(first.headers.get('mcp-session-id')).toBeNull();
    expect(first.body.result.tools.map((t: { name: string }) => t.name)).toEqual(tools.map((t) => t.name));
    expect(first.body.result).toMatchObject({ ttlMs: TOOL_LIST_TTL_MS, cacheScope: 'private' });
    expect(again.body.result).toEqual(first.body.result);
  });
});

describe('tools/call', () => {
  it('runs a tool with no handshake and no session', async () => {
    const alice = await server.person();
    const res = await rpc.call(alice.token, 'myTeams', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.body.result.structuredContent).toEqual({ data: [{ id: alice.teamId, name: 'Team' }], next: null });
    expect(res.body.result.isError).toBeUndefined();
  });

  it('answers a failed call as an isError result with the HTTP API problem', async () => {
    const alice = await server.person();
    const res = await rpc.call(alice.token, 'linkByCode', { code: 'Abcdefg' });
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text)).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('headers must match the body', () => {
  const mismatch = { jsonrpc: '2.0', id: 1, error: { code: -32020 } };

  it('an Mcp-Name naming another tool: HTTP 400, -32020', async () => {
    const alice = await server.person();
    const res = await rpc.call(alice.token, 'myTeams', {}, { 'mcp-name': 'teamLinks' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(mismatch);
  });

  it('a missing Mcp-Name on tools/call: HTTP 400, -32020', async () => {
    const alice = await server.person();
    const res = await rpc.call(alice.token, 'myTeams', {}, { 'mcp-name': null });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(mismatch);
  });

  it('an Mcp-Method naming another method: HTTP 400, -32020', async () => {
    const alice = await server.person();
    const res = await rpc.send(alice.token, 'tools/list', {}, { 'mcp-method': 'tools/call' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(mismatch);
  });

  it('an MCP-Protocol-Version other than the body names: HTTP 400, -32020', async () => {
    const alice = await server.person();
    const res = await rpc.send(alice.token, 'tools/list', {}, { 'mcp-protocol-version': '2025-11-25' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(mismatch);
  });
});

describe('what the envelope may not carry', () => {
  /** A tools/list of 2026-07-28 with the given id, sent as raw text so that any number stays as written. */
  const listWithId = (token: string, id: string) =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list',
      },
      body: `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":${JSON.stringify(envelope())}}}`,
    });

  it('a numeric id JavaScript cannot hold exactly: HTTP 400, -32600, rather than an answer under a changed id', async () => {
    const alice = await server.person();
    for (const id of ['12345678901234567890', '9007199254740992', '-9007199254740992', '1e300']) {
      const res = await listWithId(alice.token, id);
      expect(res.status, id).toBe(400);
      expect(await res.json()).toEqual({
        jsonrpc: '2.0', id: null,
        error: { code: -32600, message: 'Invalid Request: a numeric id must be a whole number between -(2^53 - 1) and 2^53 - 1, which JSON numbers keep exactly; send a larger one as a string.' },
      });
    }
    for (const id of ['9007199254740991', '-9007199254740991', '"12345678901234567890"']) {
      const res = await listWithId(alice.token, id);
      expect(res.status, id).toBe(200);
      expect(await res.text()).toMatch(new RegExp(`"id":${id.replace(/"/g, '\\"')}[,}]`));
    }
  });
});

describe('a body nested deep', () => {
  const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

  it('anywhere in the message, past 64 levels: HTTP 400, -32600, whatever the method', async () => {
    const alice = await server.person();
    for (const [method, params] of [
      ['tools/list', { deep: nested(100) }],
      ['tools/call', { name: 'myTeams', arguments: {}, extra: nested(64) }],
    ] as const) {
      const res = await rpc.send(alice.token, method, params);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: The body nests deeper than 64 levels.' } });
    }
  });

  it('within 64 levels, the message is served; a tool’s arguments keep their own limit of 32', async () => {
    const alice = await server.person();
    expect((await rpc.send(alice.token, 'tools/list', { deep: nested(50) })).body.result.tools).toHaveLength(tools.length);
    const call = await rpc.call(alice.token, 'myTeams', { deep: nested(40) });
    expect(call.status).toBe(200);
    expect(call.body.result.isError).toBe(true);
    expect(JSON.parse(call.body.result.content[0].text)).toMatchObject({ code: 'bad_request', detail: 'The body nests deeper than 32 levels.' });
  });
});

describe('removed by the revision', () => {
  it.each(['ping', 'logging/setLevel', 'initialize'])('%s: HTTP 404, -32601 method not found', async (method) => {
    const alice = await server.person();
    const res = await rpc.send(alice.token, method, {});
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32601 } });
  });

  it.each(['GET', 'DELETE'])('%s without a session: 405, Allow: POST', async (method) => {
    const alice = await server.person();
    const res = await fetch(`${server.url}/mcp`, {
      method,
      headers: { authorization: `Bearer ${alice.token}`, 'mcp-protocol-version': '2026-07-28', accept: 'text/event-stream' },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await res.json()).error.code).toBe(-32000);
  });
});

describe('authorization is as under 2025-11-25', () => {
  it('no token: 401 with the resource_metadata challenge', async () => {
    const res = await rpc.send(null, 'tools/list', {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="links"`,
    );
    expect(res.body).toMatchObject({ code: 'invalid_token', status: 401 });
  });

  it('an assistant signed in for links:read calling createLink: 403 insufficient_scope, asking for links', async () => {
    const alice = await server.person();
    const { body: client } = await register(server, { client_name: 'Reader', redirect_uris: ['http://127.0.0.1:33418/callback'] });
    const tokens = (await signIn(server, await browserOf(server, alice.personId), client.client_id, { scope: 'links:read' })).body;
    const read = await rpc.call(tokens.access_token, 'myTeams', {});
    expect(read.status).toBe(200);
    const write = await rpc.call(tokens.access_token, 'createLink', { team: alice.teamId, destination: 'https://example.com/' });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="links"`,
    );
    expect(write.body).toMatchObject({ code: 'insufficient_scope', status: 403 });
  });
});
