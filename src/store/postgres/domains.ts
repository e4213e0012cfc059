import type { DomainStore } from '../ports.js';
import { domainChanges } from '../operations/domains.js';
import { domainOf, domainSql } from '../sql/domains.js';
import type { pgOperations } from './operations.js';
import { row, rows, type Queryable } from './query.js';

/** The PostgreSQL DomainStore: reads here, changes as the shared operations (operations/domains.ts). */
export function pgDomains(pool: Queryable, perform: ReturnType<typeof pgOperations>): DomainStore {
  return {
    ...domainChanges(perform),
    async get(domain) {
      const found = await row(pool, domainSql.byName, { domain });
      return found ? domainOf(found) : null;
    },
    async list(teamId) {
      const found = teamId === undefined ? await rows(pool, domainSql.live, {}) : await rows(pool, domainSql.ofTeam, { teamId });
      return found.map(domainOf);
    },
    async directory() {
      return (await rows(pool, domainSql.all, {})).map(domainOf);
    },
    async due(now, limit) {
      return (await rows(pool, domainSql.due, { now: now.toISOString(), limit })).map(domainOf);
    },
  };
}
