import type { Team } from './teams.js';

/**
 * What deleting an account came to: gone (with how many teams of theirs alone went too), refused because it would
 * leave a team that others use without an owner, or no such person.
 */
export type AccountRemoval =
  | { kind: 'removed'; teamsDeleted: number }
  | { kind: 'last_owner'; team: Team; otherMembers: number; links: number }
  | { kind: 'no_person' };

/** A person's changes to their own account that must happen whole (the web app's Account page). */
export interface AccountStore {
  /**
   * Sets the person's password hash and ends every web session of theirs but `keep` (the one changing it), at once;
   * answers how many ended. Their tokens and assistant grants stay.
   */
  changePassword(personId: string, passwordHash: string, keep: Buffer): Promise<{ sessionsEnded: number }>;
  /**
   * Deletes the person, judged on their teams as they are within the deletion: refused while they are the only owner
   * of a team with other members or with links. Otherwise their teams without links or other members go, and with the
   * person their memberships, tokens, web sessions, assistant grants and set-password links, all in one transaction;
   * every process refuses their tokens from the next call on. Reports and review requests they made stay.
   */
  remove(personId: string): Promise<AccountRemoval>;
}
