import type { LinkFilter, LinkRecord, Page } from '../ports.js';
import type { Db } from './database.js';
import { LINK_COLUMNS } from './link-columns.js';

const NEWEST_FIRST = 'ORDER BY l.seq DESC LIMIT ?';

/**
 * listLinks: newest first by insertion order (the same order as createdAt, then id), keyset-paged by seq, with
 * `q` a case-insensitive substring of code, name, destination or note.
 * - No q: walk the (team, seq) or (team, state, seq) index backwards and stop at the page size.
 * - q of 3+ characters: the trigram index yields matches by rowid (= seq) descending, so a common q stops at the
 *   page size and a rare one is found without reading the team's other links.
 * - q of 1–2 characters: too short for trigrams; walk the team's links newest-first with LIKE.
 */
export function linkSearch(db: Db) {
  const plain = db.prepare(
    `SELECT ${LINK_COLUMNS} FROM links l WHERE l.team_id = ? AND l.seq < ? ${NEWEST_FIRST}`,
  );
  const plainState = db.prepare(
    `SELECT ${LINK_COLUMNS} FROM links l WHERE l.team_id = ? AND l.state = ? AND l.seq < ? ${NEWEST_FIRST}`,
  );
  const matchFilter = `l.code LIKE @q ESCAPE '\\' OR l.name LIKE @q ESCAPE '\\'
    OR l.destination LIKE @q ESCAPE '\\' OR l.note LIKE @q ESCAPE '\\'`;
  const short = db.prepare(
    `SELECT ${LINK_COLUMNS} FROM links l WHERE l.team_id = @teamId AND (@state IS NULL OR l.state = @state)
     AND l.seq < @before AND (${matchFilter}) ORDER BY l.seq DESC LIMIT @limit`,
  );
  const trigram = db.prepare(
    `SELECT ${LINK_COLUMNS} FROM links_search s JOIN links l ON l.seq = s.rowid
     WHERE links_search MATCH @q AND s.rowid < @before AND l.team_id = @teamId
     AND (@state IS NULL OR l.state = @state) ORDER BY s.rowid DESC LIMIT @limit`,
  );

  return (teamId: string, { state, q }: LinkFilter, { limit, after }: Page<number>): LinkRecord[] => {
    const before = after ?? Number.MAX_SAFE_INTEGER;
    if (q === null || q === '') {
      const rows = state ? plainState.all(teamId, state, before, limit) : plain.all(teamId, before, limit);
      return rows as LinkRecord[];
    }
    const params = { teamId, state, before, limit };
    if ([...q].length >= 3) {
      return trigram.all({ ...params, q: `"${q.replaceAll('"', '""')}"` }) as LinkRecord[];
    }
    return short.all({ ...params, q: `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` }) as LinkRecord[];
  };
}
