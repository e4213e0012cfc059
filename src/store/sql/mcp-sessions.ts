import { sql } from './statement.js';

type Expiring = { now: string };

/**
 * MCP 2025-11-25 sessions the clients ended, and the questions put to sessions' clients. Filling in and taking
 * answers differ: PostgreSQL tells every process in the statement that fills one in, and binds arrays where SQLite
 * binds a JSON array.
 */
export const mcpSessionSql = {
  end: sql<{ sessionHash: Buffer; expiresAt: string }>(
    'INSERT INTO mcp_ended_sessions (session_hash, expires_at) VALUES (:sessionHash, :expiresAt) ON CONFLICT DO NOTHING',
  ),
  ended: sql<{ sessionHash: Buffer }, { ended: number }>('SELECT 1 AS ended FROM mcp_ended_sessions WHERE session_hash = :sessionHash'),
  /** Records that can no longer matter go whenever one is added, so the tables stay the size of what is live. */
  purgeEnded: sql<Expiring>('DELETE FROM mcp_ended_sessions WHERE expires_at <= :now'),
  purgeQuestions: sql<Expiring>('DELETE FROM mcp_questions WHERE expires_at <= :now'),
  /** Adds the question unless the person has `perPerson` waiting already. */
  ask: sql<Expiring & { questionId: string; sessionHash: Buffer; personId: string; expiresAt: string; perPerson: number }>(
    `INSERT INTO mcp_questions (question_id, session_hash, person_id, expires_at)
     SELECT :questionId, :sessionHash, :personId, :expiresAt
     WHERE (SELECT count(*) FROM mcp_questions WHERE person_id = :personId AND expires_at > :now) < :perPerson`,
  ),
  withdraw: sql<{ sessionHash: Buffer; questionId: string }>(
    'DELETE FROM mcp_questions WHERE question_id = :questionId AND session_hash = :sessionHash',
  ),
};
