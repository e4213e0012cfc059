import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
  type WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { AnswerRelay } from './answer-relay.js';
import { processLog } from '../observability/logger.js';

/**
 * A 2025-11-25 session's transport as its server sees it: the SDK's Streamable HTTP transport, with the server's
 * questions to the client and the client's answers going through the AnswerRelay, so an answer that reaches
 * another process still finds the question. The SDK numbers its questions 0, 1, 2... per server, and every process
 * keeps a server of its own for a session, so two processes would ask "question 0" of the same client: each
 * question goes out under a random id of the relay's instead, and its answer comes back under the SDK's number.
 */
export class RelayedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** The relay's id of each question this server is waiting on, by the SDK's own id. */
  private readonly asked = new Map<RequestId, string>();

  constructor(
    readonly http: WebStandardStreamableHTTPServerTransport,
    private readonly relay: AnswerRelay,
    private readonly session: Buffer,
  ) {
    http.onclose = () => {
      for (const question of this.asked.values()) relay.forget(question);
      this.asked.clear();
      this.onclose?.();
    };
    http.onerror = (error) => this.onerror?.(error);
    http.onmessage = (message, extra) => this.receive(message, extra);
  }

  get sessionId(): string | undefined {
    return this.http.sessionId;
  }

  start(): Promise<void> {
    return this.http.start();
  }

  close(): Promise<void> {
    return this.http.close();
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.http.setSupportedProtocolVersions(versions);
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCRequest(message)) {
      const own = message.id;
      const question = this.relay.expect(this.session, (answer) => {
        this.asked.delete(own);
        this.onmessage?.({ ...answer, id: own });
      });
      this.asked.set(own, question);
      return this.http.send({ ...message, id: question }, options).catch((error: unknown) => {
        // Never asked, so never answered: the SDK fails the call, and nothing waits on.
        this.asked.delete(own);
        this.relay.forget(question);
        throw error;
      });
    }
    // The SDK withdraws a question it stopped waiting for (a timeout, the call cancelled) under its own number.
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const question = this.asked.get(message.params?.requestId as RequestId);
      if (question !== undefined) {
        this.asked.delete(message.params!.requestId as RequestId);
        this.relay.forget(question);
        return this.http.send({ ...message, params: { ...message.params, requestId: question } }, options);
      }
    }
    return this.http.send(message, options);
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (!isJSONRPCResponse(message)) return this.onmessage?.(message, extra);
    this.relay.answer(this.session, message).catch((error: unknown) => processLog().error({ err: error }, 'MCP: an answer could not be passed on'));
  }
}
