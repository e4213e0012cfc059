import type { LinkFilter, LinkRecord, Page } from '../ports.js';
import { LINK_COLUMNS } from './link-columns.js';
import { rows, type Queryable } from './query.js';

/**
 * listLinks: newest first by seq (a team's links are made one at a time under its lock, so seq is their insertion
 * order), keyset-paged by seq, with `q` a case-insensitive substring of code, name, destination or note. The
 * search condition is written exactly as the links_search index is defined (migrations.ts), so a q of 3 or more
 * characters is answered through its trigrams; a shorter one walks the team's links newest-first.
 */
export function pgLinkSearch(db: Queryable) {
  return async (teamId: string, { state, q }: LinkFilter, { limit, after }: Page<number>): Promise<LinkRecord[]> => {
    const before = after ?? Number.MAX_SAFE_INTEGER;
    const values: unknown[] = [teamId, before, limit];
    let where = 'l.team_id = $1 AND l.seq < $2';
    if (state) {
      values.push(state);
      where += ` AND l.state = $${values.length}`;
    }
    if (q !== null && q !== '') {
      values.push(q);
      where += ` AND link_search_text(l.code, l.name, l.destination, l.note) LIKE link_search_pattern($${values.length})`;
    }
    return rows<LinkRecord>(db, `SELECT ${LINK_COLUMNS} FROM links l WHERE ${where} ORDER BY l.seq DESC LIMIT $3`, values);
  };
}
