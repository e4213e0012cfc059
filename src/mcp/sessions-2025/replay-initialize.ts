import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { SessionClaims } from './session-id.js';

/**
 * Brings a fresh server and transport, connected, to where a session's own were after its initialize, by handing
 * them that initialize again, built from what the session's id carries, and discarding the answer: the client had
 * it when the session opened. The SDK has no other way in: its server learns the client's capabilities only from
 * initialize (deleteLink asks its question only of a client that declared elicitation), and its transport takes the
 * session's requests only once it has seen one. Resolves false when the transport refused it.
 */
export async function replayInitialize(http: WebStandardStreamableHTTPServerTransport, claims: SessionClaims): Promise<boolean> {
  const { protocolVersion, capabilities, clientInfo } = claims;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities, clientInfo } });
  const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  // The address is never looked at: the transport checks neither Host nor Origin (mcpGuard did, for the real request).
  const answer = await http.handleRequest(new Request('http://localhost/mcp', { method: 'POST', headers, body }));
  await answer.text();
  return answer.ok;
}
