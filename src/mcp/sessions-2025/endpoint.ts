import type { ServerResponse } from 'node:http';
import {
  isInitializeRequest,
  isJSONRPCRequest,
  isJSONRPCResponse,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type Server,
} from '@modelcontextprotocol/server';
import type { Caller } from '../../shared/caller.js';
import type { Clock } from '../../shared/clock.js';
import type { McpSessionStore } from '../../store/ports.js';
import { AnswerRelay } from './answer-relay.js';
import { canElicitUrl } from '../capabilities.js';
import { sessionCapabilities } from './kept-capabilities.js';
import { RelayedTransport } from './relayed-transport.js';
import { malformedInitialize } from './malformed-initialize.js';
import { messagesOf } from '../messages.js';
import { replayInitialize } from './replay-initialize.js';
import { rpcError } from '../rpc-error.js';
import { expiresAt, sessionKey, SessionIds, type SessionClaims } from './session-id.js';
import { Sessions, type Session } from './sessions.js';
import { sendWebResponse } from '../web-response.js';

/**
 * MCP 2025-11-25 on `/mcp`: sessions opened by initialize, so that deleteLink can put its question to the person
 * by elicitation in the middle of a call. A session lives in its id, which carries what the session holds
 * (session-id.ts), so any process of the service serves any request of it: a process that does not have the
 * session at hand opens it again from the id. The database keeps only what must be seen everywhere at once: the
 * sessions their clients ended, and the questions put to clients (answer-relay.ts). A session id only finds the
 * session, and only for the person who opened it; every request is still authenticated on its own.
 */
export function legacySessions(newServer: () => Server, store: McpSessionStore, secret: Buffer, clock: Clock) {
  const ids = new SessionIds(secret, clock);
  const relay = new AnswerRelay(store, clock);
  const sessions = new Sessions();
  /** Sessions being opened again from their ids, so that requests arriving together share one. */
  const reopening = new Map<string, Promise<Session | null>>();

  async function handle(request: Request, res: ServerResponse, auth: AuthInfo, body: unknown): Promise<void> {
    const { caller } = auth.extra as { caller: Caller };
    const malformed = malformedInitialize(body);
    if (malformed) return rpcError(res, 400, -32602, malformed);
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = await sessionFor(sessionId, caller.personId);
      if (!session) return rpcError(res, 404, -32001, 'Session not found');
      return serve(session, request, res, auth, body);
    }
    // 2026-07-28 has no GET stream and no sessions to end; without a session there is nothing to GET or DELETE.
    if (request.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return rpcError(res, 405, -32000, 'Method not allowed: without a session, /mcp answers POST only.');
    }
    if (!isInitializeRequest(body)) {
      return rpcError(res, 400, -32000, 'Bad Request: no valid session ID; send initialize first.');
    }
    // The header is for requests after initialize, but one naming a version this server does not speak is refused
    // (400) wherever it comes, as within a session: a session must not open under a version the client did not ask.
    const header = request.headers.get('mcp-protocol-version');
    if (header !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(header)) {
      return rpcError(res, 400, -32000, `Bad Request: Unsupported protocol version: ${header} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
    }
    const { protocolVersion, capabilities, clientInfo } = body.params;
    const claims = ids.claims(caller.personId, negotiated(protocolVersion), sessionCapabilities(capabilities), clientInfo);
    await serve(await open(ids.issue(claims), claims), request, res, auth, body);
  }

  /** The person's session named by the id: at hand, or opened again from the id; null when there is none. */
  async function sessionFor(id: string, personId: string): Promise<Session | null> {
    const claims = ids.read(id);
    if (!claims || claims.personId !== personId) return null;
    if (await store.ended(sessionKey(id))) {
      // Ended through another process; this one may still have it at hand.
      void sessions.close(id);
      return null;
    }
    const session = sessions.find(id, personId);
    if (session) return session;
    let pending = reopening.get(id);
    if (!pending) {
      pending = reopen(id, claims).finally(() => reopening.delete(id));
      reopening.set(id, pending);
    }
    return pending;
  }

  async function reopen(id: string, claims: SessionClaims): Promise<Session | null> {
    const session = await open(id, claims);
    // An SDK that settled on another version would not be the session the client knows.
    if ((await replayInitialize(session.http, claims)) && session.server.getNegotiatedProtocolVersion() === claims.protocolVersion) {
      return session;
    }
    await session.http.close();
    return null;
  }

  /** A server and transport for the session, kept at hand once the transport took its initialize. */
  async function open(id: string, claims: SessionClaims): Promise<Session> {
    const server = newServer();
    const http: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => sessions.add(id, session),
      // The client ended the session: its id stops working in every process, not only this one.
      onsessionclosed: () => store.end(sessionKey(id), expiresAt(claims), clock.now()),
    });
    const transport = new RelayedTransport(http, relay, sessionKey(id), claims.personId);
    const session: Session = { http, transport, server, personId: claims.personId, lastSeen: Date.now() };
    transport.onclose = () => sessions.forget(id, session);
    await server.connect(transport);
    return session;
  }

  async function serve(session: Session, request: Request, res: ServerResponse, auth: AuthInfo, body: unknown): Promise<void> {
    const messages = messagesOf(body);
    // Answers to the server's questions are the relay's: each is taken, or refused before anything is written.
    if (messages.some((message) => isJSONRPCResponse(message))) {
      for (const answer of messages.filter(isJSONRPCResponse)) {
        const refused = await session.transport.answer(answer);
        if (refused) return rpcError(res, refused.status, refused.code, refused.message);
      }
      const rest = messages.filter((message) => !isJSONRPCResponse(message));
      if (rest.length === 0) {
        res.statusCode = 202;
        return void res.end();
      }
      body = Array.isArray(body) ? rest : rest[0];
    }
    // A call whose POST closes before it is answered ends there, with the question it may be waiting on.
    const calls = messagesOf(body).filter(isJSONRPCRequest).map((message) => message.id);
    if (calls.length > 0) res.once('close', () => session.transport.closed(calls));
    await sendWebResponse(res, await session.http.handleRequest(request, { authInfo: auth, parsedBody: body }));
  }

  /** True when this person's session declared URL-mode elicitation in its initialize (see first-step.ts). */
  function followsLinks(sessionId: string, personId: string): boolean {
    const claims = ids.read(sessionId);
    return claims?.personId === personId && canElicitUrl(claims.capabilities);
  }

  return {
    handle,
    followsLinks,
    async close() {
      relay.close();
      await sessions.closeAll();
    },
  };
}

/**
 * The version initialize settles on, as the SDK's server does: the client's when the SDK speaks it, else the
 * newest. Known before the server answers, because the session's id, which carries it, is made first; a session
 * opened again checks the SDK still agrees (reopen).
 */
function negotiated(requested: string): string {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
