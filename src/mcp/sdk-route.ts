import { classifyInboundRequest, isJsonContentType, type JSONRPCRequest } from '@modelcontextprotocol/server';
import { isObject } from './messages.js';

/**
 * Where a request to /mcp goes once it reached the SDK: the 2025-11-25 sessions (`legacy`), the SDK's 2026-07-28
 * entry to be served (`modern`), or that entry to be refused for the caller's fault (`refused`).
 */
export type SdkLeg = 'legacy' | 'modern' | 'refused';

/**
 * The SDK's entry reports the requests it refuses for the caller's fault and its own failures alike, through one
 * `onerror`, as Errors told apart only by their English wording. Rather than read that wording, /mcp tells
 * beforehand which requests the entry will refuse and hands those to a twin of it whose reports are refusals
 * (route.ts). The legs come from the SDK's own classification (what its `isLegacyRequest` runs) and its own
 * Content-Type check, taken in the entry's order. Only its standard-header rung is not exported; a request that may
 * fail it is counted refused: one that passes after all is served by the twin just the same.
 */
export function sdkLeg(request: Request, body: unknown): SdkLeg {
  const { headers } = request;
  const method = request.method.toUpperCase();
  const outcome = classifyInboundRequest({
    httpMethod: method,
    protocolVersionHeader: headers.get('mcp-protocol-version') ?? undefined,
    mcpMethodHeader: headers.get('mcp-method') ?? undefined,
    mcpNameHeader: headers.get('mcp-name') ?? undefined,
    ...(body !== undefined && { body }),
  });
  if (outcome.kind === 'legacy') return 'legacy';
  if (method === 'POST' && !isJsonContentType(headers.get('content-type'))) return 'refused';
  if (outcome.kind === 'reject') return 'refused';
  return outcome.messageKind === 'request' && mayFailHeaderRung(headers, outcome.message) ? 'refused' : 'modern';
}

/**
 * The body field `Mcp-Name` must name, by method: the SDK's table (`MCP_NAME_HEADER_SOURCE`, not exported), which
 * `test/mcp/sdk-route.test.ts` holds this copy to.
 */
export const MCP_NAME_FIELDS: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * True when the request may fail the SDK's standard-header rung: a 2026-07-28 request must carry
 * `MCP-Protocol-Version` and `Mcp-Method`, and an `Mcp-Name` equal to the field it names. An `Mcp-Name` spelled
 * otherwise than the field (padded, or base64-encoded) may still pass, and is counted here all the same.
 */
function mayFailHeaderRung(headers: Headers, message: JSONRPCRequest): boolean {
  if (!headers.has('mcp-protocol-version') || !headers.has('mcp-method')) return true;
  const field = Object.hasOwn(MCP_NAME_FIELDS, message.method) ? MCP_NAME_FIELDS[message.method] : undefined;
  if (field === undefined) return false;
  const value = isObject(message.params) ? message.params[field] : undefined;
  const name = headers.get('mcp-name');
  return name === null ? typeof value === 'string' : name !== value;
}
