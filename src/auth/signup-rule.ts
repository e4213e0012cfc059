import type { RequestHandler } from 'express';
import type { SignupMode } from '../domain/service-settings.js';
import type { SettingsStore, Store } from '../store/ports.js';
import { passwordLinkHashOrNull } from './password-link.js';

/** Who may make an account, and which sign-up link (if any) the account spends once made. */
export type SignupVerdict = { allowed: true; spends: Buffer | null } | { allowed: false; reason: string };

/** The sign-up mode's words for someone who cannot make an account here. */
export const CLOSED_WORDS = 'This service does not take sign-ups: its operator makes the accounts. Ask them for one.';
export const INVITE_WORDS =
  'Accounts here are by invitation: sign up with the email a team invited, or follow the sign-up link the operator gave you.';

/** The sign-up link a form or address carries: valid, with its email, or null (none, spent, expired, not ours). */
export async function standingSignupLink(store: Store, token: string, now: Date): Promise<{ tokenHash: Buffer; email: string } | null> {
  const tokenHash = token === '' ? null : passwordLinkHashOrNull(token);
  if (tokenHash === null) return null;
  const found = await store.signupInvitations.find(tokenHash, now);
  return found.kind === 'valid' ? { tokenHash, email: found.email } : null;
}

/**
 * May `email` make an account under `mode`? `open`: anyone. `closed`: no one (the operator's `person add`, and single
 * sign-on later, make accounts without asking this). `invite`: an email with a standing team invitation, or the email
 * of the operator's sign-up link the form carries. A standing link for the email is spent under `open` too, so it
 * cannot make a second account after the first is deleted.
 */
export async function signupVerdict(store: Store, mode: SignupMode, email: string, token: string, now: Date): Promise<SignupVerdict> {
  if (mode === 'closed') return { allowed: false, reason: CLOSED_WORDS };
  const link = await standingSignupLink(store, token, now);
  const spends = link !== null && link.email === email ? link.tokenHash : null;
  if (mode === 'open' || spends !== null) return { allowed: true, spends };
  if ((await store.invitations.forEmail(email, now)).length > 0) return { allowed: true, spends: null };
  const reason =
    link !== null
      ? `This sign-up link is for ${link.email}: sign up with that email.`
      : token !== ''
        ? 'This sign-up link was used, has expired or is not one of ours, and no team invited this email. Ask the operator for a new link.'
        : `No team invited this email. ${INVITE_WORDS}`;
  return { allowed: false, reason };
}

/**
 * Keeps the sign-up mode on `res.locals.signupMode` for the header of the pages drawn after it (web/request.ts
 * header()), which offers "Sign up" unless it is closed. Cheap enough for every page: both stores keep the settings
 * in memory until a process changes them (no query on most requests), and drop them in time for the very next
 * request after `settings set --signup`.
 */
export function signupModeForHeader(settings: SettingsStore): RequestHandler {
  return async (_req, res, next) => {
    try {
      res.locals.signupMode = (await settings.serviceSettings()).signup;
    } catch {
      // Unreadable settings: the page answers as it can (a database down is its own 503), its header offers no sign-up.
    }
    next();
  };
}
