import type pg from 'pg';
import type { LeaseStore } from '../ports.js';
import { changed } from './query.js';

/**
 * Leases in the `leases` table (see the SQLite one). One upsert: of two processes asking at once, PostgreSQL makes
 * the second wait on the first's row and then re-checks the condition against it, so exactly one gets a free lease.
 */
export function pgLeases(pool: pg.Pool): LeaseStore {
  return {
    async acquire(name, holder, until, now) {
      const taken = await changed(
        pool,
        `INSERT INTO leases (name, holder, until) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
         WHERE leases.holder = excluded.holder OR leases.until <= $4`,
        [name, holder, until.getTime(), now.getTime()],
      );
      return taken > 0;
    },
  };
}
