import type { ClickStore } from '../ports.js';
import { clickSql } from '../sql/clicks.js';
import type { PgPool } from './database.js';
import { rows, transaction } from './query.js';

/**
 * Adds a batch of counts in one statement. A click counted for a link deleted since is dropped, as in SQLite: the
 * link is gone, so are its counts. The links still there are locked against deletion (FOR KEY SHARE) before their
 * counts are written, so a link deleted by another process at the same moment either goes first (and its counts
 * are dropped) or waits for the batch; it never makes the batch fail on the foreign key. Rows are written in
 * (link, day) order, so two processes' batches take their locks in one order.
 */
const ADD = `WITH live AS (SELECT id FROM links WHERE id = ANY($1::text[]) FOR KEY SHARE)
  INSERT INTO clicks (link_id, day, count)
  SELECT v.link_id, v.day, v.count FROM unnest($1::text[], $2::text[], $3::bigint[]) AS v(link_id, day, count)
  JOIN live ON live.id = v.link_id
  ORDER BY v.link_id, v.day
  ON CONFLICT (link_id, day) DO UPDATE SET count = clicks.count + excluded.count`;

export function pgClicks(pool: PgPool): ClickStore {
  return {
    async daily(linkId, from, to) {
      return rows(pool, clickSql.daily, { linkId, from, to });
    },
    async totals(linkIds, from, to) {
      // SUM of a bigint is numeric (read as text); cast back so the pool reads it as a number like the counts.
      const found = await rows<{ linkId: string; clicks: number }>(
        pool,
        `SELECT link_id AS "linkId", SUM(count)::bigint AS clicks FROM clicks
         WHERE link_id = ANY($1::text[]) AND day BETWEEN $2 AND $3 GROUP BY link_id`,
        [[...linkIds], from, to],
      );
      return new Map(found.map((row) => [row.linkId, row.clicks]));
    },
    async add(counts) {
      const linkIds: string[] = [];
      const days: string[] = [];
      const clicks: number[] = [];
      for (const [linkId, perDay] of counts) {
        for (const [day, count] of perDay) {
          linkIds.push(linkId);
          days.push(day);
          clicks.push(count);
        }
      }
      if (linkIds.length === 0) return;
      // A transaction for its retry: a deadlock with a process deleting links is run again, not lost.
      await transaction(pool, (client) => client.query(ADD, [linkIds, days, clicks]));
      counts.clear();
    },
  };
}
