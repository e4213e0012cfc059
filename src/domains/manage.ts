import { checkDomainName, refuseDomain } from '../domain/custom-domain.js';
import { randomString, type Random } from '../domain/random.js';
import { loadShortenerList } from '../domain/shorteners.js';
import { refusalToManage, type TeamActor } from '../domain/team-roles.js';
import { apiError } from '../errors.js';
import type { Clock } from '../shared/clock.js';
import { count } from '../shared/words.js';
import type { DomainStore, SettingsStore, TeamDomain, TeamStore } from '../store/ports.js';
import { checkDomain } from './checks.js';
import type { LookForProof } from './proof-lookup.js';
import type { DestinationChecker } from '../destinations/checker.js';

/** A token's length: 24 of 62 characters, about 143 bits, so no one guesses another team's before it is published. */
const TOKEN_LENGTH = 24;

/** What managing domains needs: the store's domains, teams and settings, the service's address, randomness, time. */
export interface DomainDeps {
  store: { domains: DomainStore; teams: Pick<TeamStore, 'members'>; settings: Pick<SettingsStore, 'limits' | 'blockedDomains'> };
  publicUrl: string;
  random: Random;
  clock: Clock;
}

/**
 * Adds a domain to a team, for its owners (the team page) and the operator (`domain add`, who may vouch for it:
 * `verified`). The name is checked and refused as domain/custom-domain.ts says, then the store keeps one team a
 * domain and the team's limit. 400 invalid_domain or domain_refused, 409 domain_taken or team_domains_full, 404 for
 * a team the actor cannot see, 403 for a member who is no owner.
 */
export async function addDomain(deps: DomainDeps, input: { teamId: string; domain: string; verified?: boolean }, by: TeamActor): Promise<TeamDomain> {
  const domain = checkDomainName(input.domain);
  const { store } = deps;
  const shorteners = loadShortenerList();
  refuseDomain(domain, { ownHost: new URL(deps.publicUrl).hostname, shorteners, blocked: await store.settings.blockedDomains() });
  const limit = (await store.settings.limits()).teamDomains;
  const token = randomString(deps.random, TOKEN_LENGTH);
  const proof = input.verified ? 'operator' : 'dns';
  const added = await store.domains.add({ teamId: input.teamId, domain, token, proof }, by, limit, deps.clock.now());
  if (added === 'taken') throw apiError.domainTaken(`${domain} belongs to a team already.`, 'domain');
  if (added === 'team_domains_full') throw apiError.teamDomainsFull(`The team holds ${count(limit, 'domain')}, as many as it may.`, 'domain');
  return orRefused(added);
}

/**
 * Which domain a change is for: by name (the operator's CLI), or by name within one team (a team's page). Another
 * team's domain is no domain on a team's page (404), even for someone who owns both, so a page's form only ever acts
 * on the team whose page it is.
 */
export interface DomainTarget {
  domain: string;
  teamId?: string;
}

/**
 * The target's name, checked; within a team, a name that is no domain of the team (a mistyped address among them) is
 * not found.
 */
async function named(deps: Pick<DomainDeps, 'store'>, target: DomainTarget): Promise<string> {
  const { domain, teamId } = target;
  return teamId === undefined ? checkDomainName(domain) : (await domainOfTeam(deps, { domain, teamId })).domain;
}

/** The team's domain by name, for showing it on the team's page; 404 when it is not the team's. */
export async function domainOfTeam(deps: Pick<DomainDeps, 'store'>, target: Required<DomainTarget>): Promise<TeamDomain> {
  const found = await deps.store.domains.get(target.domain.toLowerCase());
  return found?.teamId === target.teamId ? found : orRefused<TeamDomain>('no_domain');
}

/** Removes a domain (its team's owners, the operator): its links answer on it no more, from the next request on. */
export async function removeDomain(deps: Pick<DomainDeps, 'store'>, target: DomainTarget, by: TeamActor): Promise<TeamDomain> {
  return orRefused(await deps.store.domains.remove(await named(deps, target), by));
}

/** Looks for the domain's TXT record now (its team's owners, the operator): its standing after. */
export async function checkDomainNow(deps: DomainDeps & { lookForProof: LookForProof }, target: DomainTarget, by: TeamActor): Promise<TeamDomain> {
  const found = await managed(deps, await named(deps, target), by);
  // The operator vouched for it: it has no record to look for (an intranet's domain may publish none).
  if (found.proof === 'operator') return found;
  // Null only when it was removed (or added again) while the lookup ran: as good as not found.
  return orRefused((await checkDomain({ domains: deps.store.domains, lookForProof: deps.lookForProof, clock: deps.clock }, found)) ?? 'no_domain');
}

/** The domain, when `by` manages it (its team's owners, the operator); refused as the store refuses changes. */
async function managed(deps: Pick<DomainDeps, 'store'>, domain: string, by: TeamActor): Promise<TeamDomain> {
  const found = await deps.store.domains.get(domain);
  const refusal = found && refusalToManage(await deps.store.teams.members(found.teamId), by);
  if (!found || refusal === 'no_team') return orRefused<TeamDomain>('no_domain');
  return refusal ? orRefused<TeamDomain>(refusal) : found;
}

/** A store's answer, or the refusal it is, as the surfaces show it. */
export function orRefused<T>(answer: T | 'no_domain' | 'no_team' | 'not_owner' | 'not_verified'): T {
  if (answer === 'no_domain') throw apiError.notFound('No such domain.', 'domain');
  if (answer === 'no_team') throw apiError.notFound('No such team.', 'team');
  if (answer === 'not_owner') throw apiError.forbidden("Only the team's owners manage its domains.");
  if (answer === 'not_verified') throw apiError.conflict('Only a verified domain can be the primary one.', 'domain');
  return answer;
}

/** Makes a verified domain the team's primary one, or none (null: PUBLIC_URL): its team's owners, the operator. */
export async function setPrimaryDomain(deps: Pick<DomainDeps, 'store'>, teamId: string, domain: string | null, by: TeamActor): Promise<TeamDomain[]> {
  return orRefused(await deps.store.domains.setPrimary(teamId, domain === null ? null : checkDomainName(domain), by));
}

/**
 * Where the domain's root sends visitors: an address that passes every rule a link's destination does (`check`, the
 * service's destination checker), or null for a plain page.
 */
export async function setDomainRoot(
  deps: Pick<DomainDeps, 'store'> & { destinations: DestinationChecker },
  target: DomainTarget,
  rootUrl: string | null,
  by: TeamActor,
): Promise<TeamDomain> {
  const name = await named(deps, target);
  const checked = rootUrl === null ? null : (await deps.destinations.check(rootUrl, 'rootUrl')).url.href;
  return orRefused(await deps.store.domains.setRoot(name, checked, by));
}
