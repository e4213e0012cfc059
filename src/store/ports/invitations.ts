/** An invitation to join a team, made by a member for an email; it stands until taken back, declined or accepted. */
export interface Invitation {
  teamId: string;
  teamName: string;
  email: string;
  /** The email of the member who invited; null once their account is gone. */
  invitedBy: string | null;
  createdAt: string;
}

/**
 * Invitations to join a team, by email: the web app puts no one in a team without their yes (the operator CLI
 * still adds directly). An invitation stands for a week (domain/invitations.ts); older ones are neither read nor
 * kept.
 */
export interface InvitationStore {
  /**
   * Invites `email` to the team, or renews its invitation (`invitedBy` and the time). 'member' changes nothing:
   * whoever has that email is in the team already; 'no_team' neither: the team is gone.
   */
  invite(teamId: string, email: string, invitedBy: string, now: Date): Promise<'invited' | 'member' | 'no_team'>;
  /** The team's standing invitations, newest first. */
  ofTeam(teamId: string, now: Date): Promise<Invitation[]>;
  /** The standing invitations for `email`, newest first. */
  forEmail(email: string, now: Date): Promise<Invitation[]>;
  /**
   * The person with `email` accepts the team's invitation, in one transaction: 'joined' (a member now, the
   * invitation gone), or 'not_open' when none stands (taken back, answered, a week old, the team gone).
   */
  accept(teamId: string, personId: string, email: string, now: Date): Promise<'joined' | 'not_open'>;
  /** Takes the invitation away (taken back, declined); false when there was none. */
  remove(teamId: string, email: string): Promise<boolean>;
}
