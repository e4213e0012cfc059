import type pg from 'pg';
import { transaction, type Queryable } from './query.js';

/**
 * How a write that changes who may do what (tokens made or revoked, members added or removed, terms agreed) runs:
 * its statements on `client`, in one transaction. The store's writer (index.ts) also tells every process, within
 * that transaction, so the news commits with the change or not at all; the one here, for ports assembled without
 * StoreChanges (tests of single ports), only runs the transaction.
 */
export type AccessWrite = <T>(work: (client: Queryable) => Promise<T>) => Promise<T>;

export const silentAccessWrite = (pool: pg.Pool): AccessWrite => (work) => transaction(pool, work);
