import type { Promotion, Refusal, Removal, TeamActor, TeamRole } from '../../domain/team-roles.js';
import type { Page } from './page.js';

export interface Team {
  id: string;
  name: string;
  createdAt: string;
}

export interface Member {
  personId: string;
  email: string;
  role: TeamRole;
  addedAt: string;
}

export interface TeamStore {
  add(input: { name: string; ownerId: string }, now: Date): Promise<Team>;
  get(id: string): Promise<Team | null>;
  /** The person's teams by name, then id. */
  listForPerson(personId: string, page: Page<[string, string]>): Promise<Team[]>;
  isMember(teamId: string, personId: string): Promise<boolean>;
  /**
   * Adds the person as a member (the operator's `member add`), or says why nothing changed: they already were one,
   * or the team is gone. An invitation of theirs to the team is spent with it.
   */
  addMember(teamId: string, personId: string, now: Date): Promise<'added' | 'already' | 'no_team'>;
  /**
   * Removes `personId` from the team, or says why not, judged on the members as they are within the removal
   * (domain/team-roles.ts): anyone may leave, only an owner or the operator removes others, and the only owner
   * stays. Their tokens for the team answer `token_record_left` from then on.
   */
  removeMember(teamId: string, personId: string, by: TeamActor): Promise<Removal>;
  /** Owners only (and the operator): makes a member an owner too, or says why not ('already' changes nothing). */
  makeOwner(teamId: string, personId: string, by: TeamActor): Promise<Promotion>;
  /** The team's members, owners first, then by email. */
  members(teamId: string): Promise<Member[]>;
  /** How many live links the team holds; null when there is no such team. */
  linkCount(teamId: string): Promise<number | null>;
  /** Owners only (and the operator): the renamed team, or why not. The name is checked by the caller. */
  rename(teamId: string, name: string, by: TeamActor): Promise<Team | Refusal>;
  /**
   * Owners only (and the operator): deletes the team with its links and memberships, or says why not. The links
   * go as deleteLink would take them: every process stops redirecting them at once, and their codes and names are
   * never issued again. Tokens made for the team stay, answering `token_record_left`.
   */
  delete(teamId: string, by: TeamActor): Promise<{ links: number } | Refusal>;
}
