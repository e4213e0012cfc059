import type { McpSessionStore } from '../ports.js';
import { mcpSessionSql } from '../sql/mcp-sessions.js';
import { changeWatcher, writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';

/**
 * How often, while questions wait, this process looks whether another process committed anything, and so may have
 * filled in an answer. A look costs nothing while nothing changed (data_version, from the WAL index); only then is
 * the database asked, once for all the questions waiting.
 */
const WATCH_MS = 100;

export function sqliteMcpSessions(db: Db): McpSessionStore {
  const s = prepareAll(db, mcpSessionSql);
  // A read of the person's questions that turns into a write: immediate, so another process's question in between
  // can neither fail it with SQLITE_BUSY nor pass the cap alongside it.
  const ask = writeTransaction(db, (params: Parameters<typeof s.ask.run>[0]) => {
    s.purgeQuestions.run(params);
    return s.ask.run(params).changes === 1;
  });
  const fill = db.prepare(
    'UPDATE mcp_questions SET answer = ? WHERE question_id = ? AND session_hash = ? AND answer IS NULL AND expires_at > ?',
  );
  // One statement, so two processes looking for the same answer cannot both get it.
  const take = db.prepare(
    `DELETE FROM mcp_questions WHERE answer IS NOT NULL AND question_id IN (SELECT value FROM json_each(?))
     RETURNING session_hash, question_id, answer`,
  );

  const listeners = new Set<() => void>();
  const tell = () => {
    for (const listener of listeners) listener();
  };
  const otherWriters = changeWatcher(db);
  let timer: NodeJS.Timeout | undefined;

  return {
    async end(sessionHash, expiresAt, now) {
      // Records that can no longer matter go whenever one is added, so the tables stay the size of what is live.
      s.purgeEnded.run({ now: now.toISOString() });
      s.end.run({ sessionHash, expiresAt: expiresAt.toISOString() });
    },
    async ended(sessionHash) {
      return s.ended.get({ sessionHash }) !== undefined;
    },
    async ask({ sessionHash, questionId, personId, expiresAt }, perPerson, now) {
      return ask({ questionId, sessionHash, personId, expiresAt: expiresAt.toISOString(), now: now.toISOString(), perPerson });
    },
    async answer(sessionHash, questionId, answer, now) {
      if (fill.run(answer, questionId, sessionHash, now.toISOString()).changes === 0) return false;
      // This connection's own commit moves no data_version: its listeners are told here.
      tell();
      return true;
    },
    async takeAnswers(questionIds) {
      if (questionIds.length === 0) return [];
      const taken = take.all(JSON.stringify(questionIds)) as Array<{ session_hash: Buffer; question_id: string; answer: string }>;
      return taken.map((t) => ({ sessionHash: t.session_hash, questionId: t.question_id, answer: t.answer }));
    },
    async withdraw(sessionHash, questionId) {
      s.withdraw.run({ questionId, sessionHash });
    },
    watchAnswers(listener) {
      listeners.add(listener);
      timer ??= setInterval(() => {
        if (otherWriters()) tell();
      }, WATCH_MS).unref();
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        clearInterval(timer);
        timer = undefined;
      };
    },
  };
}
