import type { PersonSession, WebSession } from '../ports.js';
import { sql } from './statement.js';

type Hashed = { idHash: Buffer };
type OfPerson = { personId: string };

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
  ofPerson: sql<OfPerson & { now: string }, PersonSession>(
    `SELECT id_hash AS "idHash", created_at AS "createdAt", expires_at AS "expiresAt" FROM web_sessions
     WHERE person_id = :personId AND expires_at > :now ORDER BY created_at DESC, id_hash`,
  ),
  removeOfPerson: sql<OfPerson & Hashed>('DELETE FROM web_sessions WHERE id_hash = :idHash AND person_id = :personId'),
  removeOthers: sql<OfPerson & { keep: Buffer }>('DELETE FROM web_sessions WHERE person_id = :personId AND id_hash <> :keep'),
  /** Expired sessions go whenever a new one starts, so the table stays the size of the signed-in people. */
  purge: sql<{ now: string }>('DELETE FROM web_sessions WHERE expires_at <= :now'),
};
