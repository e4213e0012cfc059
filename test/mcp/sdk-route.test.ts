import {
  createMcpHandler,
  isLegacyRequest,
  MissingRequiredClientCapabilityError,
  Server,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import { MCP_NAME_FIELDS, sdkLeg } from '../../src/mcp/sdk-route.js';
import { envelope } from '../helpers/mcp-2026.js';

/**
 * /mcp tells beforehand which requests the SDK's entry will refuse (sdk-route.ts), so that what the entry reports of
 * them is logged as the caller's mistake and nothing else is. These tests hold that to the SDK itself: each request
 * goes to a real entry, and whatever it reports in plain Errors (its refusals, which it words but does not type) must
 * have been foreseen as refused.
 */
const reports: Error[] = [];
const factory = () => {
  const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
  server.setRequestHandler('tools/list', async () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async () => ({ content: [] }));
  return server;
};
const entry = createMcpHandler(factory, { legacy: 'reject', onerror: (error) => reports.push(error) });
afterAll(() => entry.close());

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' };

/** A 2026-07-28 request with the headers the revision requires, changed by `headers` (null leaves one out). */
function request(method: string, params: Record<string, unknown>, headers: Record<string, string | null> = {}, meta = envelope()) {
  const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } };
  const name = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  const all = Object.entries({ ...HEADERS, 'mcp-method': method, ...name, ...headers }).filter((entry): entry is [string, string] => entry[1] !== null);
  return { request: new Request('http://localhost/mcp', { method: 'POST', headers: all, body: JSON.stringify(body) }), body };
}

/** What the SDK's entry does with the request: its answer's status, and whether it reported a refusal it did not type. */
async function sdkSays({ request, body }: { request: Request; body: unknown }) {
  reports.length = 0;
  const response = await entry.fetch(request.clone(), { parsedBody: body });
  const answer = response.headers.get('content-type')?.startsWith('application/json') ? await response.json() : await response.text();
  const typed = (error: Error) => error instanceof UnsupportedProtocolVersionError || error instanceof MissingRequiredClientCapabilityError;
  return { status: response.status, answer, untyped: reports.some((error) => !typed(error)) };
}

const CASES: Array<[string, ReturnType<typeof request>]> = [
  ['a plain tools/call', request('tools/call', { name: 'echo', arguments: {} })],
  ['tools/list', request('tools/list', {})],
  ['no MCP-Protocol-Version header', request('tools/list', {}, { 'mcp-protocol-version': null })],
  ['no Mcp-Method header', request('tools/list', {}, { 'mcp-method': null })],
  ['an Mcp-Method naming another method', request('tools/list', {}, { 'mcp-method': 'tools/call' })],
  ['no Mcp-Name header', request('tools/call', { name: 'echo' }, { 'mcp-name': null })],
  ['an Mcp-Name naming another tool', request('tools/call', { name: 'echo' }, { 'mcp-name': 'other' })],
  ['an Mcp-Name padded with spaces', request('tools/call', { name: 'echo' }, { 'mcp-name': ' echo ' })],
  ['an Mcp-Name base64-encoded', request('tools/call', { name: 'echo' }, { 'mcp-name': `=?base64?${btoa('echo')}?=` })],
  ['an Mcp-Name base64-encoded wrongly', request('tools/call', { name: 'echo' }, { 'mcp-name': '=?base64?***?=' })],
  ['a text/plain body', request('tools/list', {}, { 'content-type': 'text/plain' })],
  ['a protocol version nobody made', request('tools/list', {}, { 'mcp-protocol-version': 'v9' }, { ...envelope(), 'io.modelcontextprotocol/protocolVersion': 'v9' })],
  ['a broken envelope', request('tools/list', {}, {}, { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' })],
  ['a 2026-07-28 header on initialize', request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }, {}, {} as never)],
  ['a 2025-11-25 initialize', { request: new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } } }],
  ['a GET', { request: new Request('http://localhost/mcp', { method: 'GET' }), body: undefined }],
];

describe('the leg of /mcp a request takes (sdk-route.ts), held to the SDK', () => {
  it.each(CASES)('%s: legacy as isLegacyRequest says; a refusal the SDK words but does not type was foreseen', async (_, sent) => {
    const leg = sdkLeg(sent.request, sent.body);
    expect(leg === 'legacy').toBe(await isLegacyRequest(sent.request.clone(), sent.body));
    if (leg === 'legacy') return;
    const said = await sdkSays(sent);
    if (said.untyped) expect(leg).toBe('refused');
  });

  it('foresees every header refusal the cases make, and serves the plain requests', async () => {
    const legs = Object.fromEntries(CASES.map(([name, sent]) => [name, sdkLeg(sent.request, sent.body)]));
    expect(legs).toMatchObject({
      'a plain tools/call': 'modern',
      'tools/list': 'modern',
      'no MCP-Protocol-Version header': 'refused',
      'no Mcp-Method header': 'refused',
      'an Mcp-Method naming another method': 'refused',
      'no Mcp-Name header': 'refused',
      'an Mcp-Name naming another tool': 'refused',
      'a text/plain body': 'refused',
      'a broken envelope': 'refused',
      'a 2025-11-25 initialize': 'legacy',
      'a GET': 'legacy',
    });
    for (const name of ['a plain tools/call', 'tools/list']) expect((await sdkSays(CASES.find(([each]) => each === name)![1])).status).toBe(200);
  });

  // The SDK's table of the methods whose Mcp-Name mirrors a body field is not exported: its copy is checked by what
  // the entry does. For each method a client may send, a name the header contradicts is refused (-32020) exactly
  // when the copy lists the method.
  const METHODS = [
    'ping', 'tools/list', 'tools/call', 'prompts/list', 'prompts/get', 'resources/list', 'resources/read',
    'resources/templates/list', 'resources/subscribe', 'resources/unsubscribe', 'completion/complete', 'logging/setLevel',
    'tasks/get', 'tasks/update', 'tasks/cancel', 'tasks/list', 'server/discover', 'subscriptions/listen',
  ];
  it.each(METHODS)('%s: Mcp-Name is checked against the body as the copy of the SDK table says', async (method) => {
    const said = await sdkSays(request(method, { name: 'x', uri: 'x', taskId: 'x' }, { 'mcp-name': 'y' }));
    const nameRefused = said.status === 400 && said.answer?.error?.code === -32020 && 'mismatch' in (said.answer.error.data ?? {});
    expect(nameRefused).toBe(Object.hasOwn(MCP_NAME_FIELDS, method));
  });
});
