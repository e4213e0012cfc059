import type pg from 'pg';
import type { LeaseStore } from '../ports.js';
import { leaseSql } from '../sql/leases.js';
import { changed } from './query.js';

/**
 * Leases in the `leases` table (see the SQLite one). One upsert: of two processes asking at once, PostgreSQL makes
 * the second wait on the first's row and then re-checks the condition against it, so exactly one gets a free lease.
 */
export function pgLeases(pool: pg.Pool): LeaseStore {
  return {
    async acquire(name, holder, until, now) {
      return (await changed(pool, leaseSql.take, { name, holder, until: until.getTime(), now: now.getTime() })) > 0;
    },
  };
}
