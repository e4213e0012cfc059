import type { LinkRecord } from '../ports.js';
import type { LinkQueries, NameRow } from '../operations/link-queries.js';
import type { StoreQueries } from '../operations/team-queries.js';
import { runNow, type Steps } from '../operations/steps.js';
import { writeTransaction, type Db } from './database.js';
import { LINK_COLUMNS } from './link-columns.js';
import type { LinkChanges } from './link-changes.js';
import { sqliteTeamQueries } from './team-queries.js';

/**
 * SQLite's answers to the link, moderation and team operations (store/operations), and `perform`, which runs one
 * operation in one immediate write transaction and tells StoreChanges what it changed within it. The write lock is
 * the whole file's, so the team and name locks are already held.
 */
export function sqliteOperations(db: Db, changes: LinkChanges) {
  const s = statements(db);
  let touched: Array<string | null> = [];

  const links: LinkQueries = {
    lockTeam: () => undefined,
    lockName: () => undefined,
    linkById: (id) => (s.byId.get(id) as LinkRecord | undefined) ?? null,
    lockedLink: (id) => (s.byId.get(id) as LinkRecord | undefined) ?? null,
    linkByCode: (code) => (s.byCode.get(code) as LinkRecord | undefined) ?? null,
    latestCreatedAt: () => {
      const latest = s.latest.get() as string | undefined;
      return latest === undefined ? null : Date.parse(latest);
    },
    liveLinks: (teamId) => (s.live.get(teamId) as number | undefined) ?? null,
    events: (teamId, kind, since) => s.window.get(teamId, kind, since) as ReturnType<LinkQueries['events']>,
    addEvent: (teamId, kind, at) => void s.event.run(teamId, kind, at),
    purgeEvents: (before) => void s.purgeEvents.run(before),
    claimCode: (code) => s.code.run(code).changes === 1,
    nameRow: (name) => {
      const row = s.name.get(name) as (Omit<NameRow, 'retired'> & { retired: number }) | undefined;
      return row ? { ...row, retired: row.retired === 1 } : null;
    },
    holdName: (name, teamId, linkId) => void s.holdName.run(name, teamId, linkId),
    releaseName: (name) => void s.releaseName.run(name),
    retireName: (name) => void s.retireName.run(name),
    insertLink: (l) => void s.insert.run(l.id, l.teamId, l.code, l.name, l.destination, l.note, l.createdAt),
    setDestination: (id, destination, at) => void s.destination.run(destination, at, id),
    setNote: (id, note, at) => void s.note.run(note, at, id),
    setName: (id, name, at) => void s.setName.run(name, at, id),
    setState: (id, state, at) => void s.state.run(state, at, id),
    deleteLink: (id) => void s.remove.run(id),
    resolveOpen: (linkId, at) => {
      s.resolveReports.run(at, linkId);
      s.resolveReviews.run(at, linkId);
    },
    saveReport: (r) => void s.report.run(r.id, r.linkId, r.personId, r.reason, r.createdAt),
    establishedReporters: (linkId, since) => s.reporters.get({ linkId, since }) as number,
    flagIfActive: (linkId) => s.flag.run(linkId).changes > 0,
    saveReview: (r) => void s.review.run(r.id, r.linkId, r.personId, r.reason, r.createdAt),
    changed: (...keys) => void touched.push(...keys),
    keepAnswer: (key, claim, status, response) => s.keepAnswer.run({ ...key, claim, status, response }).changes === 1,
  };
  const queries: StoreQueries = { ...links, ...sqliteTeamQueries(db) };

  return function perform<A extends unknown[], T>(operation: (...args: A) => Steps<StoreQueries, T>) {
    const transaction = writeTransaction(db, (...args: A) => {
      touched = [];
      const result = runNow(operation(...args), queries);
      // Logged in this transaction for the other processes on the file, and told to this one's listeners now:
      // nothing else runs before it commits, and forgetting early is always safe (link-changes.ts).
      if (touched.length > 0) changes.changed(...touched);
      return result;
    });
    return async (...args: A): Promise<T> => transaction(...args);
  };
}

