import type { LinkFilter, LinkRecord, Page } from '../ports.js';
import type { Db } from './database.js';
import { LINK_COLUMNS, linkOf, linkSql, type LinkRow } from '../sql/links.js';
import { prepareAll } from './prepare.js';
import { spacedText } from './spaced-text.js';
import { linkHolds } from '../tagged-links.js';

/** A team up to this size is searched by reading its links; a larger one through the indexes. */
const SMALL_TEAM = 2000;

/**
 * listLinks: newest first by insertion order (the same order as createdAt, then id), keyset-paged by seq, with
 * `q` a case-insensitive substring of code, name, destination or note.
 * - No q: walk the (team, seq) or (team, state, seq) index backwards and stop at the page size.
 * - A team of up to 2,000 links (the default limit is 25): read its links newest-first and match in JavaScript,
 *   with full Unicode case folding, without touching other teams' links.
 * - Larger teams, q of 3+ characters: the trigram index yields matches by rowid (= seq) descending, so a common q stops at the
 *   page size and a rare one is found without reading the team's other links.
 * - Larger teams, q of 1–2 characters: the same over a trigram index of spaced-out text (spaced-text.ts).
 */
export function linkSearch(db: Db) {
  const { newest: plain, newestInState, liveLinks: teamSize } = prepareAll(db, linkSql);
  // The same query over either trigram index: the plain one, or the spaced-out one for 1–2 characters.
  const matching = (index: 'links_search' | 'links_search_short') =>
    db.prepare(
      `SELECT ${LINK_COLUMNS} FROM ${index} s JOIN links l ON l.seq = s.rowid
       WHERE ${index} MATCH @q AND s.rowid < @before AND l.team_id = @teamId
       AND (@state IS NULL OR l.state = @state) ORDER BY s.rowid DESC LIMIT @limit`,
    );
  const trigram = matching('links_search');
  const shortTrigram = matching('links_search_short');

  const newest = (teamId: string, state: LinkFilter['state'], before: number, limit: number) =>
    (state ? newestInState.all({ teamId, state, before, limit }) : plain.all({ teamId, before, limit })).map(linkOf);

  return (teamId: string, { state, q }: LinkFilter, { limit, after }: Page<number>): LinkRecord[] => {
    const before = after ?? Number.MAX_SAFE_INTEGER;
    if (q === null || q === '') return newest(teamId, state, before, limit);
    if ((teamSize.get({ teamId })?.n ?? 0) <= SMALL_TEAM) {
      return newest(teamId, state, before, SMALL_TEAM)
        .filter((link) => linkHolds(link, q))
        .slice(0, limit);
    }
    const params = { teamId, state, before, limit };
    const long = [...q].length >= 3;
    const phrase = `"${(long ? q : spacedText(q)!).replaceAll('"', '""')}"`;
    return ((long ? trigram : shortTrigram).all({ ...params, q: phrase }) as LinkRow[]).map(linkOf);
  };
}
