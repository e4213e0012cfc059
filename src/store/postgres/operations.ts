import type pg from 'pg';
import type { LinkQueries } from '../operations/link-queries.js';
import { runAwaiting, type Steps } from '../operations/steps.js';
import type { PgChanges } from './changes.js';
import { pgLinkQueries } from './link-queries.js';
import { transaction } from './query.js';

/**
 * Runs one link or moderation operation in one transaction, answering its queries on the transaction's connection.
 * The links it touched are notified to every process at commit, and told to this one as soon as it committed.
 */
export function pgOperations(pool: pg.Pool, changes: PgChanges) {
  return function perform<A extends unknown[], T>(operation: (...args: A) => Steps<LinkQueries, T>) {
    return async (...args: A): Promise<T> => {
      let touched: Array<string | null> = [];
      try {
        return await transaction(pool, async (client) => {
          // A run again after a deadlock starts afresh: what an earlier attempt touched never committed.
          touched = [];
          const value = await runAwaiting(operation(...args), pgLinkQueries(client, touched) as never);
          if (touched.length > 0) await changes.notifyLinks(client, touched);
          return value;
        });
      } finally {
        // Also when it failed: a COMMIT whose answer was lost may have gone through, and forgetting is always safe.
        if (touched.length > 0) changes.told(touched);
      }
    };
  };
}
