import type { Person } from './people.js';

/** What following an email-change link came to. */
export type EmailChangeResult =
  | { kind: 'changed'; person: Person }
  | { kind: 'taken'; email: string }
  | { kind: 'used' | 'expired' | 'unknown' };

/**
 * Changes of a person's email, confirmed by a one-time link mailed to the new address (issue 22). Only the token's
 * SHA-256 is stored; a person has at most one change waiting.
 */
export interface EmailChangeStore {
  /** A new link for the person to take `email`, working until `expiresAt`; their earlier links stop working. */
  issue(input: { personId: string; email: string; tokenHash: Buffer; expiresAt: Date }, now: Date): Promise<void>;
  /**
   * While the link works and no one else has the address: spends it and sets the person's email, at once. Taken
   * meanwhile, nothing changes (the link stays unspent but can only fail the same way until the address is free).
   */
  confirm(tokenHash: Buffer, now: Date): Promise<EmailChangeResult>;
}
