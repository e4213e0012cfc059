import type pg from 'pg';
import type { McpSessionStore } from '../ports.js';
import { row } from './query.js';

/** The PostgreSQL McpSessionStore (see the SQLite one): ended sessions and answers waiting for another process. */
export function pgMcpSessions(pool: pg.Pool): McpSessionStore {
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
    async leaveAnswer(sessionHash, questionId, answer, expiresAt, now) {
      await pool.query('DELETE FROM mcp_answers WHERE expires_at <= $1', [now.toISOString()]);
      await pool.query(
        `INSERT INTO mcp_answers (session_hash, question_id, answer, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING`,
        [sessionHash, questionId, answer, expiresAt.toISOString()],
      );
    },
    async takeAnswer(sessionHash, questionId) {
      // One statement, so two processes looking for the same answer cannot both get it.
      const taken = await row<{ answer: string }>(
        pool,
        'DELETE FROM mcp_answers WHERE session_hash = $1 AND question_id = $2 RETURNING answer',
        [sessionHash, questionId],
      );
      return taken?.answer ?? null;
    },
  };
}
