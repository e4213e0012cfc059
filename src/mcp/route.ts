import type { IncomingMessage, ServerResponse } from 'node:http';
import { toWebRequest } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  MissingRequiredClientCapabilityError,
  UnsupportedProtocolVersionError,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import type { Gate, McpCaller } from '../auth/gate.js';
import { ApiError, apiError, toApiError } from '../errors.js';
import { bearerChallenge, missingScope } from '../auth/challenge.js';
import { protectedResource } from '../auth/protected-resource.js';
import { canAnswer, sendProblem } from '../http/problem.js';
import { ClientGone, readText } from '../http/read-body.js';
import type { Caller } from '../shared/caller.js';
import type { ToolContext } from '../tools/define-tool.js';
import { checkNesting } from '../tools/prepare-call.js';
import { MAX_BATCH_MESSAGES, requestsIn } from './sessions-2025/batches.js';
import { fastAnswer } from './fast-path.js';
import { mcpOperationOf } from './operation-name.js';
import { processLog } from '../observability/logger.js';
import { noteFailure, noteOperation } from '../observability/request-facts.js';
import { followsLinks } from './first-step.js';
import { mcpGuard } from './guard.js';
import { legacySessions } from './sessions-2025/endpoint.js';
import { hasInexactId } from './messages.js';
import { RequestStates } from './request-state.js';
import { rpcError } from './rpc-error.js';
import { sdkLeg } from './sdk-route.js';
import { sendWebResponse } from './web-response.js';
import { createMcpServer, type ToolFailed } from './server.js';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * `/mcp`, Streamable HTTP, for both revisions. Each request is authenticated on its own (a personal token, or an
 * assistant's OAuth access token for this resource) and checked against the token's scopes here, before the SDK
 * sees it. Then the SDK's own classification picks the revision: 2026-07-28 requests (each carrying its protocol
 * version and capabilities) are answered by a fresh server per request, holding nothing between requests;
 * 2025-11-25 traffic goes to sessions opened by initialize (see sessions-2025/).
 */
