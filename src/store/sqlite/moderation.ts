import type { LinkRecord, ModerationStore, Report, ReportRule, ReviewRequest } from '../ports.js';
import { newId } from '../../domain/ids.js';
import { HOUR_MS } from '../../domain/limits.js';
import type { Random } from '../../domain/random.js';
import { apiError } from '../../errors.js';
import { linkNotFound } from '../../domain/link-state.js';
import { writeTransaction, type Db } from './database.js';
import { LINK_COLUMNS } from './link-columns.js';
import type { LinkChanges } from './link-changes.js';

export function sqliteModeration(db: Db, random: Random, changes: LinkChanges): ModerationStore {
  const link = db.prepare(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.id = ?`);
  const report = db.prepare(
    `INSERT INTO reports (id, link_id, person_id, reason, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (link_id, person_id) WHERE resolved_at IS NULL DO UPDATE SET reason = excluded.reason`,
  );
  // Established (ports.ts, ReportRule): `@since` is the latest sign-up time that is old enough. Sign-up is open
  // and unverified, so fresh accounts are kept out of the count; a shared client address proves nothing either way.
  const established = `(p.added_by_operator = 1 OR (p.created_at <= @since AND p.agreed_terms_at IS NOT NULL
    AND EXISTS (SELECT 1 FROM members m WHERE m.person_id = p.id)))`;
  const reporters = db.prepare(
    `SELECT count(DISTINCT r.person_id) FROM reports r JOIN people p ON p.id = r.person_id
     WHERE r.link_id = @linkId AND r.resolved_at IS NULL AND ${established}`,
  ).pluck();
  const flag = db.prepare("UPDATE links SET state = 'flagged' WHERE id = ? AND state = 'active'");
  const review = db.prepare(
    `INSERT INTO reviews (id, link_id, person_id, reason, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (link_id, person_id) WHERE resolved_at IS NULL DO UPDATE SET reason = excluded.reason`,
  );
  // Open reports and review requests, oldest first; reports also say whether their reporter counts now.
  const open = (table: 'reports' | 'reviews', more = '') =>
    db.prepare(
      `SELECT r.id, l.code AS linkCode, r.person_id AS personId, r.reason, r.created_at AS createdAt${more}
       FROM ${table} r JOIN links l ON l.id = r.link_id LEFT JOIN people p ON p.id = r.person_id
       WHERE r.resolved_at IS NULL ORDER BY r.created_at, r.id`,
    );
  const openReports = open('reports', `, coalesce(${established}, 0) AS counts`);
  const openReviews = open('reviews');
  const since = (rule: ReportRule, now: Date) =>
    new Date(now.getTime() - rule.establishedAfterHours * HOUR_MS).toISOString();

  const read = (id: string): LinkRecord => {
    const row = link.get(id) as LinkRecord | undefined;
    if (!row) throw linkNotFound();
    return row;
  };

  const addReport = writeTransaction(db, (linkId: string, personId: string, reason: string, rule: ReportRule, now: Date) => {
    read(linkId);
    report.run(newId('report', random), linkId, personId, reason, now.toISOString());
    const counted = reporters.get({ linkId, since: since(rule, now) }) as number;
    if (counted >= rule.reportsToFlag && flag.run(linkId).changes > 0) {
      const flagged = read(linkId);
      changes.changed(flagged.code, flagged.name);
    }
    return read(linkId);
  });

  const addReview = writeTransaction(db, (linkId: string, personId: string, reason: string | null, now: Date) => {
    const current = read(linkId);
    if (current.state !== 'flagged') {
      throw apiError.conflict('Only a flagged link can be reviewed; this one is not flagged.', 'code');
    }
    review.run(newId('review', random), linkId, personId, reason, now.toISOString());
    return current;
  });

  return {
    report: async (linkId, personId, reason, rule, now) => addReport(linkId, personId, reason, rule, now),
    askForReview: async (linkId, personId, reason, now) => addReview(linkId, personId, reason, now),
    openReports: async (rule, now) =>
      (openReports.all({ since: since(rule, now) }) as Array<Omit<Report, 'counts'> & { counts: number }>).map(
        (row) => ({ ...row, counts: row.counts === 1 }),
      ),
    openReviews: async () => openReviews.all() as ReviewRequest[],
  };
}
