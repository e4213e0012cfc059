import type { DomainStore } from '../ports.js';
import { domainChanges } from '../operations/domains.js';
import { domainOf, domainSql } from '../sql/domains.js';
import type { Db } from './database.js';
import type { sqliteOperations } from './link-queries.js';
import { prepareAll } from './prepare.js';

/** The SQLite DomainStore: reads here, changes as the shared operations (operations/domains.ts). */
export function sqliteDomains(db: Db, perform: ReturnType<typeof sqliteOperations>): DomainStore {
  const s = prepareAll(db, domainSql);
  return {
    ...domainChanges(perform),
    async get(domain) {
      const row = s.byName.get({ domain });
      return row ? domainOf(row) : null;
    },
    async list(teamId) {
      return (teamId === undefined ? s.live.all({}) : s.ofTeam.all({ teamId })).map(domainOf);
    },
    async directory() {
      return s.all.all({}).map(domainOf);
    },
    async due(now, limit) {
      return s.due.all({ now: now.toISOString(), limit }).map(domainOf);
    },
  };
}
