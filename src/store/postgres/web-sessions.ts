import type { WebSessionStore } from '../ports.js';
import { webSessionSql } from '../sql/web-sessions.js';
import type { PgPool } from './database.js';
import { row, run } from './query.js';

export function pgWebSessions(pool: PgPool): WebSessionStore {
  return {
    async add(idHash, { personId, csrfSecret, expiresAt }, now) {
      const at = now.toISOString();
      await run(pool, webSessionSql.purge, { now: at });
      await run(pool, webSessionSql.insert, { idHash, personId, csrfSecret, createdAt: at, expiresAt });
    },
    async find(idHash, now) {
      return row(pool, webSessionSql.find, { idHash, now: now.toISOString() });
    },
    async remove(idHash) {
      await run(pool, webSessionSql.remove, { idHash });
    },
  };
}
