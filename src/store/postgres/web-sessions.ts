import type { WebSessionStore } from '../ports.js';
import { webSessionSql } from '../sql/web-sessions.js';
import type { PgPool } from './database.js';
import { changed, row, rows, run } from './query.js';

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
    ofPerson(personId, now) {
      return rows(pool, webSessionSql.ofPerson, { personId, now: now.toISOString() });
    },
    async removeOfPerson(personId, idHash) {
      return (await changed(pool, webSessionSql.removeOfPerson, { personId, idHash })) > 0;
    },
    removeOthers(personId, keep) {
      return changed(pool, webSessionSql.removeOthers, { personId, keep });
    },
  };
}
