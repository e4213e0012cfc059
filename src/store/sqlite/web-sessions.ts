import type { WebSession, WebSessionStore } from '../ports.js';
import type { Db } from './database.js';

export function sqliteWebSessions(db: Db): WebSessionStore {
  const insert = db.prepare(
    'INSERT INTO web_sessions (id_hash, person_id, csrf_secret, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
  );
  const find = db.prepare(
    `SELECT person_id AS personId, csrf_secret AS csrfSecret, expires_at AS expiresAt FROM web_sessions
     WHERE id_hash = ? AND expires_at > ?`,
  );
  const remove = db.prepare('DELETE FROM web_sessions WHERE id_hash = ?');
  const purge = db.prepare('DELETE FROM web_sessions WHERE expires_at <= ?');

  return {
    async add(idHash, session, now) {
      // Expired sessions go whenever a new one starts, so the table stays the size of the signed-in people.
      purge.run(now.toISOString());
      insert.run(idHash, session.personId, session.csrfSecret, now.toISOString(), session.expiresAt);
    },
    async find(idHash, now) {
      return (find.get(idHash, now.toISOString()) as WebSession | undefined) ?? null;
    },
    async remove(idHash) {
      remove.run(idHash);
    },
  };
}
