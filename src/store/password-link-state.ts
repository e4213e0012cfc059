import type { PasswordLinkState, Person, SignupInvitationState } from './ports.js';

/** When a one-time link (set-password, sign-up) stops working, and whether it was spent. */
export interface OneTimeLinkRow {
  expiresAt: string;
  usedAt: string | null;
}

/** Why a one-time link's row no longer works, or null while it does. */
export function linkNotValid(row: OneTimeLinkRow | null | undefined, now: Date): 'unknown' | 'used' | 'expired' | null {
  if (!row) return 'unknown';
  if (row.usedAt !== null) return 'used';
  return row.expiresAt <= now.toISOString() ? 'expired' : null;
}

/** A set-password link's row with its person, as both adapters read it. */
export interface StoredPasswordLink extends Person, OneTimeLinkRow {}

/** What a link's token finds: its person while the link works, else why it does not. */
export function passwordLinkState(row: StoredPasswordLink | null | undefined, now: Date): PasswordLinkState {
  const not = linkNotValid(row, now);
  if (not !== null) return { kind: not };
  const { expiresAt: _expiresAt, usedAt: _usedAt, ...person } = row!;
  return { kind: 'valid', person };
}

/** What a sign-up link's token finds: its email while the link works, else why it does not. */
export function signupInvitationState(row: (OneTimeLinkRow & { email: string }) | null | undefined, now: Date): SignupInvitationState {
  const not = linkNotValid(row, now);
  return not === null ? { kind: 'valid', email: row!.email } : { kind: not };
}
