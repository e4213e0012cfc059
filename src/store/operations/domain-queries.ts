import type { DomainStanding } from '../../domain/custom-domain.js';
import type { TeamDomain } from '../ports.js';
import { asker } from './steps.js';

/**
 * What the domain operations ask of an adapter beside the team queries, each answered inside the operation's
 * transaction (see link-queries.ts).
 */
export interface DomainQueries {
  /** The domain, held against every other writer until the transaction ends. */
  lockedDomain(domain: string): TeamDomain | null;
  /** The team's domains, by domain, removed ones left out. */
  teamDomains(teamId: string): TeamDomain[];
  insertDomain(domain: Omit<TeamDomain, 'primary' | 'rootUrl'>): void;
  /** Deletes the row of a removed domain, to add the name again. */
  deleteDomain(domain: string): void;
  /** Marks the domain removed: not primary, no root, no more checks. */
  removeDomain(domain: string): void;
  /** Makes `domain` the team's one primary domain, or none (null). */
  setPrimaryDomain(teamId: string, domain: string | null): void;
  setDomainRoot(domain: string, rootUrl: string | null): void;
  saveDomainStanding(domain: string, standing: DomainStanding): void;
}

/** The domain queries as steps of an operation. */
export const dq = asker<DomainQueries>();
