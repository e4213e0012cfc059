import type { Person } from './people.js';

/** What a set-password link's token finds: the person it is for while it works, else why it does not. */
export type PasswordLinkState = { kind: 'valid'; person: Person } | { kind: 'used' | 'expired' | 'unknown' };

/** One-time links where a person sets their password (made by the operator CLI). Only the token's SHA-256 is stored. */
export interface PasswordLinkStore {
  /**
   * A new link for the person, working until `expiresAt`; their earlier links stop working. With `reset`, their
   * password and web sessions end too. Answers how many web sessions ended.
   */
  issue(
    input: { personId: string; tokenHash: Buffer; expiresAt: Date; reset: boolean },
    now: Date,
  ): Promise<{ sessionsEnded: number }>;
  /** What the token finds, changing nothing. */
  find(tokenHash: Buffer, now: Date): Promise<PasswordLinkState>;
  /** While the link works: spends it, sets the password hash and ends the person's web sessions, all at once. */
  use(tokenHash: Buffer, passwordHash: string, now: Date): Promise<PasswordLinkState>;
}
