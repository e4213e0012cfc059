import type pg from 'pg';
import type { McpSessionStore } from '../ports.js';
import { ANSWER_NEWS, type PgChanges } from './changes.js';
import { mcpSessionSql } from '../sql/mcp-sessions.js';
import { changed, row, rows, run, transaction } from './query.js';

/** The PostgreSQL McpSessionStore (see the SQLite one): ended sessions, and the questions put to sessions' clients. */
export function pgMcpSessions(pool: pg.Pool, changes: PgChanges): McpSessionStore {
  return {
    async end(sessionHash, expiresAt, now) {
      await run(pool, mcpSessionSql.purgeEnded, { now: now.toISOString() });
      await run(pool, mcpSessionSql.end, { sessionHash, expiresAt: expiresAt.toISOString() });
    },
    async ended(sessionHash) {
      return (await row(pool, mcpSessionSql.ended, { sessionHash })) !== null;
    },
    async ask({ sessionHash, questionId, personId, expiresAt }, perPerson, now) {
      const params = { questionId, sessionHash, personId, expiresAt: expiresAt.toISOString(), now: now.toISOString(), perPerson };
      await run(pool, mcpSessionSql.purgeQuestions, params);
      // Under the person's lock, so that questions asked at once in several processes cannot pass the cap together.
      return transaction(pool, async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended('mcp_questions ' || $1, 0))", [personId]);
        return (await changed(client, mcpSessionSql.ask, params)) === 1;
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
      await run(pool, mcpSessionSql.withdraw, { questionId, sessionHash });
    },
    watchAnswers(listener) {
      return changes.onAnswers(listener);
    },
  };
}
