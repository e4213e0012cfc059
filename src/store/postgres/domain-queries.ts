import type { DomainQueries } from '../operations/domain-queries.js';
import { domainOf, domainSql } from '../sql/domains.js';
import { row, rows, run, type Queryable } from './query.js';

type Answers = { [K in keyof DomainQueries]: (...args: Parameters<DomainQueries[K]>) => Promise<ReturnType<DomainQueries[K]>> };

/**
 * PostgreSQL's answers to the domain operations (store/operations/domains.ts), on the transaction's connection. A
 * domain's row (FOR UPDATE) orders its changes; an addition locks the team first (operations/domains.ts).
 */
export function pgDomainQueries(client: Queryable): Answers {
  return {
    lockedDomain: async (domain) => {
      const found = await row(client, domainSql.locked, { domain });
      return found ? domainOf(found) : null;
    },
    teamDomains: async (teamId) => (await rows(client, domainSql.ofTeam, { teamId })).map(domainOf),
    insertDomain: (domain) => run(client, domainSql.insert, domain),
    deleteDomain: (domain) => run(client, domainSql.delete, { domain }),
    removeDomain: (domain) => run(client, domainSql.remove, { domain }),
    setPrimaryDomain: async (teamId, domain) => {
      await run(client, domainSql.clearPrimary, { teamId });
      if (domain !== null) await run(client, domainSql.makePrimary, { domain });
    },
    setDomainRoot: (domain, rootUrl) => run(client, domainSql.setRoot, { domain, rootUrl }),
    saveDomainStanding: (domain, { state, verifiedAt, missingSince, checkedAt, nextCheckAt, problem }) =>
      run(client, domainSql.saveStanding, { domain, state, verifiedAt, missingSince, checkedAt, nextCheckAt, problem }),
  };
}
