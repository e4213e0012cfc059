import { sql } from './statement.js';

/**
 * Operator settings and the blocklist. Writing the limits differs: PostgreSQL merges them in one statement (jsonb
 * ||), so two processes' changes at once both stay; SQLite's write transaction reads and writes them whole.
 */
export const settingsSql = {
  value: sql<{ key: string }, { value: string }>('SELECT value FROM settings WHERE key = :key'),
  blocked: sql<Record<string, never>, { domain: string }>('SELECT domain FROM blocked_domains'),
  block: sql<{ domain: string; at: string }>(
    'INSERT INTO blocked_domains (domain, created_at) VALUES (:domain, :at) ON CONFLICT (domain) DO NOTHING',
  ),
  unblock: sql<{ domain: string }>('DELETE FROM blocked_domains WHERE domain = :domain'),
};
