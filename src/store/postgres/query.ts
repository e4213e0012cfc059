import pg from 'pg';
import { isOutage } from '../../errors.js';

/** A pool or one checked-out connection: whatever a query runs on. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** The rows of a query. */
export async function rows<R extends object>(db: Queryable, text: string, values: unknown[] = []): Promise<R[]> {
  return (await db.query<R>(text, values)).rows;
}

/** The first row of a query, or null. */
export async function row<R extends object>(db: Queryable, text: string, values: unknown[] = []): Promise<R | null> {
  return (await db.query<R>(text, values)).rows[0] ?? null;
}

/** How many rows a statement changed. */
export async function changed(db: Queryable, text: string, values: unknown[] = []): Promise<number> {
  return (await db.query(text, values)).rowCount ?? 0;
}

/** SQLSTATEs after which the whole transaction may simply run again: serialization failure and deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);
const ATTEMPTS = 5;

/**
 * Runs `work` in one transaction on one connection of the pool: all of it commits, or none of it. A transaction
 * that lost a race PostgreSQL detected (a deadlock between two processes taking the same locks in another order)
 * runs again from the start, a few times at most.
 */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A connection cut or gone quiet is not asked to roll back (that would wait out a second timeout): handed back
      // broken, it is closed, and PostgreSQL rolls back a transaction whose connection ends. Nor is one that cannot
      // even roll back handed back to the pool. One that PostgreSQL answered with an error (a lock not had within
      // lock_timeout) rolls back and serves on.
      if (isOutage(error) && !(error instanceof pg.DatabaseError)) broken = error as Error;
      else await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      const code = (error as { code?: unknown }).code;
      if (attempt < ATTEMPTS && typeof code === 'string' && RETRYABLE.has(code)) continue;
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
