import type { DailyClicks } from '../ports.js';
import { sql } from './statement.js';

/**
 * Clicks. Totals and adding a batch differ: SQLite binds many ids as one JSON array and adds row by row in its
 * transaction; PostgreSQL binds arrays and adds a batch in one statement that locks the links it counts for.
 */
export const clickSql = {
  daily: sql<{ linkId: string; from: string; to: string }, DailyClicks>(
    'SELECT day, count AS clicks FROM clicks WHERE link_id = :linkId AND day BETWEEN :from AND :to ORDER BY day',
  ),
};
