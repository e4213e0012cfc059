import type { LinkFilter, LinkRecord, Page } from './ports.js';

/** What finding links by tag asks of an adapter (sql/links.ts: newestTagged, tagsHolding). */
export interface TagReads {
  /** The team's links carrying `tag`, in `state` (null: any), with seq below `before`, newest first, at most `limit`. */
  tagged(teamId: string, tag: string, state: LinkFilter['state'], before: number, limit: number): Promise<LinkRecord[]>;
  /** The team's tags holding `part` (lowercase), at most `limit`. */
  tagsHolding(teamId: string, part: string, limit: number): Promise<string[]>;
}

type Search = (teamId: string, filter: LinkFilter, page: Page<number>) => Promise<LinkRecord[]>;

/** A q matches at most this many of a team's tags; links under more of them are found by their other fields only. */
const TAGS_A_Q_MATCHES = 20;
/** Tagged links read at a time while a tag and a q both filter. */
const TAGGED_BATCH = 200;

/**
 * listLinks with tags, over an adapter's search of code, name, destination and note: `tag` keeps the links carrying
 * it (newest first down link_tags' index; with q too, those also holding q, read a batch at a time), and `q` also
 * finds links by their tags: the team's tags holding q (a few, by link_tags' index), each one's newest links below
 * the cursor, merged with what the search found. Each stream is newest first below the same cursor, so the merge
 * keeps keyset paging exact.
 */
export function withTags(search: Search, reads: TagReads): Search {
  return async (teamId, filter, page) => {
    const before = page.after ?? Number.MAX_SAFE_INTEGER;
    const { state, q, tag } = filter;
    if (tag) return q ? taggedHolding(reads, teamId, tag, state, q, before, page.limit) : reads.tagged(teamId, tag, state, before, page.limit);
    if (!q) return search(teamId, filter, page);
    // At once: over a connection, the tags' round trip then costs nothing on top of the search's.
    const [found, tags] = await Promise.all([search(teamId, filter, page), reads.tagsHolding(teamId, q.toLowerCase(), TAGS_A_Q_MATCHES)]);
    const tagged = await Promise.all(tags.map((each) => reads.tagged(teamId, each, state, before, page.limit)));
    return newestFirst([found, ...tagged], page.limit);
  };
}

/** Whether `q` is in the link's code, name, destination, note or a tag, in any case (listLinks' q). */
export function linkHolds(link: LinkRecord, q: string): boolean {
  const needle = q.toLowerCase();
  return [link.code, link.name, link.destination, link.note, ...link.tags].some((text) => text?.toLowerCase().includes(needle));
}

async function taggedHolding(reads: TagReads, teamId: string, tag: string, state: LinkFilter['state'], q: string, before: number, limit: number) {
  const found: LinkRecord[] = [];
  for (let below = before; found.length < limit; ) {
    const batch = await reads.tagged(teamId, tag, state, below, TAGGED_BATCH);
    found.push(...batch.filter((link) => linkHolds(link, q)));
    if (batch.length < TAGGED_BATCH) break;
    below = batch.at(-1)!.seq;
  }
  return found.slice(0, limit);
}

/** The newest `limit` of several newest-first lists, each link once. */
function newestFirst(lists: LinkRecord[][], limit: number): LinkRecord[] {
  const bySeq = new Map<number, LinkRecord>();
  for (const list of lists) for (const link of list) bySeq.set(link.seq, link);
  return [...bySeq.values()].sort((a, b) => b.seq - a.seq).slice(0, limit);
}
