import type { Membership, TeamRole } from '../../domain/team-roles.js';
import type { Team } from '../ports.js';
import type { DomainQueries } from './domain-queries.js';
import type { LinkQueries } from './link-queries.js';
import { asker } from './steps.js';

/** A link as deleting its team needs it: what every cache knows it by. */
export interface LinkKeys {
  code: string;
  name: string | null;
}

/**
 * What the team operations ask of an adapter beside the link queries, each answered inside the operation's
 * transaction (see link-queries.ts).
 */
export interface TeamQueries {
  /** The team, held against every other writer until the transaction ends (its members and its links with it). */
  lockedTeam(teamId: string): Team | null;
  members(teamId: string): Membership[];
  deleteMember(teamId: string, personId: string): void;
  setRole(teamId: string, personId: string, role: TeamRole): void;
  setTeamName(teamId: string, name: string): void;
  /** The team's links, each held against every other writer until the transaction ends. */
  lockedTeamLinks(teamId: string): LinkKeys[];
  /** Retires the names the team's links hold: the names of deleted links are never issued again. */
  retireTeamNames(teamId: string): void;
  /** Deletes the team's links (their clicks, reports and reviews go with them); their codes stay taken. */
  deleteTeamLinks(teamId: string): void;
  /** Deletes the team and its members. Its links must be gone first. */
  deleteTeam(teamId: string): void;
  /** The ids of the teams the person belongs to, in id order. */
  teamsOf(personId: string): string[];
  /** Deletes the person and all that is theirs alone (sql/accounts.ts); false when there was no such person. */
  deletePerson(personId: string): boolean;
}

/** Every query an operation may ask: an adapter answers every set in one transaction. */
export type StoreQueries = LinkQueries & TeamQueries & DomainQueries;

/** The team queries as steps of an operation. */
export const t = asker<TeamQueries>();
