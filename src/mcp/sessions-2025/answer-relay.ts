import { randomBytes } from 'node:crypto';
import type { JSONRPCResponse } from '@modelcontextprotocol/server';
import { apiError } from '../../errors.js';
import type { Clock } from '../../shared/clock.js';
import type { McpSessionStore } from '../../store/ports.js';
import { processLog } from '../../observability/logger.js';

/**
 * How long a question stays open at the most: the SDK itself gives up on a question after 10 minutes (its legacy
 * round timeout) and withdraws it; the minute more is for clocks that differ between processes.
 */
const QUESTION_OPEN_MS = 11 * 60_000;
/** Question ids are the JSON-RPC ids of the server's requests to the client: `q_` and 128 random bits. */
const QUESTION = /^q_[A-Za-z0-9_-]{22}$/;
/** The most an answer may hold, as JSON: a person's answer to deleteLink's question is some 100 bytes. */
export const MAX_ANSWER_BYTES = 4096;

/**
 * How many questions may wait for an answer at once: per person, in all their sessions on every process (a person
 * answers one at a time; an assistant asking more is looping), and per process (each holds the POST of its call
 * open), so that no one can make a process hold calls without end.
 */
export interface QuestionCaps {
  perPerson: number;
  perProcess: number;
}

export const QUESTION_CAPS: QuestionCaps = { perPerson: 5, perProcess: 200 };

/** Why an answer was not taken: the HTTP status and JSON-RPC error its POST is answered with. */
export interface Refusal {
  status: number;
  code: number;
  message: string;
}

const NOT_ASKED: Refusal = {
  status: 400,
  code: -32600,
  message: 'Invalid Request: no question of this session waits for an answer under this id (it was never asked, or was answered, withdrawn or expired).',
};
const TOO_LARGE: Refusal = {
  status: 413,
  code: -32600,
  message: `Invalid Request: an answer to a question may hold at most ${MAX_ANSWER_BYTES} bytes.`,
};

interface Waiter {
  session: Buffer;
  deliver: (answer: JSONRPCResponse) => void;
  until: number;
}

/**
 * Carries a client's answer to a question the server put to it (under 2025-11-25, deleteLink's confirmation is an
 * elicitation request in the middle of a tools/call) to the process that asked. The question goes out on the SSE
 * stream of the call's POST, which the process serving the call holds; the client answers with a new POST, which
 * a load balancer may send to any process.
 *
 * Each question is recorded in the database when it is asked, and only an answer to a question open in its session,
 * of a few KiB at most, is written there; anything else is refused, writing nothing. The asking process does not
 * look for each answer in turn: one watch of the store per process (PostgreSQL's notifications; SQLite's
 * data_version) wakes it when an answer may have come, and one query takes every answer waiting for it. Question
 * ids are random and never reused, so an answer is only ever taken for the question it names, and only in the
 * session it was asked in.
 */
export class AnswerRelay {
  private readonly waiting = new Map<string, Waiter>();
  private unwatch: (() => void) | undefined;
  private looking: Promise<void> | undefined;
  private lookAgain = false;

  constructor(
    private readonly store: McpSessionStore,
    private readonly clock: Clock,
    private readonly caps: QuestionCaps = QUESTION_CAPS,
  ) {}

  /**
   * A new question in the person's session, recorded as open; `deliver` gets the answer, through whichever process
   * it came. Refused (429 too_many_requests) when the person or this process has as many waiting as it may.
   */
  async open(session: Buffer, personId: string, deliver: (answer: JSONRPCResponse) => void): Promise<string> {
    if (this.waiting.size >= this.caps.perProcess) {
      throw apiError.tooManyRequests(
        `The service is waiting on ${this.caps.perProcess} questions to people already, the most it holds at once; try again in a few minutes.`,
      );
    }
    const id = `q_${randomBytes(16).toString('base64url')}`;
    // Held from now on, so questions opened together cannot pass the cap side by side.
    this.waiting.set(id, { session, deliver, until: Date.now() + QUESTION_OPEN_MS });
    this.unwatch ??= this.store.watchAnswers(() => void this.look());
    try {
      const now = this.clock.now();
      const question = { sessionHash: session, questionId: id, personId, expiresAt: new Date(now.getTime() + QUESTION_OPEN_MS) };
      if (!(await this.store.ask(question, this.caps.perPerson, now))) {
        throw apiError.tooManyRequests(
          `${this.caps.perPerson} questions to you are waiting for an answer already, the most one person may have; answer or cancel one first.`,
        );
      }
    } catch (error) {
      this.drop(id);
      throw error;
    }
    return id;
  }

  /** The question is over (withdrawn, or its call ended): nothing waits for its answer, here or anywhere. */
  forget(id: string): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.drop(id);
    this.store.withdraw(waiter.session, id).catch((error: unknown) => processLog().error({ err: error }, 'MCP: a question could not be withdrawn'));
  }

  /**
   * An answer the client sent through this process, for whichever process asked: filled in when it answers a
   * question open in the session, and refused otherwise, with nothing written.
   */
  async answer(session: Buffer, answer: JSONRPCResponse): Promise<Refusal | null> {
    const id = answer.id;
    if (typeof id !== 'string' || !QUESTION.test(id)) return NOT_ASKED;
    const text = JSON.stringify(answer);
    if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) return TOO_LARGE;
    if (!(await this.store.answer(session, id, text, this.clock.now()))) return NOT_ASKED;
    // Asked here: taken at once rather than when the watch next wakes.
    if (this.waiting.has(id)) await this.look();
    return null;
  }

  close(): void {
    this.waiting.clear();
    this.unwatch?.();
    this.unwatch = undefined;
  }

  /** Takes every answer waiting for this process's questions; a wake-up meanwhile makes it look once more. */
  private look(): Promise<void> {
    if (this.looking) {
      this.lookAgain = true;
      return this.looking;
    }
    this.looking = (async () => {
      do {
        this.lookAgain = false;
        await this.takeAnswers();
      } while (this.lookAgain && this.waiting.size > 0);
    })().finally(() => (this.looking = undefined));
    return this.looking;
  }

  private async takeAnswers(): Promise<void> {
    const now = Date.now();
    for (const [id, waiter] of this.waiting) if (now >= waiter.until) this.forget(id);
    if (this.waiting.size === 0) return;
    try {
      for (const { sessionHash, questionId, answer } of await this.store.takeAnswers([...this.waiting.keys()])) {
        const waiter = this.waiting.get(questionId);
        if (!waiter?.session.equals(sessionHash)) continue;
        this.drop(questionId);
        waiter.deliver(JSON.parse(answer) as JSONRPCResponse);
      }
    } catch (error) {
      processLog().error({ err: error }, 'MCP: taking answers left by other processes failed');
    }
  }

  /** Stops waiting on the question; the watch ends with the last one. */
  private drop(id: string): void {
    this.waiting.delete(id);
    if (this.waiting.size > 0) return;
    this.unwatch?.();
    this.unwatch = undefined;
  }
}
