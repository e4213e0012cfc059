import { afterCheck, type ProofOutcome } from '../../domain/custom-domain.js';
import { refusalToManage, type Refusal, type TeamActor } from '../../domain/team-roles.js';
import type { NewDomain, TeamDomain } from '../ports.js';
import { dq } from './domain-queries.js';
import { q } from './link-queries.js';
import type { Perform, Steps } from './steps.js';
import { t, type StoreQueries } from './team-queries.js';

type Op<T> = Steps<StoreQueries, T>;

/**
 * The DomainStore's changes, as operations for any adapter to run in one transaction each (see steps.ts). Each
 * tells its domain's name as a change (StoreChanges), so every process's directory of domains forgets it at once.
 * Adding locks the team first, as link creations do, so two additions cannot both take the team's last place. A
 * removed domain keeps its row, in state 'removed' (domain/custom-domain.ts says why), until it is added again.
 */
export const domainOperations = {
  *add(input: NewDomain, by: TeamActor, maxDomains: number, now: Date): Op<TeamDomain | 'taken' | 'team_domains_full' | Refusal> {
    if (!(yield* t.lockedTeam(input.teamId))) return 'no_team';
    const refusal = refusalToManage(yield* t.members(input.teamId), by);
    if (refusal) return refusal;
    const existing = yield* dq.lockedDomain(input.domain);
    if (existing && existing.state !== 'removed') return 'taken';
    if ((yield* dq.teamDomains(input.teamId)).length >= maxDomains) return 'team_domains_full';
    if (existing) yield* dq.deleteDomain(input.domain);
    const at = now.toISOString();
    const vouched = input.proof === 'operator';
    const domain: TeamDomain = {
      ...input,
      state: vouched ? 'verified' : 'pending',
      primary: false,
      rootUrl: null,
      addedAt: at,
      verifiedAt: vouched ? at : null,
      missingSince: null,
      checkedAt: null,
      // A pending domain is looked up at once by the next run of the checker; the operator's word is never checked.
      nextCheckAt: vouched ? null : at,
      problem: null,
    };
    yield* dq.insertDomain(domain);
    yield* q.changed(domain.domain);
    return domain;
  },

  *remove(name: string, by: TeamActor): Op<TeamDomain | 'no_domain' | 'not_owner'> {
    const domain = yield* liveDomain(name);
    if (!domain) return 'no_domain';
    const refusal = refusalToManage(yield* t.members(domain.teamId), by);
    // Someone outside the team finds no domain at all, as they find no team.
    if (refusal) return refusal === 'no_team' ? 'no_domain' : refusal;
    yield* dq.removeDomain(name);
    yield* q.changed(name);
    return domain;
  },

  *setPrimary(teamId: string, name: string | null, by: TeamActor): Op<TeamDomain[] | 'no_domain' | 'not_verified' | Refusal> {
    if (!(yield* t.lockedTeam(teamId))) return 'no_team';
    const refusal = refusalToManage(yield* t.members(teamId), by);
    if (refusal) return refusal;
    const domains = yield* dq.teamDomains(teamId);
    const chosen = name === null ? null : domains.find((domain) => domain.domain === name);
    if (chosen === undefined) return 'no_domain';
    if (chosen !== null && chosen.state !== 'verified') return 'not_verified';
    yield* dq.setPrimaryDomain(teamId, name);
    if (domains.length > 0) yield* q.changed(...domains.map((domain) => domain.domain));
    return domains.map((domain) => ({ ...domain, primary: domain.domain === name }));
  },

  *setRoot(name: string, rootUrl: string | null, by: TeamActor): Op<TeamDomain | 'no_domain' | 'not_owner'> {
    const domain = yield* liveDomain(name);
    if (!domain) return 'no_domain';
    const refusal = refusalToManage(yield* t.members(domain.teamId), by);
    if (refusal) return refusal === 'no_team' ? 'no_domain' : refusal;
    yield* dq.setDomainRoot(name, rootUrl);
    yield* q.changed(name);
    return { ...domain, rootUrl };
  },

  *recordCheck(name: string, token: string, outcome: ProofOutcome, now: Date): Op<TeamDomain | null> {
    const domain = yield* liveDomain(name);
    if (!domain || domain.token !== token) return null;
    const standing = afterCheck(name, domain, outcome, now);
    yield* dq.saveDomainStanding(name, standing);
    // Only a change of state changes what is served; every process forgets the domain then.
    if (standing.state !== domain.state) yield* q.changed(name);
    return { ...domain, ...standing };
  },
};

/** The domain, locked, unless it is removed or there is none. */
function* liveDomain(name: string): Op<TeamDomain | null> {
  const domain = yield* dq.lockedDomain(name);
  return domain && domain.state !== 'removed' ? domain : null;
}

/**
 * Marks every domain of a team that is being deleted removed, and answers their names for the caller to tell with
 * its other changes (operations/teams.ts, operations/accounts.ts).
 */
export function* retireTeamDomains(teamId: string): Op<string[]> {
  const names = (yield* dq.teamDomains(teamId)).map((domain) => domain.domain);
  for (const name of names) yield* dq.removeDomain(name);
  return names;
}

/** The DomainStore's changes as an adapter's `perform` runs them, each in one transaction. */
export function domainChanges(perform: Perform<StoreQueries>) {
  const ops = domainOperations;
  return {
    add: perform(ops.add),
    remove: perform(ops.remove),
    setPrimary: perform(ops.setPrimary),
    setRoot: perform(ops.setRoot),
    recordCheck: perform(ops.recordCheck),
  };
}
