import type { McpSessionStore } from '../ports.js';
import type { Db } from './database.js';

export function sqliteMcpSessions(db: Db): McpSessionStore {
  const end = db.prepare('INSERT OR IGNORE INTO mcp_ended_sessions (session_hash, expires_at) VALUES (?, ?)');
  const ended = db.prepare('SELECT 1 FROM mcp_ended_sessions WHERE session_hash = ?').pluck();
  const purgeEnded = db.prepare('DELETE FROM mcp_ended_sessions WHERE expires_at <= ?');
  const leave = db.prepare(
    'INSERT OR IGNORE INTO mcp_answers (session_hash, question_id, answer, expires_at) VALUES (?, ?, ?, ?)',
  );
  // One statement, so two processes looking for the same answer cannot both get it.
  const take = db.prepare('DELETE FROM mcp_answers WHERE session_hash = ? AND question_id = ? RETURNING answer').pluck();
  const purgeAnswers = db.prepare('DELETE FROM mcp_answers WHERE expires_at <= ?');

  return {
    async end(sessionHash, expiresAt, now) {
      // Records that can no longer matter go whenever one is added, so the tables stay the size of what is live.
      purgeEnded.run(now.toISOString());
      end.run(sessionHash, expiresAt.toISOString());
    },
    async ended(sessionHash) {
      return ended.get(sessionHash) !== undefined;
    },
    async leaveAnswer(sessionHash, questionId, answer, expiresAt, now) {
      purgeAnswers.run(now.toISOString());
      leave.run(sessionHash, questionId, answer, expiresAt.toISOString());
    },
    async takeAnswer(sessionHash, questionId) {
      return (take.get(sessionHash, questionId) as string | undefined) ?? null;
    },
  };
}
