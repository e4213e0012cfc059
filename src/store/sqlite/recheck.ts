import type { ActiveLink } from '../ports.js';
import type { Db } from './database.js';

/**
 * The daily unsafe-site re-check's page of links: active links after seq `after`, by seq. Paging by the primary
 * key reads each page from where the last one ended, however many links there are.
 */
export function sqliteActiveDestinations(db: Db): (after: number, limit: number) => Promise<ActiveLink[]> {
  const page = db.prepare(
    "SELECT seq, code, destination FROM links WHERE state = 'active' AND seq > ? ORDER BY seq LIMIT ?",
  );
  return async (after, limit) => page.all(after, limit) as ActiveLink[];
}
