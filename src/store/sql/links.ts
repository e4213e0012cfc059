import type { WindowCount } from '../../domain/limits.js';
import type { LinkState } from '../../domain/link-state.js';
import type { LinkEventKind, NameRow } from '../operations/link-queries.js';
import type { ActiveLink, LinkOptions, LinkRecord } from '../ports.js';
import { flag, sql } from './statement.js';

/**
 * A link row as LinkRecord, from table alias `l`. Aliases are quoted: PostgreSQL folds unquoted names to lower
 * case, and the ports' fields are camelCase.
 */
export const LINK_COLUMNS = `l.seq, l.id, l.team_id AS "teamId", l.code, l.name, l.destination, l.note, l.state,
  l.created_at AS "createdAt", l.changed_at AS "changedAt", l.expires_at AS "expiresAt", l.max_clicks AS "maxClicks",
  l.password_hash AS "passwordHash", l.tags, l.forward_query AS "forwardQuery"`;

/** A link row as LINK_COLUMNS reads it: tags as one text, space-separated; the flag 0/1 in SQLite. */
export type LinkRow = Omit<LinkRecord, 'tags' | 'forwardQuery'> & { tags: string; forwardQuery: number | boolean };

export function linkOf(row: LinkRow): LinkRecord {
  return { ...row, tags: tagsOf(row.tags), forwardQuery: flag(row.forwardQuery) };
}

/** linkOf for an answer that may have found no row. */
export function linkOrNull(row: LinkRow | null | undefined): LinkRecord | null {
  return row ? linkOf(row) : null;
}

/** The tags as the link's column keeps them (sorted, space-separated; empty for none), and back. */
const tagsText = (tags: readonly string[]): string => tags.join(' ');
const tagsOf = (text: string): string[] => (text === '' ? [] : text.split(' '));

/**
 * Established people (ports.ts, ReportRule), for SQL over people `p`: `:since` is the latest sign-up time old
 * enough. A flag is true as itself in both databases (SQLite's 1, PostgreSQL's true).
 */
export const ESTABLISHED = `(p.added_by_operator OR (p.created_at <= :since AND p.agreed_terms_at IS NOT NULL
    AND EXISTS (SELECT 1 FROM members m WHERE m.person_id = p.id)))`;

/** A row of `names` as read: `retired` is 0/1 in SQLite. */
export type NameRowRead = Omit<NameRow, 'retired'> & { retired: number | boolean };

export function nameRowOf(row: NameRowRead): NameRow {
  return { ...row, retired: flag(row.retired) };
}

type Changing<V> = { id: string; at: string } & V;

/** LinkOptions as bound: tags as tagsText, the flag as 0/1 (better-sqlite3 binds no booleans; PostgreSQL reads '1'). */
export type StoredOptions = Omit<LinkOptions, 'tags' | 'forwardQuery'> & { tags: string; forwardQuery: number };

export function storedOptions(options: LinkOptions): StoredOptions {
  const { expiresAt, maxClicks, passwordHash, tags, forwardQuery } = options;
  return { expiresAt, maxClicks, passwordHash, tags: tagsText(tags), forwardQuery: forwardQuery ? 1 : 0 };
}

