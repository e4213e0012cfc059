import type { PasswordLinkState, Person } from './ports.js';

/** A set-password link's row with its person, as both adapters read it. */
export interface StoredPasswordLink extends Person {
  expiresAt: string;
  usedAt: string | null;
}

/** What a link's token finds: its person while the link works, else why it does not. */
export function passwordLinkState(row: StoredPasswordLink | null | undefined, now: Date): PasswordLinkState {
  if (!row) return { kind: 'unknown' };
  if (row.usedAt !== null) return { kind: 'used' };
  if (row.expiresAt <= now.toISOString()) return { kind: 'expired' };
  const { expiresAt: _expiresAt, usedAt: _usedAt, ...person } = row;
  return { kind: 'valid', person };
}
