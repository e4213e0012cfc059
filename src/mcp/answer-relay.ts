import { randomBytes } from 'node:crypto';
import type { JSONRPCResponse } from '@modelcontextprotocol/server';
import type { Clock } from '../shared/clock.js';
import type { McpSessionStore } from '../store/ports.js';
import { processLog } from '../observability/logger.js';

/** How often a process waiting for an answer looks for it in the database; a person answers in seconds. */
const POLL_MS = 100;
/**
 * How long an answer left in the database is kept, and, in real time, how long a question waits at the most: the
 * SDK itself gives up on a question after 10 minutes (its legacy round timeout) and withdraws it.
 */
const ANSWER_WAIT_MS = 11 * 60_000;
/** Question ids are the JSON-RPC ids of the server's requests to the client: `q_` and 128 random bits. */
const QUESTION = /^q_[A-Za-z0-9_-]{22}$/;

interface Waiter {
  session: Buffer;
  deliver: (answer: JSONRPCResponse) => void;
  until: number;
}

/**
 * Carries a client's answer to a question the server put to it (under 2025-11-25, deleteLink's confirmation is an
 * elicitation request in the middle of a tools/call) to the process that asked. The question goes out on the SSE
 * stream of the call's POST, which the process serving the call holds; the client answers with a new POST, which
 * a load balancer may send to any process. There the answer is handed over at once when this process asked, and
 * otherwise left in the database, where the asking process, looking every 100 ms while it waits, takes it.
 * Question ids are random and never reused, so an answer is only ever taken for the question it names, and only in
 * the session it was asked in.
 */
export class AnswerRelay {
  private readonly waiting = new Map<string, Waiter>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly store: McpSessionStore,
    private readonly clock: Clock,
  ) {}

  /** A new question id in the session; `deliver` gets the answer, through whichever process it came. */
  expect(session: Buffer, deliver: (answer: JSONRPCResponse) => void): string {
    const id = `q_${randomBytes(16).toString('base64url')}`;
    this.waiting.set(id, { session, deliver, until: Date.now() + ANSWER_WAIT_MS });
    this.timer ??= setInterval(() => void this.poll(), POLL_MS).unref();
    return id;
  }

  /** Stops waiting: the question was withdrawn, or its session closed in this process. */
  forget(id: string): void {
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.stop();
  }

  /** An answer the client sent through this process, for whichever process asked. */
  async answer(session: Buffer, answer: JSONRPCResponse): Promise<void> {
    const id = answer.id;
    // Nothing waits for an answer to anything else, here or anywhere.
    if (typeof id !== 'string' || !QUESTION.test(id)) return;
    const waiter = this.waiting.get(id);
    if (waiter?.session.equals(session)) {
      this.forget(id);
      return waiter.deliver(answer);
    }
    const now = this.clock.now();
    await this.store.leaveAnswer(session, id, JSON.stringify(answer), new Date(now.getTime() + ANSWER_WAIT_MS), now);
  }

  close(): void {
    this.waiting.clear();
    this.stop();
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const [id, waiter] of this.waiting) {
        if (Date.now() >= waiter.until) {
          this.forget(id);
          continue;
        }
        const left = await this.store.takeAnswer(waiter.session, id);
        if (left === null || this.waiting.get(id) !== waiter) continue;
        this.forget(id);
        waiter.deliver(JSON.parse(left) as JSONRPCResponse);
      }
    } catch (error) {
      processLog().error({ err: error }, 'MCP: looking for answers left by other processes failed');
    } finally {
      this.polling = false;
    }
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
