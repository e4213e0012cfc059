import { toolNamed } from '../tools/index.js';

/** The methods of the MCP revisions this server speaks; anything else a client sends is logged as `other`. */
const METHODS = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
]);

/**
 * What an /mcp request is, for its log line and metrics: the tool's name for a call of one of ours, else the
 * JSON-RPC method, `answer` for a client's answer to the server's question, the HTTP method for a GET (the event
 * stream) or DELETE (a session's end). Only names from the service's own lists come out, never what a client made
 * up, so the log holds nothing a caller chose and the metrics keep a bounded set of labels.
 */
export function mcpOperationOf(method: string | undefined, body: unknown): string {
  if (body === undefined) return method === 'GET' || method === 'DELETE' ? method : 'other';
  if (Array.isArray(body)) return 'batch';
  if (typeof body !== 'object' || body === null) return 'other';
  const message = body as { method?: unknown; params?: { name?: unknown }; result?: unknown; error?: unknown };
  if (message.method === 'tools/call') {
    const name = message.params?.name;
    return typeof name === 'string' && toolNamed(name) ? name : 'tools/call';
  }
  if (typeof message.method === 'string') return METHODS.has(message.method) ? message.method : 'other';
  return 'result' in message || 'error' in message ? 'answer' : 'other';
}
