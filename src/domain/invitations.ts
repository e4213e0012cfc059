/** How long an invitation to join a team stands: long enough to be seen by someone who signs in weekly. */
export const INVITATION_MS = 7 * 24 * 60 * 60_000;

/** Invitations made at or before this moment no longer stand. */
export function invitationCutoff(now: Date): string {
  return new Date(now.getTime() - INVITATION_MS).toISOString();
}