export function mcpEndpoint(ctx: ToolContext, gate: Gate, secret: Buffer) {
  const guard = mcpGuard(ctx.config.publicUrl, ctx.config.allowedOrigins);
  const addresses = protectedResource(ctx.config.publicUrl);
  const resourceUrl = new URL(addresses.resource);
  const states = new RequestStates(secret, ctx.clock);
  const newServer = () => createMcpServer(ctx, states);
  const modern = createMcpHandler(newServer, { legacy: 'reject', onerror: logSdkError });
  // The same entry for the requests it will refuse (sdk-route.ts): what it reports of them is the caller's mistake.
  const refusing = createMcpHandler(newServer, { legacy: 'reject', onerror: logRefusal });
  const legacy = legacySessions(newServer, ctx.store.mcpSessions, secret, ctx.clock);

  async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let admitted: () => McpCaller;
    try {
      admitted = await gate.admitMcp(req, res);
    } catch (error) {
      return sendProblem(res, error, ctx.config.publicUrl);
    }
    if (guard.handled(req, res)) return;
    let auth: AuthInfo;
    let mcpCaller: McpCaller;
    try {
      mcpCaller = admitted();
      auth = authInfoOf(mcpCaller, resourceUrl, (error) => noteFailure(res, error));
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
      if (mcpCaller.firstStep) return sendProblem(res, mcpCaller.firstStep, ctx.config.publicUrl);
      const tooLarge = error instanceof ApiError && error.code === 'content_too_large';
      if (tooLarge) return rpcError(res, 413, -32600, error.message);
      return rpcError(res, 400, -32700, 'Parse error: the body is not JSON.');
    }
    try {
      // Before the SDK sees it: it copies the body with recursive walks, which a body nested some thousands deep
      // overflows (a 500). A tool's arguments are held to 32 levels later, as on /v1; the envelope gets room to spare.
      checkNesting(body, MAX_MESSAGE_DEPTH);
    } catch (error) {
      return rpcError(res, 400, -32600, `Invalid Request: ${toApiError(error).detail}`);
    }
    if (hasInexactId(body)) {
      return rpcError(res, 400, -32600, 'Invalid Request: a numeric id must be a whole number between -(2^53 - 1) and 2^53 - 1, which JSON numbers keep exactly; send a larger one as a string.');
    }
    if (Array.isArray(body) && body.length > MAX_BATCH_MESSAGES) {
      return rpcError(res, 400, -32600, `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages; send the rest in another.`);
    }
    noteOperation(res, mcpOperationOf(req.method, body));
    // Before the person agreed to the terms, only a client that can send them to /welcome goes on (first-step.ts).
    const { firstStep, caller } = mcpCaller;
    if (firstStep && !followsLinks(req, body, (id) => legacy.followsLinks(id, caller.personId))) {
      return sendProblem(res, firstStep, ctx.config.publicUrl);
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
    const { caller, firstStep, failed } = auth.extra as { caller: Caller; firstStep: unknown; failed: ToolFailed };
    // A person with a first step to take is sent to /welcome, which is the SDK's to word in each revision.
    const fast = firstStep ? null : await fastAnswer(ctx, req, body, caller, failed);
    if (fast !== null) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(fast) });
      return void res.end(fast);
    }
    const request = await toWebRequest(req, body);
    const leg = sdkLeg(request, body);
    if (leg === 'legacy') {
      // The gate took one call for the POST; a batch (2025-11-25 only: the SDK refuses one on the modern leg) costs
      // one per request, taken whole before any of them runs.
      if (Array.isArray(body)) {
        try {
          await gate.countBatch(res, caller.personId, requestsIn(body));
        } catch (error) {
          return sendProblem(res, error, ctx.config.publicUrl);
        }
      }
      return legacy.handle(request, res, auth, body);
    }
    const entry = leg === 'refused' ? refusing : modern;
    await sendWebResponse(res, await entry.fetch(request, { authInfo: auth, parsedBody: body }));
  }

  return {
    handleMcp,
    async close() {
      await Promise.all([legacy.close(), modern.close(), refusing.close()]);
    },
  };
}

const PERSONAL = 'personal-token';

/** How deep a JSON-RPC message on /mcp may nest: twice what a tool's arguments may, for the envelope around them. */
const MAX_MESSAGE_DEPTH = 64;

/**
 * What the SDK's entry reports of the requests it serves: a refusal it tells by its class (a protocol version it
 * does not speak, a capability the client did not declare) is the caller's mistake, which the 4xx and its request
 * line already tell; anything else is a fault, logged with its stack.
 */
function logSdkError(error: Error): void {
  const refused = error instanceof UnsupportedProtocolVersionError || error instanceof MissingRequiredClientCapabilityError;
  if (refused) logRefusal();
  else processLog().error({ err: error }, 'MCP: the SDK failed');
}

/** Logged at debug, and without the SDK's message, which quotes what the caller sent. */
function logRefusal(): void {
  processLog().debug('MCP: the SDK refused a request');
}

/**
 * The SDK's view of the caller; tool calls find the caller in `extra.authInfo.extra.caller`, the `first_step`
 * refusal, while the person has not agreed to the terms, in `extra.authInfo.extra.firstStep`, and where to tell the
 * request log of a refused call (answered as an `isError` result in an HTTP 200) in `extra.authInfo.extra.failed`.
 */
function authInfoOf({ caller, oauth, firstStep }: McpCaller, resource: URL, failed: ToolFailed): AuthInfo {
  if (!oauth) return { token: 'personal', clientId: PERSONAL, scopes: [...(caller.scopes ?? [])], extra: { caller, firstStep, failed } };
  const { clientId, scopes, expiresAt } = oauth;
  return { token: 'oauth', clientId, scopes, expiresAt, resource, extra: { caller, firstStep, failed } };
}
