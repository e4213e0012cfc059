import type { ActiveLink } from '../ports.js';
import { linkSql } from '../sql/links.js';
import type { Db } from './database.js';
import { prepare } from './prepare.js';

/** The daily unsafe-site re-check's page of links: active links after seq `after`, by seq (store/sql/links.ts). */
export function sqliteActiveDestinations(db: Db): (after: number, limit: number) => Promise<ActiveLink[]> {
  const page = prepare(db, linkSql.activeDestinations);
  return async (after, limit) => page.all({ after, limit });
}