/** The links' statements: what the link operations ask (operations/link-queries.ts) and the LinkStore reads. */
export const linkSql = {
  byId: sql<{ id: string }, LinkRow>(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.id = :id`),
  /** A change starts from the link it locked (link-queries.ts, lockLink). */
  lockedById: sql<{ id: string }, LinkRow>((d) => `SELECT ${LINK_COLUMNS} FROM links l WHERE l.id = :id${d.forUpdate}`),
  byCode: sql<{ code: string }, LinkRow>(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.code = :code`),
  byName: sql<{ name: string }, LinkRow>(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.name = :name`),
  latestCreatedAt: sql<Record<string, never>, { createdAt: string }>(
    'SELECT created_at AS "createdAt" FROM links ORDER BY seq DESC LIMIT 1',
  ),
  /**
   * An import's duplicate (operations/links.ts importEach), found by the index links_by_destination. SQLite would
   * rather search its unique index of names, which for "no name" is every unnamed link: `+name` keeps it off that
   * index (0.3 ms a row at 30,000 links, 5 µs by destination).
   */
  sameLink: sql<{ teamId: string; destination: string; name: string | null }, { code: string }>(
    (d) =>
      `SELECT code FROM links WHERE destination = :destination AND team_id = :teamId AND ${d.name === 'sqlite' ? '+name IS' : 'name IS NOT DISTINCT FROM'} :name LIMIT 1`,
  ),
  /** The team's live links (kept by triggers), also the LinkStore search's choice of plan. */
  liveLinks: sql<{ teamId: string }, { n: number }>('SELECT link_count AS n FROM teams WHERE id = :teamId'),
  events: sql<{ teamId: string; kind: LinkEventKind; since: number }, WindowCount>(
    'SELECT count(*) AS count, min(at) AS "oldestAt" FROM link_events WHERE team_id = :teamId AND kind = :kind AND at > :since',
  ),
  addEvent: sql<{ teamId: string; kind: LinkEventKind; at: number }>(
    'INSERT INTO link_events (team_id, kind, at) VALUES (:teamId, :kind, :at)',
  ),
  purgeEvents: sql<{ before: number }>('DELETE FROM link_events WHERE at < :before'),
  claimCode: sql<{ code: string }>('INSERT INTO codes (code) VALUES (:code) ON CONFLICT DO NOTHING'),
  nameRow: sql<{ name: string }, NameRowRead>(
    'SELECT team_id AS "teamId", link_id AS "linkId", retired FROM names WHERE name = :name',
  ),
  holdName: sql<{ name: string; teamId: string; linkId: string }>(
    `INSERT INTO names (name, team_id, link_id, retired) VALUES (:name, :teamId, :linkId, false)
     ON CONFLICT (name) DO UPDATE SET team_id = excluded.team_id, link_id = excluded.link_id`,
  ),
  releaseName: sql<{ name: string }>('UPDATE names SET link_id = NULL WHERE name = :name'),
  retireName: sql<{ name: string }>('UPDATE names SET link_id = NULL, retired = true WHERE name = :name'),
  insert: sql<{ id: string; teamId: string; code: string; name: string | null; destination: string; note: string | null; createdAt: string } & StoredOptions>(
    `INSERT INTO links (id, team_id, code, name, destination, note, state, created_at, expires_at, max_clicks, password_hash, tags, forward_query)
     VALUES (:id, :teamId, :code, :name, :destination, :note, 'active', :createdAt, :expiresAt, :maxClicks, :passwordHash, :tags, :forwardQuery)`,
  ),
  setOptions: sql<Changing<StoredOptions>>(
    `UPDATE links SET expires_at = :expiresAt, max_clicks = :maxClicks, password_hash = :passwordHash, tags = :tags,
       forward_query = :forwardQuery, changed_at = :at WHERE id = :id`,
  ),
  /** The rows link_tags keeps of a link's tags, for finding a team's links by tag. */
  clearTags: sql<{ id: string }>('DELETE FROM link_tags WHERE link_id = :id'),
  addTag: sql<{ id: string; teamId: string; seq: number; tag: string }>(
    'INSERT INTO link_tags (link_id, team_id, tag, seq) VALUES (:id, :teamId, :tag, :seq)',
  ),
  setDestination: sql<Changing<{ destination: string }>>('UPDATE links SET destination = :destination, changed_at = :at WHERE id = :id'),
  setNote: sql<Changing<{ note: string | null }>>('UPDATE links SET note = :note, changed_at = :at WHERE id = :id'),
  setName: sql<Changing<{ name: string | null }>>('UPDATE links SET name = :name, changed_at = :at WHERE id = :id'),
  setState: sql<Changing<{ state: LinkState }>>('UPDATE links SET state = :state, changed_at = :at WHERE id = :id'),
  delete: sql<{ id: string }>('DELETE FROM links WHERE id = :id'),
  flagIfActive: sql<{ id: string }>("UPDATE links SET state = 'flagged' WHERE id = :id AND state = 'active'"),
  /** The daily unsafe-site re-check's page: paged by the primary key, from where the last page ended. */
  activeDestinations: sql<{ after: number; limit: number }, ActiveLink>(
    "SELECT seq, code, destination FROM links WHERE state = 'active' AND seq > :after ORDER BY seq LIMIT :limit",
  ),
  /** listLinks by tag: the team's links carrying it below the cursor, newest first, down link_tags' index. */
  newestTagged: sql<{ teamId: string; tag: string; before: number; limit: number }, LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM link_tags t JOIN links l ON l.id = t.link_id
     WHERE t.team_id = :teamId AND t.tag = :tag AND t.seq < :before ORDER BY t.seq DESC LIMIT :limit`,
  ),
  /** The same in one state (tagged links are walked, those in other states left out). */
  newestTaggedInState: sql<{ teamId: string; tag: string; state: LinkState; before: number; limit: number }, LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM link_tags t JOIN links l ON l.id = t.link_id
     WHERE t.team_id = :teamId AND t.tag = :tag AND t.seq < :before AND l.state = :state ORDER BY t.seq DESC LIMIT :limit`,
  ),
  /** The team's tags, each with its links, by tag (bytes: both databases alike). */
  teamTags: sql<{ teamId: string }, { tag: string; links: number }>(
    (d) => `SELECT tag, ${d.name === 'postgres' ? 'count(*)::int' : 'count(*)'} AS links FROM link_tags WHERE team_id = :teamId
     GROUP BY tag ORDER BY tag${d.bytes}`,
  ),
  /** The team's tags holding `part` (tags are lowercase, `part` lowercased), at most `limit`, by tag. */
  tagsHolding: sql<{ teamId: string; part: string; limit: number }, { tag: string }>(
    (d) => `SELECT tag FROM link_tags WHERE team_id = :teamId AND ${d.name === 'postgres' ? 'strpos(tag, :part)' : 'instr(tag, :part)'} > 0
     GROUP BY tag ORDER BY tag${d.bytes} LIMIT :limit`,
  ),
  /** listLinks without q: the team's links below the cursor, newest first, down the (team, seq) index. */
  newest: sql<{ teamId: string; before: number; limit: number }, LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM links l WHERE l.team_id = :teamId AND l.seq < :before ORDER BY l.seq DESC LIMIT :limit`,
  ),
  /** The same in one state, down the (team, state, seq) index. */
  newestInState: sql<{ teamId: string; state: LinkState; before: number; limit: number }, LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM links l WHERE l.team_id = :teamId AND l.state = :state AND l.seq < :before
     ORDER BY l.seq DESC LIMIT :limit`,
  ),
};
