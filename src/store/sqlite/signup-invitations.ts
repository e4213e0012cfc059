import type { SignupInvitationStore } from '../ports.js';
import { signupInvitationState } from '../password-link-state.js';
import { signupInvitationSql } from '../sql/signup-invitations.js';
import { writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';

export function sqliteSignupInvitations(db: Db): SignupInvitationStore {
  const s = prepareAll(db, signupInvitationSql);
  const issue = writeTransaction(db, (email: string, tokenHash: Buffer, expiresAt: Date, now: Date) => {
    s.forget.run({ email });
    s.insert.run({ tokenHash, email, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
  });
  return {
    async issue({ email, tokenHash, expiresAt }, now) {
      issue(email, tokenHash, expiresAt, now);
    },
    async find(tokenHash, now) {
      return signupInvitationState(s.byHash.get({ tokenHash }), now);
    },
    async spend(tokenHash, now) {
      return s.spend.run({ tokenHash, at: now.toISOString() }).changes > 0;
    },
  };
}
