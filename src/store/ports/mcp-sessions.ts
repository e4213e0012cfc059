/**
 * What MCP 2025-11-25 sessions share across the service's processes; everything else a session holds travels in
 * its id (src/mcp/sessions-2025/session-id.ts). Sessions are named by the SHA-256 of their id.
 */
export interface McpSessionStore {
  /** The client ended the session: remembered until `expiresAt`, when its id stops working anyway. */
  end(sessionHash: Buffer, expiresAt: Date, now: Date): Promise<void>;
  ended(sessionHash: Buffer): Promise<boolean>;
  /**
   * Records a question the server put to the session's client (deleteLink's elicitation), open until `expiresAt`
   * unless answered or withdrawn first, so that the process an answer reaches can tell a real answer from anything
   * else. False, recording nothing, when the person has `perPerson` open questions already, in any session.
   */
  ask(question: McpQuestion, perPerson: number, now: Date): Promise<boolean>;
  /**
   * Fills in the answer (a JSON-RPC response, as text) of the session's open question, told at once to every
   * process's `watchAnswers` listeners. False, writing nothing, when the session has no such question open and
   * unanswered: never asked, answered already, withdrawn or expired. The first answer stays.
   */
  answer(sessionHash: Buffer, questionId: string, answer: string, now: Date): Promise<boolean>;
  /** The answered questions among these, each with its answer, once: whoever takes one, no one else gets it. */
  takeAnswers(questionIds: readonly string[]): Promise<McpAnswer[]>;
  /** The question is over, answered or not (the call ended, was cancelled or timed out): it goes. */
  withdraw(sessionHash: Buffer, questionId: string): Promise<void>;
  /**
   * Calls `listener` whenever an answer may have been filled in, by any process; the answer itself is then taken
   * with `takeAnswers`. One watch serves every question a process waits on; the returned function ends it.
   */
  watchAnswers(listener: () => void): () => void;
}

/** A question put to a 2025-11-25 session's client; its id is the JSON-RPC id it went out under. */
export interface McpQuestion {
  sessionHash: Buffer;
  questionId: string;
  /** The person the session belongs to: open questions are counted per person. */
  personId: string;
  expiresAt: Date;
}

export interface McpAnswer {
  sessionHash: Buffer;
  questionId: string;
  answer: string;
}
