import type { LinkFilter, LinkRecord, Page } from '../ports.js';
import { LINK_COLUMNS, linkOf, linkSql, type LinkRow } from '../sql/links.js';
import { rows, type Queryable } from './query.js';

/**
 * How many of the newest links (below the cursor, in the state asked for) a search reads before it asks the gram
 * index. A q that one link in PROBE / limit holds fills its page from them; a rarer one is left with fewer than
 * limit / PROBE of a bucket's 8,192 seqs to read from the index. 300 weighs the two (both cost a few µs a link).
 */
export const PROBE = 300;

/**
 * listLinks: newest first by seq (a team's links are made one at a time under its lock, so seq is their insertion
 * order), keyset-paged by seq, with `q` a case-insensitive substring of code, name, destination or note.
 *
 * With q, one call of link_search (search-function.ts), in two steps, each bounded whatever q is:
 * 1. The team's newest PROBE links below the cursor (in the state asked for), walked by seq; those holding q, up to
 *    the limit.
 * 2. Only when the hits fall short and links older than the probe remain: the team's buckets (migrations.ts) from
 *    the probe's down to its oldest link's. In each, the gram index gives the links holding q's grams, sorted newest
 *    first; those older than the probe are tested for q until the page is full. A bucket's seqs are all below the
 *    next one's, so the page comes out newest first.
 * A common q ends in step 1 after a few links; any other reads the probe, then per bucket a few index entries and
 * the links that hold all of q's grams (1–3 characters: exactly those holding q). The grams reach the index only
 * per bucket, at run time, so the planner cannot see how common q is: its plan for step 2 is the same for every q,
 * made once per connection.
 * Both steps test the same condition, so the page is the same whichever step found its links.
 */
export function pgLinkSearch(db: Queryable) {
  return async (teamId: string, { state, q }: LinkFilter, { limit, after }: Page<number>): Promise<LinkRecord[]> => {
    const before = after ?? Number.MAX_SAFE_INTEGER;
    if (q === null || q === '') {
      const newest = state
        ? await rows(db, linkSql.newestInState, { teamId, state, before, limit })
        : await rows(db, linkSql.newest, { teamId, before, limit });
      return newest.map(linkOf);
    }
    // Starts with SELECT, as every read does: the NUL guard answers a read holding U+0000 with no rows (nul-guard.ts).
    const found = await rows<LinkRow>(
      db,
      `SELECT ${LINK_COLUMNS} FROM link_search($1, $2, $3, $4, $5, ${PROBE}) AS l ORDER BY l.seq DESC`,
      [teamId, before, limit, state, q],
    );
    return found.map(linkOf);
  };
}
