import type { WebSession } from '../ports.js';
import { sql } from './statement.js';

type Hashed = { idHash: Buffer };

/** Signed-in browser sessions of the web app, kept by the hash of their id. */
export const webSessionSql = {
  insert: sql<Hashed & WebSession & { createdAt: string }>(
    `INSERT INTO web_sessions (id_hash, person_id, csrf_secret, created_at, expires_at)
     VALUES (:idHash, :personId, :csrfSecret, :createdAt, :expiresAt)`,
  ),
  find: sql<Hashed & { now: string }, WebSession>(
    `SELECT person_id AS "personId", csrf_secret AS "csrfSecret", expires_at AS "expiresAt" FROM web_sessions
     WHERE id_hash = :idHash AND expires_at > :now`,
  ),
  remove: sql<Hashed>('DELETE FROM web_sessions WHERE id_hash = :idHash'),
  /** Expired sessions go whenever a new one starts, so the table stays the size of the signed-in people. */
  purge: sql<{ now: string }>('DELETE FROM web_sessions WHERE expires_at <= :now'),
};
