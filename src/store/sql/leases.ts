import { sql } from './statement.js';

/** Leases: one upsert takes a lease that is free, expired or already the holder's. */
export const leaseSql = {
  take: sql<{ name: string; holder: string; until: number; now: number }>(
    `INSERT INTO leases (name, holder, until) VALUES (:name, :holder, :until)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
     WHERE leases.holder = excluded.holder OR leases.until <= :now`,
  ),
};
