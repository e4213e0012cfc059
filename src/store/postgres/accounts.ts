import type pg from 'pg';
import type { AccountStore } from '../ports.js';
import { accountOperations } from '../operations/accounts.js';
import { passwordLinkSql } from '../sql/password-links.js';
import { webSessionSql } from '../sql/web-sessions.js';
import type { pgOperations } from './operations.js';
import { changed, run, transaction } from './query.js';

/**
 * The PostgreSQL AccountStore. The deletion runs as the team operations do (`perform` with the store's accessWrite),
 * so every process forgets the person's tokens and memberships it had read before the deletion commits.
 */
export function pgAccounts(pool: pg.Pool, perform: ReturnType<typeof pgOperations>): AccountStore {
  return {
    changePassword(personId, passwordHash, keep) {
      return transaction(pool, async (client) => {
        await run(client, passwordLinkSql.setPassword, { personId, passwordHash });
        return { sessionsEnded: await changed(client, webSessionSql.removeOthers, { personId, keep }) };
      });
    },
    remove: perform(accountOperations.remove),
  };
}
