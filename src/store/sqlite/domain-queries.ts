import type { DomainQueries } from '../operations/domain-queries.js';
import { domainOf, domainSql } from '../sql/domains.js';
import type { Db } from './database.js';
import { prepareAll } from './prepare.js';

/** SQLite's answers to the domain operations (store/operations/domains.ts), inside `perform`'s write transaction. */
export function sqliteDomainQueries(db: Db): DomainQueries {
  const s = prepareAll(db, domainSql);
  return {
    lockedDomain: (domain) => {
      const row = s.locked.get({ domain });
      return row ? domainOf(row) : null;
    },
    teamDomains: (teamId) => s.ofTeam.all({ teamId }).map(domainOf),
    insertDomain: (domain) => void s.insert.run(domain),
    deleteDomain: (domain) => void s.delete.run({ domain }),
    removeDomain: (domain) => void s.remove.run({ domain }),
    setPrimaryDomain: (teamId, domain) => {
      s.clearPrimary.run({ teamId });
      if (domain !== null) s.makePrimary.run({ domain });
    },
    setDomainRoot: (domain, rootUrl) => void s.setRoot.run({ domain, rootUrl }),
    saveDomainStanding: (domain, { state, verifiedAt, missingSince, checkedAt, nextCheckAt, problem }) =>
      void s.saveStanding.run({ domain, state, verifiedAt, missingSince, checkedAt, nextCheckAt, problem }),
  };
}
