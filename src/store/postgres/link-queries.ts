import type { LinkRecord } from '../ports.js';
import type { LinkQueries, NameRow } from '../operations/link-queries.js';
import type { WindowCount } from '../../domain/limits.js';
import { LINK_COLUMNS } from './link-columns.js';
import { changed, row, type Queryable } from './query.js';

type Answers = { [K in keyof LinkQueries]: (...args: Parameters<LinkQueries[K]>) => Promise<ReturnType<LinkQueries[K]>> };

/** Established people (ports.ts, ReportRule), for SQL: `since` names the latest sign-up time old enough. */
export const established = (since: string) => `(p.added_by_operator OR (p.created_at <= ${since} AND p.agreed_terms_at IS NOT NULL
    AND EXISTS (SELECT 1 FROM members m WHERE m.person_id = p.id)))`;

/**
 * PostgreSQL's answers to the link and moderation operations (store/operations), on the transaction's connection.
 * Under READ COMMITTED each statement sees what committed before it, so the locks do the ordering: a team's row
 * (FOR UPDATE) serializes its creations and changes across processes, a link's row its changes, and an advisory
 * lock on a name two claims of it. The codes of the links touched are collected in `touched`.
 */
export function pgLinkQueries(client: Queryable, touched: Array<string | null>): Answers {
  const link = async (where: string, value: string, lock = '') =>
    row<LinkRecord>(client, `SELECT ${LINK_COLUMNS} FROM links l WHERE ${where} = $1${lock}`, [value]);
  return {
    lockTeam: async (teamId) => void (await client.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [teamId])),
    lockName: async (name) => void (await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [name])),
    linkById: (id) => link('l.id', id),
    lockedLink: (id) => link('l.id', id, ' FOR UPDATE'),
    linkByCode: (code) => link('l.code', code),
    latestCreatedAt: async () => {
      const latest = await row<{ created_at: string }>(client, 'SELECT created_at FROM links ORDER BY seq DESC LIMIT 1');
      return latest === null ? null : Date.parse(latest.created_at);
    },
    liveLinks: async (teamId) => (await row<{ n: number }>(client, 'SELECT link_count AS n FROM teams WHERE id = $1', [teamId]))?.n ?? null,
    events: async (teamId, kind, since) =>
      (await row<WindowCount>(
        client,
        'SELECT count(*) AS count, min(at) AS "oldestAt" FROM link_events WHERE team_id = $1 AND kind = $2 AND at > $3',
        [teamId, kind, since],
      ))!,
    addEvent: async (teamId, kind, at) => void (await client.query('INSERT INTO link_events (team_id, kind, at) VALUES ($1, $2, $3)', [teamId, kind, at])),
    purgeEvents: async (before) => void (await client.query('DELETE FROM link_events WHERE at < $1', [before])),
    claimCode: async (code) => (await changed(client, 'INSERT INTO codes (code) VALUES ($1) ON CONFLICT DO NOTHING', [code])) === 1,
    nameRow: (name) => row<NameRow>(client, 'SELECT team_id AS "teamId", link_id AS "linkId", retired FROM names WHERE name = $1', [name]),
    holdName: async (name, teamId, linkId) =>
      void (await client.query(
        `INSERT INTO names (name, team_id, link_id, retired) VALUES ($1, $2, $3, false)
         ON CONFLICT (name) DO UPDATE SET team_id = excluded.team_id, link_id = excluded.link_id`,
        [name, teamId, linkId],
      )),
    releaseName: async (name) => void (await client.query('UPDATE names SET link_id = NULL WHERE name = $1', [name])),
    retireName: async (name) => void (await client.query('UPDATE names SET link_id = NULL, retired = true WHERE name = $1', [name])),
    insertLink: async (l) =>
      void (await client.query(
        `INSERT INTO links (id, team_id, code, name, destination, note, state, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'active', $7)`,
        [l.id, l.teamId, l.code, l.name, l.destination, l.note, l.createdAt],
      )),
    setDestination: async (id, destination, at) => void (await client.query('UPDATE links SET destination = $1, changed_at = $2 WHERE id = $3', [destination, at, id])),
    setNote: async (id, note, at) => void (await client.query('UPDATE links SET note = $1, changed_at = $2 WHERE id = $3', [note, at, id])),
    setName: async (id, name, at) => void (await client.query('UPDATE links SET name = $1, changed_at = $2 WHERE id = $3', [name, at, id])),
    setState: async (id, state, at) => void (await client.query('UPDATE links SET state = $1, changed_at = $2 WHERE id = $3', [state, at, id])),
    deleteLink: async (id) => void (await client.query('DELETE FROM links WHERE id = $1', [id])),
    resolveOpen: async (linkId, at) => {
      await client.query('UPDATE reports SET resolved_at = $1 WHERE link_id = $2 AND resolved_at IS NULL', [at, linkId]);
      await client.query('UPDATE reviews SET resolved_at = $1 WHERE link_id = $2 AND resolved_at IS NULL', [at, linkId]);
    },
    saveReport: async (r) =>
      void (await client.query(
        `INSERT INTO reports (id, link_id, person_id, reason, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (link_id, person_id) WHERE resolved_at IS NULL DO UPDATE SET reason = excluded.reason`,
        [r.id, r.linkId, r.personId, r.reason, r.createdAt],
      )),
    establishedReporters: async (linkId, since) =>
      (await row<{ n: number }>(
        client,
        `SELECT count(DISTINCT r.person_id) AS n FROM reports r JOIN people p ON p.id = r.person_id
         WHERE r.link_id = $1 AND r.resolved_at IS NULL AND ${established('$2')}`,
        [linkId, since],
      ))!.n,
    flagIfActive: async (linkId) => (await changed(client, "UPDATE links SET state = 'flagged' WHERE id = $1 AND state = 'active'", [linkId])) > 0,
    saveReview: async (r) =>
      void (await client.query(
        `INSERT INTO reviews (id, link_id, person_id, reason, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (link_id, person_id) WHERE resolved_at IS NULL DO UPDATE SET reason = excluded.reason`,
        [r.id, r.linkId, r.personId, r.reason, r.createdAt],
      )),
    changed: async (...keys) => void touched.push(...keys),
    // The row is locked until the write commits: a takeover (idempotency.ts) waits for it, then replays the answer.
    keepAnswer: async ({ personId, operation, key }, claim, status, response) =>
      (await changed(
        client,
        `UPDATE idempotency SET status = $5, response = $6
         WHERE person_id = $1 AND operation = $2 AND key = $3 AND created_at = $4 AND status IS NULL`,
        [personId, operation, key, claim, status, response],
      )) === 1,
  };
}
