import type { ServerResponse } from 'node:http';

/** A JSON-RPC error answered before any MCP server sees the request (no request id is known yet). */
export function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
