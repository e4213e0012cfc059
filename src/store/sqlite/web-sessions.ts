import type { WebSessionStore } from '../ports.js';
import { webSessionSql } from '../sql/web-sessions.js';
import type { Db } from './database.js';
import { prepareAll } from './prepare.js';

export function sqliteWebSessions(db: Db): WebSessionStore {
  const s = prepareAll(db, webSessionSql);

  return {
    async add(idHash, { personId, csrfSecret, expiresAt }, now) {
      s.purge.run({ now: now.toISOString() });
      s.insert.run({ idHash, personId, csrfSecret, createdAt: now.toISOString(), expiresAt });
    },
    async find(idHash, now) {
      return s.find.get({ idHash, now: now.toISOString() }) ?? null;
    },
    async remove(idHash) {
      s.remove.run({ idHash });
    },
    async ofPerson(personId, now) {
      return s.ofPerson.all({ personId, now: now.toISOString() });
    },
    async removeOfPerson(personId, idHash) {
      return s.removeOfPerson.run({ personId, idHash }).changes > 0;
    },
    async removeOthers(personId, keep) {
      return s.removeOthers.run({ personId, keep }).changes;
    },
  };
}
