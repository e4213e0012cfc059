import type { SignupInvitationStore } from '../ports.js';
import { signupInvitationState } from '../password-link-state.js';
import { signupInvitationSql } from '../sql/signup-invitations.js';
import type { PgPool } from './database.js';
import { changed, row, run, transaction } from './query.js';

export function pgSignupInvitations(pool: PgPool): SignupInvitationStore {
  return {
    issue({ email, tokenHash, expiresAt }, now) {
      return transaction(pool, async (client) => {
        await run(client, signupInvitationSql.forget, { email });
        await run(client, signupInvitationSql.insert, { tokenHash, email, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
      });
    },
    async find(tokenHash, now) {
      return signupInvitationState(await row(pool, signupInvitationSql.byHash, { tokenHash }), now);
    },
    async spend(tokenHash, now) {
      return (await changed(pool, signupInvitationSql.spend, { tokenHash, at: now.toISOString() })) > 0;
    },
  };
}
