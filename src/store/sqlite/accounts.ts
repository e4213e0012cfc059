import type { AccountStore } from '../ports.js';
import { accountOperations } from '../operations/accounts.js';
import { passwordLinkSql } from '../sql/password-links.js';
import { webSessionSql } from '../sql/web-sessions.js';
import { writeTransaction, type Db } from './database.js';
import type { sqliteOperations } from './link-queries.js';
import { prepare } from './prepare.js';

/** The SQLite AccountStore: the password changed in one write transaction, the deletion as the shared operation. */
export function sqliteAccounts(db: Db, perform: ReturnType<typeof sqliteOperations>): AccountStore {
  const setPassword = prepare(db, passwordLinkSql.setPassword);
  const removeOthers = prepare(db, webSessionSql.removeOthers);
  const changePassword = writeTransaction(db, (personId: string, passwordHash: string, keep: Buffer) => {
    setPassword.run({ personId, passwordHash });
    return { sessionsEnded: removeOthers.run({ personId, keep }).changes };
  });

  return {
    async changePassword(personId, passwordHash, keep) {
      return changePassword(personId, passwordHash, keep);
    },
    remove: perform(accountOperations.remove),
  };
}
