import type { WebSession, WebSessionStore } from '../ports.js';
import type { PgPool } from './database.js';
import { row } from './query.js';

export function pgWebSessions(pool: PgPool): WebSessionStore {
  return {
    async add(idHash, session, now) {
      const at = now.toISOString();
      // Expired sessions go whenever a new one starts, so the table stays the size of the signed-in people.
      await pool.query('DELETE FROM web_sessions WHERE expires_at <= $1', [at]);
      await pool.query(
        'INSERT INTO web_sessions (id_hash, person_id, csrf_secret, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [idHash, session.personId, session.csrfSecret, at, session.expiresAt],
      );
    },
    async find(idHash, now) {
      return row<WebSession>(
        pool,
        `SELECT person_id AS "personId", csrf_secret AS "csrfSecret", expires_at AS "expiresAt" FROM web_sessions
         WHERE id_hash = $1 AND expires_at > $2`,
        [idHash, now.toISOString()],
      );
    },
    async remove(idHash) {
      await pool.query('DELETE FROM web_sessions WHERE id_hash = $1', [idHash]);
    },
  };
}
