import type { PgPool } from './database.js';
import { migrations } from './migrations.js';

/**
 * The PostgreSQL half of /healthz: one trivial query on a pooled connection, which shows the database reachable
 * and tells how many migrations it holds. Given the reserved share (database.ts), so calls queued on a team's rows
 * holding every ordinary connection do not pull a process that still serves redirects out of its balancer. It may
 * wait as long as the pool and the network let it (a connection being made to a host that does not answer); the
 * caller bounds how long it waits for the answer.
 */
export function postgresReadiness(pool: PgPool): () => Promise<void> {
  return async () => {
    const { rows } = await pool.query<{ applied: number | null }>('SELECT max(version) AS applied FROM schema_migrations');
    const applied = rows[0]?.applied ?? 0;
    if (applied < migrations.length) throw new Error(`the database has ${applied} of ${migrations.length} migrations`);
  };
}
