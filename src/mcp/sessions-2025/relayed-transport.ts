import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
  type WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { AnswerRelay, Refusal } from './answer-relay.js';

/** A question of the server's: the client's request (the call) it is asked within, and the SDK's id, once asked. */
interface Question {
  call: RequestId | undefined;
  own?: RequestId;
}

/**
 * A 2025-11-25 session's transport as its server sees it: the SDK's Streamable HTTP transport, with the server's
 * questions to the client and the client's answers going through the AnswerRelay, so an answer that reaches
 * another process still finds the question. The SDK numbers its questions 0, 1, 2... per server, and every process
 * keeps a server of its own for a session, so two processes would ask "question 0" of the same client: each
 * question goes out under a random id of the relay's instead, and its answer comes back under the SDK's number.
 *
 * A question lasts no longer than the call it was asked in: when the POST that carried the call closes before
 * the call was answered (the client went away), the call is cancelled, as if the client had sent
 * `notifications/cancelled`, and its question withdrawn. The answer could never reach the client anyway: the
 * transport keeps no events to resume a stream from.
 */
export class RelayedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** The questions this server asked, or opened for a call about to ask, by the relay's id. */
  private readonly questions = new Map<string, Question>();
  /** The client's requests the server is serving, until it answers them. */
  private readonly running = new Set<RequestId>();

  constructor(
    readonly http: WebStandardStreamableHTTPServerTransport,
    private readonly relay: AnswerRelay,
    private readonly session: Buffer,
    private readonly personId: string,
  ) {
    http.onclose = () => {
      for (const question of this.questions.keys()) relay.forget(question);
      this.questions.clear();
      this.running.clear();
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

  /**
   * Opens the question the server is about to put to the client within the call, before the handler answers that
   * it needs input: a refusal (the caps, answer-relay.ts) is then the call's own error result, not a failed send.
   */
  async openFor(call: RequestId): Promise<void> {
    await this.open(call);
  }

  /** An answer the client sent to one of the session's questions, through this process; see AnswerRelay.answer. */
  answer(answer: JSONRPCResponse): Promise<Refusal | null> {
    return this.relay.answer(this.session, answer);
  }

  /**
   * The POST that carried these requests closed, answered or not. A call still running is cancelled: the SDK
   * withdraws the question it waits on (send, below); one opened but not yet asked goes here.
   */
  closed(calls: readonly RequestId[]): void {
    for (const call of calls) {
      if (!this.running.delete(call)) continue;
      this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: call, reason: 'The request was closed.' } });
      for (const [id, question] of this.questions) if (question.call === call && question.own === undefined) this.forget(id);
    }
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCRequest(message)) return this.ask(message, options);
    // The SDK withdraws a question it stopped waiting for (a timeout, the call cancelled) under its own number.
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = this.askedAs(message.params?.requestId as RequestId);
      if (id !== undefined) {
        this.forget(id);
        return this.http.send({ ...message, params: { ...message.params, requestId: id } }, options);
      }
    }
    if (isJSONRPCResponse(message) && message.id !== undefined) {
      // The call is answered: a question opened for it and never asked is over too.
      this.running.delete(message.id);
      for (const [id, question] of this.questions) if (question.call === message.id) this.forget(id);
    }
    return this.http.send(message, options);
  }

  private async ask(message: JSONRPCRequest, options?: TransportSendOptions): Promise<void> {
    const call = options?.relatedRequestId;
    let id = [...this.questions].find(([, question]) => question.call === call && question.own === undefined)?.[0];
    // Not opened by the call beforehand: opened now, and a refusal fails the send, which the SDK reports.
    id ??= await this.open(call);
    this.questions.get(id)!.own = message.id;
    try {
      await this.http.send({ ...message, id }, options);
    } catch (error) {
      // Never asked, so never answered: the SDK fails the call, and nothing waits on.
      this.forget(id);
      throw error;
    }
  }

  private async open(call: RequestId | undefined): Promise<string> {
    const id = await this.relay.open(this.session, this.personId, (answer) => this.delivered(answer));
    this.questions.set(id, { call });
    return id;
  }

  private askedAs(own: RequestId): string | undefined {
    return [...this.questions].find(([, question]) => question.own === own)?.[0];
  }

  private delivered(answer: JSONRPCResponse): void {
    const question = this.questions.get(answer.id as string);
    if (question?.own === undefined) return;
    this.questions.delete(answer.id as string);
    this.onmessage?.({ ...answer, id: question.own });
  }

  private forget(id: string): void {
    this.questions.delete(id);
    this.relay.forget(id);
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    // Answers to the server's questions never reach the SDK as they are: they go through the relay (endpoint.ts),
    // under the ids the SDK never gave, and come back to it under its own (delivered).
    if (isJSONRPCResponse(message)) return;
    if (isJSONRPCRequest(message)) this.running.add(message.id);
    this.onmessage?.(message, extra);
  }
}
