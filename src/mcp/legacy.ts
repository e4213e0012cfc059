import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, type AuthInfo, type Server } from '@modelcontextprotocol/server';
import { canElicitUrl } from './capabilities.js';
import type { Caller } from '../shared/caller.js';
import { rpcError } from './rpc-error.js';
import { Sessions } from './sessions.js';

/**
 * MCP 2025-11-25 on `/mcp`: the initialize handshake opens a session in this process, so that deleteLink can put
 * its question to the person by elicitation in the middle of a call. A session id only finds the session, and
 * only for the person who opened it; every request is still authenticated on its own.
 */
export function legacySessions(newServer: () => Server) {
  const sessions = new Sessions();

  async function handle(req: IncomingMessage & { auth: AuthInfo }, res: ServerResponse, body: unknown): Promise<void> {
    const { caller } = req.auth.extra as { caller: Caller };
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.find(sessionId, caller.personId);
      if (!session) return rpcError(res, 404, -32001, 'Session not found');
      return session.transport.handleRequest(req, res, body);
    }
    // 2026-07-28 has no GET stream and no sessions to end; without a session there is nothing to GET or DELETE.
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return rpcError(res, 405, -32000, 'Method not allowed: without a session, /mcp answers POST only.');
    }
    if (!isInitializeRequest(body)) {
      return rpcError(res, 400, -32000, 'Bad Request: no valid session ID; send initialize first.');
    }
    const server = newServer();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.add(id, { transport, server, personId: caller.personId, lastSeen: Date.now() }),
      onsessionclosed: (id) => sessions.forget(id),
    });
    transport.onclose = () => transport.sessionId && sessions.forget(transport.sessionId);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** True when this person's session declared URL-mode elicitation in its initialize (see first-step.ts). */
  function followsLinks(sessionId: string, personId: string): boolean {
    return canElicitUrl(sessions.find(sessionId, personId)?.server.getClientCapabilities());
  }

  return { handle, followsLinks, close: () => sessions.closeAll() };
}
