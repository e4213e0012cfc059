import type pg from 'pg';
import type { McpSessionStore } from '../ports.js';
import { ANSWER_NEWS, type PgChanges } from './changes.js';
import { row, rows, transaction } from './query.js';

/** The PostgreSQL McpSessionStore (see the SQLite one): ended sessions, and the questions put to sessions' clients. */
export function pgMcpSessions(pool: pg.Pool, changes: PgChanges): McpSessionStore {
  return {
    async end(sessionHash, expiresAt, now) {
      // Records that can no longer matter go whenever one is added, so the tables stay the size of what is live.
      await pool.query('DELETE FROM mcp_ended_sessions WHERE expires_at <= $1', [now.toISOString()]);
      await pool.query(
        'INSERT INTO mcp_ended_sessions (session_hash, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [sessionHash, expiresAt.toISOString()],
      );
    },
    async ended(sessionHash) {
      return (await row(pool, 'SELECT 1 AS ended FROM mcp_ended_sessions WHERE session_hash = $1', [sessionHash])) !== null;
    },
    async ask({ sessionHash, questionId, personId, expiresAt }, perPerson, now) {
      await pool.query('DELETE FROM mcp_questions WHERE expires_at <= $1', [now.toISOString()]);
      // Under the person's lock, so that questions asked at once in several processes cannot pass the cap together.
      return transaction(pool, async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended('mcp_questions ' || $1, 0))", [personId]);
        const added = await client.query(
          `INSERT INTO mcp_questions (question_id, session_hash, person_id, expires_at)
           SELECT $1, $2, $3, $4
           WHERE (SELECT count(*) FROM mcp_questions WHERE person_id = $3 AND expires_at > $5) < $6`,
          [questionId, sessionHash, personId, expiresAt.toISOString(), now.toISOString(), perPerson],
        );
        return added.rowCount === 1;
      });
    },
    async answer(sessionHash, questionId, answer, now) {
      // The news goes in the same statement, only when an answer was filled in, and is delivered as it commits.
      const filled = await row(
        pool,
        `WITH filled AS (
           UPDATE mcp_questions SET answer = $3
           WHERE question_id = $1 AND session_hash = $2 AND answer IS NULL AND expires_at > $4
           RETURNING 1
         )
         SELECT pg_notify($5, $6) FROM filled`,
        [questionId, sessionHash, answer, now.toISOString(), ANSWER_NEWS.channel, ANSWER_NEWS.payload],
      );
      return filled !== null;
    },
    async takeAnswers(questionIds) {
      if (questionIds.length === 0) return [];
      // One statement, so two processes looking for the same answer cannot both get it.
      const taken = await rows<{ session_hash: Buffer; question_id: string; answer: string }>(
        pool,
        `DELETE FROM mcp_questions WHERE question_id = ANY($1::text[]) AND answer IS NOT NULL
         RETURNING session_hash, question_id, answer`,
        [questionIds],
      );
      return taken.map((t) => ({ sessionHash: t.session_hash, questionId: t.question_id, answer: t.answer }));
    },
    async withdraw(sessionHash, questionId) {
      await pool.query('DELETE FROM mcp_questions WHERE question_id = $1 AND session_hash = $2', [questionId, sessionHash]);
    },
    watchAnswers(listener) {
      return changes.onAnswers(listener);
    },
  };
}
