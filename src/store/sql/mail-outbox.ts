import { sql } from './statement.js';

/** Columns a claimed message is read with. */
const CLAIMED = 'id, recipient AS "to", subject, text_body AS text, html_body AS html, attempts AS attempt';

/** The outbox: epoch milliseconds for times, so "due" is one comparison. */
export const mailOutboxSql = {
  insert: sql<{ id: string; to: string; subject: string; text: string; html: string; now: number }>(
    `INSERT INTO mail_outbox (id, recipient, subject, text_body, html_body, state, attempts, due_at, holder, last_error, created_at)
     VALUES (:id, :to, :subject, :text, :html, 'pending', 0, :now, NULL, NULL, :now)`,
  ),
  /**
   * One statement: the rows chosen are re-checked as they are updated (PostgreSQL re-reads a row another claim
   * changed first and skips it, its due_at moved past now; SQLite's write transaction runs claims one at a time), so
   * no message is in two claims. Claiming pushes due_at to the claim's end, which is also when a crashed sender's
   * message becomes due again.
   */
  claim: sql<{ holder: string; limit: number; until: number; now: number }, { id: string; to: string; subject: string; text: string; html: string; attempt: number }>(
    `UPDATE mail_outbox SET holder = :holder, due_at = :until, attempts = attempts + 1
     WHERE id IN (SELECT id FROM mail_outbox WHERE state = 'pending' AND due_at <= :now ORDER BY due_at, id LIMIT :limit)
       AND state = 'pending' AND due_at <= :now
     RETURNING ${CLAIMED}`,
  ),
  /** Whether any message is due: read first, so a poll of an empty outbox takes no write lock. */
  anyDue: sql<{ now: number }, { due: number }>("SELECT 1 AS due FROM mail_outbox WHERE state = 'pending' AND due_at <= :now LIMIT 1"),
  sent: sql<{ id: string; holder: string; now: number }>(
    `UPDATE mail_outbox SET state = 'sent', holder = NULL, text_body = '', html_body = '', finished_at = :now
     WHERE id = :id AND holder = :holder AND state = 'pending'`,
  ),
  retry: sql<{ id: string; holder: string; error: string; retryAt: number }>(
    `UPDATE mail_outbox SET holder = NULL, last_error = :error, due_at = :retryAt
     WHERE id = :id AND holder = :holder AND state = 'pending'`,
  ),
  giveUp: sql<{ id: string; holder: string; error: string; now: number }>(
    `UPDATE mail_outbox SET state = 'failed', holder = NULL, last_error = :error, text_body = '', html_body = '', finished_at = :now
     WHERE id = :id AND holder = :holder AND state = 'pending'`,
  ),
  /** Pending messages have no finished_at, so "finished before" is only ever sent or given up. */
  prune: sql<{ before: number; limit: number }>(
    `DELETE FROM mail_outbox WHERE id IN (SELECT id FROM mail_outbox WHERE finished_at < :before ORDER BY finished_at LIMIT :limit)`,
  ),
  counts: sql<object, { state: string; n: number }>(
    'SELECT state, CAST(COUNT(*) AS INTEGER) AS n FROM mail_outbox GROUP BY state',
  ),
};