/** Established people (ports.ts, ReportRule), for SQL: `@since` is the latest sign-up time old enough. */
export const ESTABLISHED = `(p.added_by_operator = 1 OR (p.created_at <= @since AND p.agreed_terms_at IS NOT NULL
    AND EXISTS (SELECT 1 FROM members m WHERE m.person_id = p.id)))`;

function statements(db: Db) {
  return {
    byId: db.prepare(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.id = ?`),
    byCode: db.prepare(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.code = ?`),
    latest: db.prepare('SELECT created_at FROM links ORDER BY seq DESC LIMIT 1').pluck(),
    live: db.prepare('SELECT link_count FROM teams WHERE id = ?').pluck(),
    window: db.prepare(
      'SELECT count(*) AS count, min(at) AS oldestAt FROM link_events WHERE team_id = ? AND kind = ? AND at > ?',
    ),
    event: db.prepare('INSERT INTO link_events (team_id, kind, at) VALUES (?, ?, ?)'),
    purgeEvents: db.prepare('DELETE FROM link_events WHERE at < ?'),
    code: db.prepare('INSERT OR IGNORE INTO codes (code) VALUES (?)'),
    name: db.prepare('SELECT team_id AS teamId, link_id AS linkId, retired FROM names WHERE name = ?'),
    holdName: db.prepare(
      `INSERT INTO names (name, team_id, link_id, retired) VALUES (?, ?, ?, 0)
       ON CONFLICT (name) DO UPDATE SET team_id = excluded.team_id, link_id = excluded.link_id`,
    ),
    releaseName: db.prepare('UPDATE names SET link_id = NULL WHERE name = ?'),
    retireName: db.prepare('UPDATE names SET link_id = NULL, retired = 1 WHERE name = ?'),
    insert: db.prepare(
      `INSERT INTO links (id, team_id, code, name, destination, note, state, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'active', ?)`,
    ),
    destination: db.prepare('UPDATE links SET destination = ?, changed_at = ? WHERE id = ?'),
    note: db.prepare('UPDATE links SET note = ?, changed_at = ? WHERE id = ?'),
    setName: db.prepare('UPDATE links SET name = ?, changed_at = ? WHERE id = ?'),
    state: db.prepare('UPDATE links SET state = ?, changed_at = ? WHERE id = ?'),
    remove: db.prepare('DELETE FROM links WHERE id = ?'),
    resolveReports: db.prepare('UPDATE reports SET resolved_at = ? WHERE link_id = ? AND resolved_at IS NULL'),
    resolveReviews: db.prepare('UPDATE reviews SET resolved_at = ? WHERE link_id = ? AND resolved_at IS NULL'),
    report: db.prepare(
      `INSERT INTO reports (id, link_id, person_id, reason, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (link_id, person_id) WHERE resolved_at IS NULL DO UPDATE SET reason = excluded.reason`,
    ),
    reporters: db
      .prepare(
        `SELECT count(DISTINCT r.person_id) FROM reports r JOIN people p ON p.id = r.person_id
         WHERE r.link_id = @linkId AND r.resolved_at IS NULL AND ${ESTABLISHED}`,
      )
      .pluck(),
    flag: db.prepare("UPDATE links SET state = 'flagged' WHERE id = ? AND state = 'active'"),
    review: db.prepare(
      `INSERT INTO reviews (id, link_id, person_id, reason, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (link_id, person_id) WHERE resolved_at IS NULL DO UPDATE SET reason = excluded.reason`,
    ),
    keepAnswer: db.prepare(
      `UPDATE idempotency SET status = @status, response = @response
       WHERE person_id = @personId AND operation = @operation AND key = @key AND created_at = @claim AND status IS NULL`,
    ),
  };
}
