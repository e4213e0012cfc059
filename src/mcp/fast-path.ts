import type { IncomingMessage } from 'node:http';
import { mediaTypeOf } from '../http/read-body.js';
import type { Caller } from '../shared/caller.js';
import type { ToolContext } from '../tools/define-tool.js';
import { toolNamed } from '../tools/index.js';
import { callTool, listTools, SERVER_INFO, TOOL_LIST_TTL_MS, type ToolFailed } from './server.js';
import { showsApps } from './apps/extension.js';
import { isObject } from './messages.js';

const REVISION = '2026-07-28';
const ENVELOPE = [
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientCapabilities',
  'io.modelcontextprotocol/clientInfo',
] as const;
const RESULT_META = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
const RESULT_TAIL = `,"resultType":"complete","_meta":${JSON.stringify(RESULT_META)}}`;

interface Call {
  id: string | number;
  method: 'tools/call' | 'tools/list';
  params: Record<string, unknown>;
}

/**
 * The two requests assistants send most under 2026-07-28, `tools/call` and `tools/list`, answered without the SDK's
 * per-request server, which costs about ten times the tool's own work (issue 10's speed target). Only a request
 * the SDK would take exactly as it is comes here: one JSON-RPC request whose headers equal its body, with the
 * revision's three envelope fields and nothing else in `_meta`, for a tool that asks no question, from a client
 * that does not show MCP Apps (whose answers carry what the views draw, apps/). Anything else, every error
 * included, is the SDK's to answer. `test/e2e/mcp-2026-fast-path.test.ts` holds these answers byte for byte to the
 * SDK's, so the two cannot drift apart unnoticed.
 *
 * Resolves to the JSON-RPC answer's text, or null when the SDK must answer. A refused call is also told to `told`.
 */
export async function fastAnswer(ctx: ToolContext, req: IncomingMessage, body: unknown, caller: Caller, told?: ToolFailed): Promise<string | null> {
  const call = plainCall(req, body);
  if (!call) return null;
  if (call.method === 'tools/list') {
    const result = { tools: await listTools(ctx, false, caller), resultType: 'complete', ttlMs: TOOL_LIST_TTL_MS, cacheScope: 'private', _meta: RESULT_META };
    return JSON.stringify({ result, jsonrpc: '2.0', id: call.id });
  }
  const tool = toolNamed(call.params.name as string);
  if (!tool || tool.confirmation) return null;
  const { content, structuredContent, isError } = await callTool(ctx, tool, (call.params.arguments ?? {}) as Record<string, unknown>, caller, false, told);
  // Written in the SDK's key order. The structured content is already serialized as the first text item
  // (tool-result.ts), so it is not serialized a second time.
  const structured = structuredContent === undefined ? '' : `,"structuredContent":${(content[0] as { text: string }).text}`;
  const failed = isError ? ',"isError":true' : '';
  return `{"result":{"content":${JSON.stringify(content)}${structured}${failed}${RESULT_TAIL},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`;
}

/** The request as a plain tools/call or tools/list of this revision, or null for anything less ordinary. */
function plainCall(req: IncomingMessage, body: unknown): Call | null {
  if (!isObject(body) || body.jsonrpc !== '2.0' || !hasOnly(body, ['jsonrpc', 'id', 'method', 'params'])) return null;
  const { id, method, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return null;
  if ((method !== 'tools/call' && method !== 'tools/list') || !isObject(params) || !hasEnvelopeOnly(params._meta)) return null;
  if (showsApps((params._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities'])) return null;
  const headers = req.headers;
  if (mediaTypeOf(headers['content-type']) !== 'application/json') return null;
  const accepts = String(headers.accept ?? '');
  if (!accepts.includes('application/json') || !accepts.includes('text/event-stream')) return null;
  if (headers['mcp-protocol-version'] !== REVISION || headers['mcp-method'] !== method) return null;
  if (method === 'tools/list') return hasOnly(params, ['_meta']) && headers['mcp-name'] === undefined ? { id, method, params } : null;
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || headers['mcp-name'] !== name || !hasOnly(params, ['name', 'arguments', '_meta'])) return null;
  return args === undefined || isObject(args) ? { id, method, params } : null;
}

function hasEnvelopeOnly(meta: unknown): boolean {
  if (!isObject(meta) || !hasOnly(meta, ENVELOPE) || Object.keys(meta).length !== ENVELOPE.length) return false;
  const info = meta['io.modelcontextprotocol/clientInfo'];
  return (
    meta['io.modelcontextprotocol/protocolVersion'] === REVISION &&
    isObject(meta['io.modelcontextprotocol/clientCapabilities']) &&
    isObject(info) &&
    typeof info.name === 'string' &&
    typeof info.version === 'string'
  );
}

function hasOnly(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(value).every((key) => keys.includes(key));
}
