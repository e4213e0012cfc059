import type { LinkFilter, LinkRecord, Page } from '../ports.js';
import { LINK_COLUMNS, linkSql } from '../sql/links.js';
import { rows, type Queryable } from './query.js';

/**
 * How many of the newest links (below the cursor, in the state asked for) a search reads before it asks the gram
 * index. A q that one link in PROBE / limit holds fills its page from them; a rarer one is left with fewer than
 * limit / PROBE of a bucket's 8,192 seqs to read from the index. 300 weighs the two (both cost a few µs a link).
 */
export const PROBE = 300;

/** q's test, written as the migrations define it: link_search_text holds q, lowercased, any characters literal. */
const holdsQ = (alias: string, q: string) =>
  `link_search_text(${alias}.code, ${alias}.name, ${alias}.destination, ${alias}.note) LIKE link_search_pattern(${q})`;

/**
 * listLinks: newest first by seq (a team's links are made one at a time under its lock, so seq is their insertion
 * order), keyset-paged by seq, with `q` a case-insensitive substring of code, name, destination or note.
 *
 * With q, one statement in two steps, each bounded whatever q is:
 * 1. `probed`: the team's newest PROBE links below the cursor, walked by seq; `hits` those holding q, up to the limit.
 * 2. Only when the hits fall short and links older than the probe remain: the team's buckets (migrations.ts) from
 *    the probe's down to its oldest link's. In each, the gram index gives the links holding q's grams, sorted newest
 *    first; those older than the probe are tested for q until the page is full. A bucket's seqs are all below the
 *    next one's, so the page comes out newest first.
 * A common q ends in step 1 after a few links; any other reads the probe, then per bucket a few index entries and
 * the links that hold all of q's grams (1–3 characters: exactly those holding q). The grams reach the index only
 * per bucket, at run time, so the planner cannot see how common q is: its plan for step 2 is the same for every q.
 * Both steps test the same condition, so the page is the same whichever step found its links.
 */
export function pgLinkSearch(db: Queryable) {
  return async (teamId: string, { state, q }: LinkFilter, { limit, after }: Page<number>): Promise<LinkRecord[]> => {
    const before = after ?? Number.MAX_SAFE_INTEGER;
    const values: unknown[] = [teamId, before, limit];
    if (state) values.push(state);
    const inState = (alias: string) => (state ? ` AND ${alias}.state = $4` : '');
    if (q === null || q === '') {
      return state
        ? rows(db, linkSql.newestInState, { teamId, state, before, limit })
        : rows(db, linkSql.newest, { teamId, before, limit });
    }
    values.push(q);
    const qAt = `$${values.length}`;
    // Starts with SELECT, as every read does: the NUL guard answers a read holding U+0000 with no rows (nul-guard.ts).
    // `hits` takes the first links of `probed` as PostgreSQL reads a materialized CTE back, in the order it was
    // written (newest first), and stops there: a common q does not test the rest of the probe. q's grams are worked
    // out once (a subquery), not per bucket. OFFSET 0 keeps a bucket's candidates a query of their own, sorted before
    // the tests above it run (without it the planner may leave the index: test/store/postgres-schema.test.ts).
    // The grams condition is written exactly as links_search_grams is defined.
    return rows<LinkRecord>(
      db,
      `SELECT * FROM (
        WITH probed AS MATERIALIZED (
          SELECT ${LINK_COLUMNS} FROM links l WHERE l.team_id = $1 AND l.seq < $2${inState('l')} ORDER BY l.seq DESC LIMIT ${PROBE}
        ), hits AS MATERIALIZED (
          SELECT * FROM probed p WHERE ${holdsQ('p', qAt)} LIMIT $3
        )
        SELECT * FROM hits
        UNION ALL
        (SELECT ${LINK_COLUMNS}
         FROM generate_series(
           link_search_bucket((SELECT min(seq) FROM probed)),
           link_search_bucket((SELECT min(seq) FROM links WHERE team_id = $1)),
           -1
         ) AS b(bucket),
         LATERAL (
           SELECT * FROM links c
           WHERE link_search_grams(c.team_id, c.seq, link_search_text(c.code, c.name, c.destination, c.note))
             @> link_search_bucket_grams($1, b.bucket, (SELECT link_search_query_grams(${qAt})))
           ORDER BY c.seq DESC OFFSET 0
         ) AS l
         WHERE (SELECT count(*) FROM hits) < $3 AND (SELECT count(*) FROM probed) = ${PROBE}
           AND l.seq < (SELECT min(seq) FROM probed) AND l.team_id = $1${inState('l')} AND ${holdsQ('l', qAt)}
         LIMIT $3)
      ) AS found ORDER BY found.seq DESC LIMIT $3`,
      values,
    );
  };
}
