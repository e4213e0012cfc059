import type pg from 'pg';
import type { StoreQueries } from '../operations/team-queries.js';
import { runAwaiting, type Steps } from '../operations/steps.js';
import type { PgChanges } from './changes.js';
import { pgLinkQueries } from './link-queries.js';
import { silentAccessWrite, type AccessWrite } from './access-writes.js';
import { pgDomainQueries } from './domain-queries.js';
import { pgTeamQueries } from './team-queries.js';

/** What running operations tells the other processes through (changes.ts); a stand-in in tests of single ports. */
export type OperationNews = Pick<PgChanges, 'news' | 'notifyLinks' | 'told' | 'heard'>;

/** For ports assembled without StoreChanges (tests of single ports): telling no one. */
export const silentNews: OperationNews = {
  news: () => '',
  notifyLinks: async () => undefined,
  told: () => undefined,
  heard: async () => undefined,
};

/**
 * Runs one link, moderation, team or domain operation in one transaction (`inTransaction`), answering its queries on the
 * transaction's connection. The links it touched are notified to every process at commit, and told to this one as
 * soon as it committed; its caller is answered once every live process heard of them (changes.ts). The team
 * operations (who belongs, which teams exist) run as the store's accessWrite (access-writes.ts), which also tells
 * every process within the transaction that access changed.
 */
export function pgOperations(pool: pg.Pool, changes: OperationNews, inTransaction: AccessWrite = silentAccessWrite(pool)) {
  return function perform<A extends unknown[], T>(operation: (...args: A) => Steps<StoreQueries, T>) {
    return async (...args: A): Promise<T> => {
      let touched: Array<string | null> = [];
      const news = changes.news();
      try {
        return await inTransaction(async (client) => {
          // A run again after a deadlock starts afresh: what an earlier attempt touched never committed.
          touched = [];
          const queries = { ...pgLinkQueries(client, touched), ...pgTeamQueries(client), ...pgDomainQueries(client) };
          const value = await runAwaiting(operation(...args), queries as never);
          if (touched.length > 0) await changes.notifyLinks(client, news, touched);
          return value;
        });
      } finally {
        // Also when it failed: a COMMIT whose answer was lost may have gone through, and forgetting is always safe.
        if (touched.length > 0) changes.told(touched);
        await changes.heard(news);
      }
    };
  };
}
