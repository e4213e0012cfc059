import type pg from 'pg';
import type { ModerationStore, Report, ReviewRequest } from '../ports.js';
import type { Random } from '../../domain/random.js';
import { establishedSignUpBy, moderationOperations } from '../operations/moderation.js';
import { established } from './link-queries.js';
import type { pgOperations } from './operations.js';
import { rows } from './query.js';

/** The PostgreSQL ModerationStore: open reports and reviews read here, changes as the shared operations. */
export function pgModeration(pool: pg.Pool, random: Random, perform: ReturnType<typeof pgOperations>): ModerationStore {
  // Open reports and review requests, oldest first; reports also say whether their reporter counts now.
  // Of every link ($link null) or one.
  const open = (table: 'reports' | 'reviews', link: string, more = '') =>
    `SELECT r.id, l.code AS "linkCode", r.person_id AS "personId", r.reason, r.created_at AS "createdAt"${more}
     FROM ${table} r JOIN links l ON l.id = r.link_id LEFT JOIN people p ON p.id = r.person_id
     WHERE r.resolved_at IS NULL AND (${link}::text IS NULL OR r.link_id = ${link}) ORDER BY r.created_at, r.id`;
  const operations = moderationOperations(random);
  return {
    report: perform(operations.report),
    askForReview: perform(operations.askForReview),
    openReports: async (rule, now, linkId) => {
      const text = open('reports', '$2', `, coalesce(${established('$1')}, false) AS counts`);
      const found = await rows<Report & { counts: boolean | null }>(pool, text, [establishedSignUpBy(rule, now), linkId ?? null]);
      return found.map((report) => ({ ...report, counts: report.counts === true }));
    },
    openReviews: (linkId) => rows<ReviewRequest>(pool, open('reviews', '$1'), [linkId ?? null]),
  };
}
