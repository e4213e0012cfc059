import type { LeaseStore } from '../ports.js';
import { leaseSql } from '../sql/leases.js';
import { writeTransaction, type Db } from './database.js';
import { prepare } from './prepare.js';

/**
 * Leases in the `leases` table. Acquiring is one statement in an immediate transaction: of two processes asking
 * at once, the second waits for the first to commit and then sees its row, so exactly one gets a free lease.
 */
export function sqliteLeases(db: Db): LeaseStore {
  const take = prepare(db, leaseSql.take);
  const acquire = writeTransaction(
    db,
    (name: string, holder: string, until: Date, now: Date): boolean =>
      take.run({ name, holder, until: until.getTime(), now: now.getTime() }).changes > 0,
  );
  return {
    acquire: async (name, holder, until, now) => acquire(name, holder, until, now),
  };
}
