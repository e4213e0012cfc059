import { randomUUID } from 'node:crypto';
import type { MailOutbox } from '../ports.js';
import { mailOutboxSql } from '../sql/mail-outbox.js';
import type { PgPool } from './database.js';
import { outboxCounts } from '../outbox-counts.js';
import { changed, rows, run } from './query.js';

/** The outbox in PostgreSQL: a claim is one UPDATE, which skips the rows another claim took first (see the SQL). */
export function pgMailOutbox(pool: PgPool): MailOutbox {
  return {
    async enqueue({ to, subject, text, html }, now) {
      await run(pool, mailOutboxSql.insert, { id: randomUUID(), to, subject, text, html, now: now.getTime() });
    },
    claim(holder, limit, until, now) {
      return rows(pool, mailOutboxSql.claim, { holder, limit, until: until.getTime(), now: now.getTime() });
    },
    async sent(id, holder, now) {
      return (await changed(pool, mailOutboxSql.sent, { id, holder, now: now.getTime() })) > 0;
    },
    async failed(id, holder, error, retryAt, now) {
      const count = retryAt
        ? await changed(pool, mailOutboxSql.retry, { id, holder, error, retryAt: retryAt.getTime() })
        : await changed(pool, mailOutboxSql.giveUp, { id, holder, error, now: now.getTime() });
      return count > 0;
    },
    prune(before, limit) {
      return changed(pool, mailOutboxSql.prune, { before: before.getTime(), limit });
    },
    async counts() {
      return outboxCounts(await rows(pool, mailOutboxSql.counts, {}));
    },
  };
}
