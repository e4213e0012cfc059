import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc2026 } from '../helpers/mcp-2026.js';
import { register } from '../helpers/oauth.js';
import { call, problem, startServer, type Actor, type TestServer } from '../helpers/server.js';

/**
 * Messages quote at most a short prefix of what a caller sent (issue 20, item 5; docs/behaviour.md "Errors"): 40
 * characters and "…", and of many unknown params a few. A message is stored (each createLinks item's, an
 * idempotent answer) and logged, so a 100,000-character key must not come back, or be kept, 100,000 characters
 * long. Against the real server on loopback.
 */

const LONG = 'k'.repeat(100_000);
const CUT = `${'k'.repeat(40)}…`;

let server: TestServer;
let alice: Actor;
beforeAll(async () => {
  server = await startServer();
  alice = await server.person();
});
afterAll(() => server.stop());

describe('messages that quote what a caller sent', () => {
  it('createLinks on /v1: each item with an unknown key of 100,000 characters fails with a short message', async () => {
    const item = { destination: 'https://example.com/', [LONG]: true };
    const reply = await call(server, 'createLinks', { team: alice.teamId, links: [item, item] }, alice.token);
    expect(reply.status).toBe(200);
    const failed = { link: null, status: 400, code: 'bad_request' };
    expect(reply.body.results).toEqual([
      { ...failed, message: `links[0].${CUT} is not a known param.` },
      { ...failed, message: `links[1].${CUT} is not a known param.` },
    ]);
    expect(JSON.stringify(reply.body).length).toBeLessThan(400);
  });

  it('/v1: an unknown top-level param of 100,000 characters is named by its first 40, in field and detail', async () => {
    const reply = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/', [LONG]: 1 }, alice.token);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ...problem(server, 400, 'bad_request', CUT), title: reply.body.title, detail: `${CUT} is not a known param.` });
  });

  it('/v1: of many unknown params, the first and three more are named, each cut short, and the rest counted', async () => {
    const body = { team: alice.teamId, destination: 'https://example.com/', [LONG]: 1, ['j'.repeat(50_000)]: 2, c: 3, d: 4, e: 5, f: 6 };
    const reply = await call(server, 'createLink', body, alice.token);
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe(CUT);
    expect(reply.body.detail).toBe(`${CUT} is not a known param, and neither are ${'j'.repeat(40)}…, c, d and 2 more.`);
  });

  it('MCP 2026-07-28: a tool call with an unknown argument of 100,000 characters answers a short bad_request', async () => {
    const reply = await rpc2026(server.url).call(alice.token, 'createLink', { team: alice.teamId, destination: 'https://example.com/', [LONG]: true });
    expect(reply.status).toBe(200);
    expect(reply.body.result.isError).toBe(true);
    const answer = JSON.parse(reply.body.result.content[0].text);
    expect(answer).toEqual({ ...problem(server, 400, 'bad_request', CUT), title: answer.title, detail: `${CUT} is not a known param.` });
    expect(JSON.stringify(reply.body).length).toBeLessThan(1_000);
  });

  it('MCP 2025-11-25: createLinks items and an unknown tool name quote 40 characters', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${alice.token}`,
    };
    const post = async (body: unknown, session?: string) => {
      const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...headers, ...(session ? { 'mcp-session-id': session } : {}) }, body: JSON.stringify(body) });
      const text = await res.text();
      const data = text.split('\n').find((line) => line.startsWith('data:') && line.slice(5).trim() !== '');
      return { res, message: JSON.parse(data === undefined ? text : data.slice(5)) };
    };
    const opened = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const session = opened.res.headers.get('mcp-session-id')!;

    const item = { destination: 'https://example.com/', [LONG]: true };
    const made = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'createLinks', arguments: { team: alice.teamId, links: [item] } } }, session);
    expect(made.message.result.structuredContent.results).toEqual([{ link: null, status: 400, code: 'bad_request', message: `links[0].${CUT} is not a known param.` }]);

    const unknown = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: LONG, arguments: {} } }, session);
    expect(unknown.message).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: `Unknown tool: ${CUT}` } });
  });

  it('OAuth registration: a refused redirect URI of 1,900 characters is quoted by its first 40', async () => {
    const uri = `https://app.example/${'a'.repeat(1_900)}#x`;
    const res = await register(server, { redirect_uris: [uri] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_redirect_uri', error_description: `https://app.example/${'a'.repeat(20)}… has a fragment, which redirect URIs must not have.` });
  });
});
