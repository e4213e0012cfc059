/** A message to send: one recipient, a subject, and the same words as plain text and as HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A message a sender has claimed: it holds it until it reports the attempt's end (or its claim runs out). */
export interface ClaimedMail extends MailMessage {
  id: string;
  /** This attempt's number, from 1. */
  attempt: number;
}

/**
 * The outbox (issue 22): mail written by a request or the CLI, sent later by the server processes. Each message is
 * claimed by one sender at a time, so however many processes share the store it goes out once. A message holds links
 * with one-time tokens: its text is kept only until it is sent or given up.
 */
export interface MailOutbox {
  /** Queues the message, due at once. */
  enqueue(message: MailMessage, now: Date): Promise<void>;
  /**
   * Claims up to `limit` due messages, oldest first, for `holder` until `until` (past which another sender may take
   * them again, as after a crash), counting an attempt on each. A message claimed by one call is in no other's answer.
   */
  claim(holder: string, limit: number, until: Date, now: Date): Promise<ClaimedMail[]>;
  /** The holder's attempt went out: the message is sent, its text dropped. False when the holder no longer had it. */
  sent(id: string, holder: string, now: Date): Promise<boolean>;
  /**
   * The holder's attempt failed with `error` (a code, never the server's words): tried again from `retryAt`, or,
   * with null, given up for good and its text dropped. False when the holder no longer had it.
   */
  failed(id: string, holder: string, error: string, retryAt: Date | null, now: Date): Promise<boolean>;
  /**
   * Deletes up to `limit` messages sent or given up before `before` (their text is already gone; the rows are kept a
   * while only for the operator to look at), oldest first. Answers how many went.
   */
  prune(before: Date, limit: number): Promise<number>;
  /** How many messages are in each state (the operator's and the tests' view). */
  counts(): Promise<{ pending: number; sent: number; failed: number }>;
}
