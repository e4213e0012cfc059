import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Gate, McpCaller } from '../auth/gate.js';
import { ApiError, apiError, toApiError } from '../errors.js';
import { bearerChallenge, missingScope } from '../auth/challenge.js';
import { protectedResource } from '../auth/protected-resource.js';
import { sendProblem } from '../http/problem.js';
import { canAnswer, ClientGone, readText } from '../http/read-body.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { Caller } from '../shared/caller.js';
import { mcpGuard } from './guard.js';
import { createMcpServer } from './server.js';
import { Sessions } from './sessions.js';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * `/mcp`: Streamable HTTP with stateful sessions (so deleteLink can ask the person by elicitation). Each request
 * is authenticated on its own (a personal token, or an assistant's OAuth access token for this resource); a
 * session id only finds the session, and only for the person who opened it.
 */
export function mcpEndpoint(ctx: ToolContext, gate: Gate) {
  const guard = mcpGuard(ctx.config.publicUrl, ctx.config.allowedOrigins);
  const sessions = new Sessions();
  const addresses = protectedResource(ctx.config.publicUrl);

  async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let admitted: () => McpCaller;
    try {
      admitted = await gate.admitMcp(req, res);
    } catch (error) {
      return sendProblem(res, error, ctx.config.publicUrl);
    }
    if (guard.handled(req, res)) return;
    let auth: AuthInfo;
    try {
      auth = authInfoOf(admitted(), addresses.resource);
    } catch (error) {
      if (toApiError(error).status === 401) {
        // RFC 6750 §3.1: no error code when the request carried no credentials at all.
        const challenge = req.headers.authorization === undefined ? {} : { error: 'invalid_token' as const };
        res.setHeader('WWW-Authenticate', bearerChallenge(addresses.resourceMetadata, challenge));
      }
      return sendProblem(res, error, ctx.config.publicUrl);
    }
    let body: unknown;
    try {
      body = req.method === 'POST' ? JSON.parse(await readText(req, MAX_BODY_BYTES)) : undefined;
    } catch (error) {
      if (error instanceof ClientGone || !canAnswer(res)) return;
      const tooLarge = error instanceof ApiError && error.code === 'content_too_large';
      if (tooLarge) return rpcError(res, 413, -32600, error.message);
      return rpcError(res, 400, -32700, 'Parse error: the body is not JSON.');
    }
    // An assistant's token covers the tools of its scopes; a call beyond them is a step-up challenge (R4).
    const needed = auth.clientId === PERSONAL ? null : missingScope(body, auth.scopes);
    if (needed) {
      const challenge = { error: 'insufficient_scope' as const, scope: needed };
      res.setHeader('WWW-Authenticate', bearerChallenge(addresses.resourceMetadata, challenge));
      return sendProblem(res, apiError.insufficientScope(`This call needs the ${needed} scope; sign in again to grant it.`), ctx.config.publicUrl);
    }
    await handleRpc(req, res, auth, body);
  }

  async function handleRpc(req: IncomingMessage, res: ServerResponse, auth: AuthInfo, body: unknown): Promise<void> {
    const { caller } = auth.extra as { caller: Caller };
    const request = Object.assign(req, { auth });
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.find(sessionId, caller.personId);
      if (!session) return rpcError(res, 404, -32001, 'Session not found');
      return session.transport.handleRequest(request, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return rpcError(res, 400, -32000, 'Bad Request: no valid session ID; send initialize first.');
    }
    const server = createMcpServer(ctx);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.add(id, { transport, server, personId: caller.personId, lastSeen: Date.now() }),
      onsessionclosed: (id) => sessions.forget(id),
    });
    transport.onclose = () => transport.sessionId && sessions.forget(transport.sessionId);
    await server.connect(transport);
    await transport.handleRequest(request, res, body);
  }

  return { handleMcp, close: () => sessions.closeAll() };
}

const PERSONAL = 'personal-token';

/** The SDK's view of the caller; tool calls find the caller in `extra.authInfo.extra.caller`. */
function authInfoOf({ caller, oauth }: McpCaller, resource: string): AuthInfo {
  if (!oauth) return { token: 'personal', clientId: PERSONAL, scopes: [...(caller.scopes ?? [])], extra: { caller } };
  const { clientId, scopes, expiresAt } = oauth;
  return { token: 'oauth', clientId, scopes, expiresAt, resource: new URL(resource), extra: { caller } };
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
