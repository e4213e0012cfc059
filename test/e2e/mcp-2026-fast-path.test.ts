import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastAnswer } from '../../src/mcp/fast-path.js';
import { envelope } from '../helpers/mcp-2026.js';
import { startServer, type Actor, type TestServer } from '../helpers/server.js';

/**
 * tools/call and tools/list under 2026-07-28 are answered without the SDK's per-request server when the request
 * is plain (fast-path.ts). Those answers must be the SDK's to the byte: each call here is sent twice, once plain
 * and once with one more `_meta` entry (which the SDK ignores and the fast path leaves to the SDK), and the two
 * answers compared whole, headers that matter included.
 */
let server: TestServer;
let alice: Actor;
let code: string;
beforeAll(async () => {
  server = await startServer();
  alice = await server.person();
  const made = await server.app.ctx.store.links.create(
    { teamId: alice.teamId, teamCreatedAt: new Date('2026-01-01'), destination: 'https://example.com/fast', name: 'fast-path', note: 'A note' },
    { ...(await server.app.ctx.store.settings.limits()) },
    server.clock.now(),
  );
  code = made.code;
});
afterAll(() => server.stop());

async function send(method: string, params: Record<string, unknown>, extraMeta: Record<string, unknown> = {}) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    authorization: `Bearer ${alice.token}`,
    ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 'call-1', method, params: { ...params, _meta: { ...envelope(), ...extraMeta } } });
  const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The same request as the fast path sees it, to ask it directly whether it answers. */
function asRequest(method: string, name?: string): IncomingMessage {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  };
  return { headers } as unknown as IncomingMessage;
}

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['tools/list', {}],
  ['tools/call', { name: 'myTeams', arguments: {} }],
  ['tools/call', { name: 'linkByCode', arguments: { code: 'PLACEHOLDER' } }],
  ['tools/call', { name: 'teamLinks', arguments: { team: 'TEAM' } }],
  ['tools/call', { name: 'linkClicks', arguments: { code: 'PLACEHOLDER' } }],
  ['tools/call', { name: 'linkByCode', arguments: { code: 'Nothing' } }], // not_found: an isError result
  ['tools/call', { name: 'linkByCode', arguments: { code: 'short' } }], // bad_request
  ['tools/call', { name: 'linkByCode' }], // no arguments at all
  ['tools/call', { name: 'teamLinks', arguments: { team: 'team_nobody', colour: 'red' } }],
];

describe('MCP 2026-07-28 fast path', () => {
  it('answers plain tools/list and tools/call exactly as the SDK does', async () => {
    for (const [method, template] of CALLS) {
      const args = JSON.parse(JSON.stringify(template).replaceAll('PLACEHOLDER', code).replaceAll('"TEAM"', JSON.stringify(alice.teamId)));
      const fast = await send(method, args);
      const sdk = await send(method, args, { 'io.example/trace': 'x' });
      expect(fast.status, JSON.stringify(args)).toBe(200);
      expect(fast, JSON.stringify(args)).toEqual(sdk);
    }
  });

  it('takes only the plain requests, and leaves every other one to the SDK', async () => {
    const { ctx } = server.app;
    const caller = { personId: alice.personId, scopes: null, recordTeamId: null };
    const call = (params: Record<string, unknown>, meta: Record<string, unknown> = envelope(), id: unknown = 1) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { ...params, _meta: meta },
    });
    const plain = call({ name: 'myTeams', arguments: {} });
    expect(await fastAnswer(ctx, asRequest('tools/call', 'myTeams'), plain, caller)).toMatch(/^\{"result":\{"content":/);
    const declined: Array<[IncomingMessage, unknown]> = [
      [asRequest('tools/call', 'myTeams'), call({ name: 'myTeams', arguments: {} }, { ...envelope(), extra: 1 })],
      [asRequest('tools/call', 'linkByCode'), plain], // Mcp-Name disagrees with the body
      [asRequest('tools/list'), plain], // Mcp-Method disagrees
      [asRequest('tools/call', 'deleteLink'), call({ name: 'deleteLink', arguments: { code } })], // asks first
      [asRequest('tools/call', 'nothing'), call({ name: 'nothing', arguments: {} })], // unknown tool
      [asRequest('tools/call', 'myTeams'), call({ name: 'myTeams', arguments: [] })],
      [asRequest('tools/call', 'myTeams'), call({ name: 'myTeams', arguments: {} }, envelope(), null)],
      [asRequest('tools/call', 'myTeams'), [plain]], // a batch
      [asRequest('tools/call', 'myTeams'), { ...plain, params: { ...plain.params, _meta: { ...envelope(), 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } }],
    ];
    for (const [req, body] of declined) expect(await fastAnswer(ctx, req, body, caller), JSON.stringify(body)).toBeNull();
  });
});
