import type { DomainProof, DomainStanding, ProofOutcome } from '../../domain/custom-domain.js';
import type { Refusal, TeamActor } from '../../domain/team-roles.js';

/** A team's own short domain (domain/custom-domain.ts). */
export interface TeamDomain extends DomainStanding {
  domain: string;
  teamId: string;
  /** What its TXT record must hold (domain/custom-domain.ts, proofText): published, so no secret. */
  token: string;
  /** The team's links' addresses use it (while it is verified). At most one a team. */
  primary: boolean;
  /** Where the domain's root (`/`) sends visitors; null: a plain page. */
  rootUrl: string | null;
}

export interface NewDomain {
  teamId: string;
  domain: string;
  token: string;
  proof: DomainProof;
}

/**
 * The teams' domains. Every change is told through StoreChanges with the domain's name as its key (a name holds a
 * dot, which no code or link name does), so every process's directory of domains forgets it at once.
 */
export interface DomainStore {
  /**
   * Adds a domain to a team (owners and the operator): pending for `proof` 'dns', verified for 'operator'; or says
   * why not: the domain is taken (by this team or another), the team holds `maxDomains` already, or the actor may
   * not manage the team.
   */
  add(input: NewDomain, by: TeamActor, maxDomains: number, now: Date): Promise<TeamDomain | 'taken' | 'team_domains_full' | Refusal>;
  /**
   * Removes the domain (owners of its team and the operator): marked removed, it answers not-found pages until it is
   * added again; 'no_domain' also when the actor is not of its team.
   */
  remove(domain: string, by: TeamActor): Promise<TeamDomain | 'no_domain' | Exclude<Refusal, 'no_team'>>;
  /**
   * Makes a verified domain of the team the primary one, or none (null: addresses on PUBLIC_URL); answers the team's
   * domains after it.
   */
  setPrimary(teamId: string, domain: string | null, by: TeamActor): Promise<TeamDomain[] | 'no_domain' | 'not_verified' | Refusal>;
  /** Where the domain's root sends visitors (null: a plain page); the URL is checked by the caller. */
  setRoot(domain: string, rootUrl: string | null, by: TeamActor): Promise<TeamDomain | 'no_domain' | Exclude<Refusal, 'no_team'>>;
  /**
   * Keeps what a check of the domain's TXT record found (domain/custom-domain.ts, afterCheck); null, changing
   * nothing, when the domain is gone or was added again with another token while the lookup ran.
   */
  recordCheck(domain: string, token: string, outcome: ProofOutcome, now: Date): Promise<TeamDomain | null>;
  /** A domain not removed. */
  get(domain: string): Promise<TeamDomain | null>;
  /** The team's domains, or every team's, by domain; removed ones left out. */
  list(teamId?: string): Promise<TeamDomain[]>;
  /**
   * Every domain, removed ones too, in no order: what every process keeps in memory (domains/directory.ts). Small:
   * a few a team.
   */
  directory(): Promise<TeamDomain[]>;
  /** Domains whose next check is due by `now`, the longest due first. */
  due(now: Date, limit: number): Promise<TeamDomain[]>;
}
