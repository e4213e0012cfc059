import type { LeaseStore } from '../ports.js';
import { writeTransaction, type Db } from './database.js';

/**
 * Leases in the `leases` table. Acquiring is one statement in an immediate transaction: of two processes asking
 * at once, the second waits for the first to commit and then sees its row, so exactly one gets a free lease.
 */
export function sqliteLeases(db: Db): LeaseStore {
  const take = db.prepare(
    `INSERT INTO leases (name, holder, until) VALUES (@name, @holder, @until)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
     WHERE leases.holder = excluded.holder OR leases.until <= @now`,
  );
  const acquire = writeTransaction(
    db,
    (name: string, holder: string, until: Date, now: Date): boolean =>
      take.run({ name, holder, until: until.getTime(), now: now.getTime() }).changes > 0,
  );
  return {
    acquire: async (name, holder, until, now) => acquire(name, holder, until, now),
  };
}
