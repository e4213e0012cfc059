import { randomUUID } from 'node:crypto';
import type { MailOutbox } from '../ports.js';
import { mailOutboxSql } from '../sql/mail-outbox.js';
import { writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';
import { outboxCounts } from '../outbox-counts.js';

/** The outbox in the SQLite file: a claim is one UPDATE in a write transaction, so claims never overlap. */
export function sqliteMailOutbox(db: Db): MailOutbox {
  const s = prepareAll(db, mailOutboxSql);
  const claim = writeTransaction(db, (holder: string, limit: number, until: number, now: number) =>
    s.claim.all({ holder, limit, until, now }),
  );
  return {
    async enqueue({ to, subject, text, html }, now) {
      s.insert.run({ id: randomUUID(), to, subject, text, html, now: now.getTime() });
    },
    async claim(holder, limit, until, now) {
      // Every process polls every second: only a due message is worth the write lock, which click counts also take.
      if (!s.anyDue.get({ now: now.getTime() })) return [];
      return claim(holder, limit, until.getTime(), now.getTime());
    },
    async sent(id, holder, now) {
      return s.sent.run({ id, holder, now: now.getTime() }).changes > 0;
    },
    async failed(id, holder, error, retryAt, now) {
      const result = retryAt
        ? s.retry.run({ id, holder, error, retryAt: retryAt.getTime() })
        : s.giveUp.run({ id, holder, error, now: now.getTime() });
      return result.changes > 0;
    },
    async prune(before, limit) {
      return s.prune.run({ before: before.getTime(), limit }).changes;
    },
    async counts() {
      return outboxCounts(s.counts.all({}));
    },
  };
}
