import { INVITATION_MS } from '../domain/invitations.js';
import { oneTimeToken } from './password-link.js';

/**
 * Sign-up links, `PUBLIC_URL/signup?invitation=<token>`, which `shortlinks person invite` prints for an email: while
 * sign-up is `invite` only, the person signs up there with that email. One use; they stand as long as a team
 * invitation does (a week). The token is made and looked up as a set-password link's (password-link.ts).
 */
export const SIGNUP_LINK_DAYS = INVITATION_MS / 86_400_000;

/** The query parameter (and the sign-up form's hidden field) that carries the token. */
export const INVITATION_FIELD = 'invitation';

/** A fresh sign-up link for `publicUrl`, standing for a week from `now`. */
export function newSignupLink(publicUrl: string, now: Date): { url: string; tokenHash: Buffer; expiresAt: Date } {
  const { token, tokenHash } = oneTimeToken();
  return { url: `${publicUrl}/signup?${INVITATION_FIELD}=${token}`, tokenHash, expiresAt: new Date(now.getTime() + INVITATION_MS) };
}
