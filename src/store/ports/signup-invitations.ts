/** What a sign-up link's token finds: the email it is for while it works, else why it does not. */
export type SignupInvitationState = { kind: 'valid'; email: string } | { kind: 'used' | 'expired' | 'unknown' };

/**
 * Sign-up links an operator makes for an email (`shortlinks person invite`): while sign-up is `invite` only, they
 * (and team invitations) let someone make an account. Only the token's SHA-256 is stored.
 */
export interface SignupInvitationStore {
  /** A new link for the email, working until `expiresAt`; the email's earlier links stop working. */
  issue(input: { email: string; tokenHash: Buffer; expiresAt: Date }, now: Date): Promise<void>;
  /** What the token finds, changing nothing. */
  find(tokenHash: Buffer, now: Date): Promise<SignupInvitationState>;
  /** Spends the link once its account is made; false when it no longer worked. */
  spend(tokenHash: Buffer, now: Date): Promise<boolean>;
}
