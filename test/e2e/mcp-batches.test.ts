import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helpers/mcp-2026.js';
import { call, expectProblem, startServer, type Actor, type TestServer } from '../helpers/server.js';

/**
 * JSON-RPC batches on /mcp (issue 20, item 4; docs/behaviour.md "Calls per minute"): a 2025-11-25 batch costs one
 * call of the person's budget per request in it, taken whole before any runs, and holds at most 10 messages.
 * Against the real server on loopback, with raw POSTs (the SDK's client sends no batches).
 */

const PROTOCOL = '2025-11-25';
const BUDGET = 20;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.setLimits({ callsPerMinute: BUDGET });
});
afterAll(() => server.stop());

async function post(body: unknown, token: string, session?: string): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      authorization: `Bearer ${token}`,
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** A 2025-11-25 session of the person's, opened by initialize (one call of their budget). */
async function openSession(alice: Actor): Promise<string> {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const res = await post(initialize, alice.token);
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get('mcp-session-id')!;
}

/** Every JSON-RPC answer of a reply, whether it came as JSON or as SSE events, in order. */
async function answersOf(res: Response): Promise<any[]> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) return [JSON.parse(text)].flat();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
    .flatMap((line) => [JSON.parse(line.slice(5))].flat());
}

const createLink = (id: number, alice: Actor) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'createLink', arguments: { team: alice.teamId, destination: `https://example.com/batch/${id}` } },
});
const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

/** The person's team's links, through the HTTP API (one more call of the budget). */
async function linkCount(alice: Actor): Promise<number> {
  const reply = await call(server, 'listLinks', { team: alice.teamId }, alice.token);
  expect(reply.status).toBe(200);
  return reply.body.data.length;
}

describe('JSON-RPC batches on /mcp', () => {
  it('refuses a batch of 11 messages whole: HTTP 400, -32600 naming the cap, and runs none of it', async () => {
    const alice = await server.person();
    const session = await openSession(alice);
    const res = await post(Array.from({ length: 11 }, (_, i) => createLink(i + 2, alice)), alice.token, session);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a batch holds at most 10 messages; send the rest in another.' },
    });
    expect(await linkCount(alice)).toBe(0);
  });

  it('takes one call per request in a batch; a notification in it costs nothing', async () => {
    const alice = await server.person();
    const session = await openSession(alice);
    const batch = [listTools(2), createLink(3, alice), listTools(4), createLink(5, alice), { jsonrpc: '2.0', method: 'notifications/initialized' }];
    const res = await post(batch, alice.token, session);
    expect(res.status).toBe(200);
    // initialize took 1 of the 20, the batch's 4 requests 4.
    expect(res.headers.get('ratelimit')).toBe(`"minute";r=${BUDGET - 5};t=60`);
    const answers = await answersOf(res);
    expect(answers.map((answer) => answer.id).sort()).toEqual([2, 3, 4, 5]);
    expect(answers.every((answer) => answer.result !== undefined && answer.result.isError !== true)).toBe(true);
    expect(await linkCount(alice)).toBe(2);
  });

  it('refuses a batch the budget cannot cover whole (429 rate_limited), running none of it', async () => {
    const alice = await server.person();
    const session = await openSession(alice);
    for (let i = 0; i < 11; i++) expect((await call(server, 'listTeams', {}, alice.token)).status).toBe(200);
    // 12 of 20 used: the batch's POST takes a 13th, and its 9 other requests do not fit in the 7 left.
    const refused = await post(Array.from({ length: 10 }, (_, i) => createLink(i + 2, alice)), alice.token, session);
    const reply = { status: refused.status, headers: refused.headers, body: await refused.json() };
    expectProblem(server, reply, 429, 'rate_limited');
    expect(reply.body.detail).toBe('Too many calls for a batch of 10 requests, which costs one call each; wait 60 seconds.');
    expect(reply.headers.get('retry-after')).toBe('60');
    expect(reply.headers.get('ratelimit')).toBe('"minute";r=7;t=60');
    expect(reply.headers.get('ratelimit-policy')).toBe(`"minute";q=${BUDGET};w=60`);
    expect(await linkCount(alice)).toBe(0);

    // 14 used, 6 left: a batch of 6 requests fits exactly (its POST and 5 more), and runs whole.
    const fits = await post(Array.from({ length: 6 }, (_, i) => createLink(i + 20, alice)), alice.token, session);
    expect(fits.status).toBe(200);
    expect(fits.headers.get('ratelimit')).toBe('"minute";r=0;t=60');
    expect((await answersOf(fits)).filter((answer) => answer.result !== undefined && answer.result.isError !== true)).toHaveLength(6);
    server.clock.advance(60_000);
    expect(await linkCount(alice)).toBe(6);
  });

  it('leaves a 2026-07-28 batch to the SDK, which refuses it (HTTP 400, -32600), costing one call', async () => {
    const alice = await server.person();
    const modern = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } };
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${alice.token}` },
      body: JSON.stringify([modern, { ...modern, id: 2 }]),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('ratelimit')).toBe(`"minute";r=${BUDGET - 1};t=60`);
    expect((await res.json()).error).toEqual({
      code: -32600,
      message: 'Bad Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later',
    });
  });
});
