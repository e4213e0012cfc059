import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  UrlElicitationRequiredError,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ApiError } from '../errors.js';
import { canElicitUrl } from './capabilities.js';

/** The key of the welcome link among a 2026-07-28 answer's `inputRequests`. */
const INPUT_KEY = 'first_step';

/**
 * `first_step` as a way forward. A person who has not agreed to the terms is sent to `PUBLIC_URL/welcome` by a
 * URL-mode elicitation, when their client declared it can follow one; any other client keeps the 403 `first_step`
 * problem. Nothing is kept: every request checks the store again, so once the person has agreed, the client's retry
 * simply works.
 *
 * This is the check /mcp makes before the SDK sees a request of such a person: true when the request may go on,
 * because its client follows links. A 2025-11-25 session says so in its initialize (the session remembers it, in
 * the SDK's server); a 2026-07-28 request in its own `_meta`.
 */
export function followsLinks(
  req: IncomingMessage,
  body: unknown,
  sessionFollowsLinks: (sessionId: string) => boolean,
): boolean {
  const sessionId = req.headers['mcp-session-id'];
  if (typeof sessionId === 'string') return sessionFollowsLinks(sessionId);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { method, params } = body as { method?: unknown; params?: { capabilities?: unknown; _meta?: Record<string, unknown> } };
  if (method === 'initialize') return canElicitUrl(params?.capabilities);
  return canElicitUrl(params?._meta?.[CLIENT_CAPABILITIES_META_KEY]);
}

/**
 * The answer to a tool call of a person who has not agreed to the terms: the way to `PUBLIC_URL/welcome`, in the
 * form of the request's revision. 2026-07-28: an input-required result with one URL-mode elicitation and no state
 * (the client retries once the person is done; the retry finds them agreed, or gets the link again). 2025-11-25:
 * the `URLElicitationRequiredError` (-32042), thrown. A person who declined to go, and a client that cannot follow
 * a link at all, get the `first_step` refusal, thrown, for the tool call to answer as its error.
 */
export function sendToWelcome(server: Server, ctx: ServerContext, refusal: ApiError, publicUrl: string): InputRequiredResult {
  if (!canElicitUrl(server.getClientCapabilities())) throw refusal;
  const url = `${publicUrl}/welcome`;
  const message = `Before shortlinks can work for you, sign in at ${url} and agree to the terms; then try again.`;
  if (ctx.mcpReq.envelope === undefined) {
    throw new UrlElicitationRequiredError([{ mode: 'url', elicitationId: randomUUID(), url, message }], message);
  }
  const answer = inputResponse(ctx.mcpReq.inputResponses, INPUT_KEY);
  if (answer.kind === 'elicit' && answer.action !== 'accept') throw refusal;
  return inputRequired({ inputRequests: { [INPUT_KEY]: inputRequired.elicitUrl({ message, url }) } });
}
