import pg from 'pg';
import { isOutage } from './failures.js';
import { positionalValues, type Params, type Statement } from '../sql/statement.js';

/** A pool or one checked-out connection: whatever a query runs on. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** A shared statement (store/sql) and its named values, as pg runs it: `$1..$n` and the values in their order. */
export function query<P extends Params>(statement: Statement<P>, params: P): { text: string; values: unknown[] } {
  return { text: statement.postgres.text, values: positionalValues(statement.postgres, params) };
}

/** The rows of a query: a shared statement with its named values, or text with its values in order. */
export async function rows<P extends Params, R>(db: Queryable, statement: Statement<P, R>, params: P): Promise<R[]>;
export async function rows<R extends object>(db: Queryable, text: string, values?: unknown[]): Promise<R[]>;
export async function rows(db: Queryable, text: string | Statement, values: unknown[] | Params = []): Promise<unknown[]> {
  return (await send(db, text, values)).rows;
}

/** The first row of a query, or null. */
export async function row<P extends Params, R>(db: Queryable, statement: Statement<P, R>, params: P): Promise<R | null>;
export async function row<R extends object>(db: Queryable, text: string, values?: unknown[]): Promise<R | null>;
export async function row(db: Queryable, text: string | Statement, values: unknown[] | Params = []): Promise<unknown> {
  return (await send(db, text, values)).rows[0] ?? null;
}

/** Runs a shared statement for what it does, not for an answer. */
export async function run<P extends Params>(db: Queryable, statement: Statement<P>, params: P): Promise<void> {
  await send(db, statement, params);
}

/** How many rows a statement changed. */
export async function changed<P extends Params>(db: Queryable, statement: Statement<P>, params: P): Promise<number>;
export async function changed(db: Queryable, text: string, values?: unknown[]): Promise<number>;
export async function changed(db: Queryable, text: string | Statement, values: unknown[] | Params = []): Promise<number> {
  return (await send(db, text, values)).rowCount ?? 0;
}

function send(db: Queryable, text: string | Statement, values: unknown[] | Params): Promise<pg.QueryResult> {
  if (typeof text === 'string') return db.query(text, values as unknown[]);
  return db.query(query(text, values as Params));
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
