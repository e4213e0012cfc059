import type { Report, ReviewRequest } from '../ports.js';
import { ESTABLISHED } from './links.js';
import { flag, sql, type Statement } from './statement.js';

type Standing = { id: string; linkId: string; personId: string; createdAt: string };

/**
 * Open reports and review requests, oldest first, of every link (`:link` null) or one; reports also say whether
 * their reporter counts now.
 */
function open<P extends { link: string | null }, R>(table: 'reports' | 'reviews', more = ''): Statement<P, R> {
  return sql<P, R>(
    (d) => `SELECT r.id, l.code AS "linkCode", r.person_id AS "personId", r.reason, r.created_at AS "createdAt"${more}
     FROM ${table} r JOIN links l ON l.id = r.link_id LEFT JOIN people p ON p.id = r.person_id
     WHERE r.resolved_at IS NULL AND (${d.typed(':link', 'text')} IS NULL OR r.link_id = :link) ORDER BY r.created_at, r.id`,
  );
}

/** A report as read: `counts` is 0/1 in SQLite. */
export type ReportRead = Omit<Report, 'counts'> & { counts: number | boolean };

export function reportOf(row: ReportRead): Report {
  return { ...row, counts: flag(row.counts) };
}

/** Reports and review requests: what the moderation operations ask and the ModerationStore reads. */
export const moderationSql = {
  /** The person's one standing report on the link: asking again replaces its reason. */
  saveReport: sql<Standing & { reason: string }>(
    `INSERT INTO reports (id, link_id, person_id, reason, created_at) VALUES (:id, :linkId, :personId, :reason, :createdAt)
     ON CONFLICT (link_id, person_id) WHERE resolved_at IS NULL DO UPDATE SET reason = excluded.reason`,
  ),
  saveReview: sql<Standing & { reason: string | null }>(
    `INSERT INTO reviews (id, link_id, person_id, reason, created_at) VALUES (:id, :linkId, :personId, :reason, :createdAt)
     ON CONFLICT (link_id, person_id) WHERE resolved_at IS NULL DO UPDATE SET reason = excluded.reason`,
  ),
  establishedReporters: sql<{ linkId: string; since: string }, { n: number }>(
    `SELECT count(DISTINCT r.person_id) AS n FROM reports r JOIN people p ON p.id = r.person_id
     WHERE r.link_id = :linkId AND r.resolved_at IS NULL AND ${ESTABLISHED}`,
  ),
  resolveReports: sql<{ linkId: string; at: string }>(
    'UPDATE reports SET resolved_at = :at WHERE link_id = :linkId AND resolved_at IS NULL',
  ),
  resolveReviews: sql<{ linkId: string; at: string }>(
    'UPDATE reviews SET resolved_at = :at WHERE link_id = :linkId AND resolved_at IS NULL',
  ),
  openReports: open<{ link: string | null; since: string }, ReportRead>('reports', `, coalesce(${ESTABLISHED}, false) AS counts`),
  openReviews: open<{ link: string | null }, ReviewRequest>('reviews'),
};
