import type { ModerationStore, Report, ReviewRequest } from '../ports.js';
import type { Random } from '../../domain/random.js';
import { establishedSignUpBy, moderationOperations } from '../operations/moderation.js';
import type { Db } from './database.js';
import { ESTABLISHED, type sqliteOperations } from './link-queries.js';

/** The SQLite ModerationStore: open reports and reviews read here, changes as the shared operations. */
export function sqliteModeration(db: Db, random: Random, perform: ReturnType<typeof sqliteOperations>): ModerationStore {
  // Open reports and review requests, oldest first, of every link (@link null) or one; reports also say whether
  // their reporter counts now.
  const open = (table: 'reports' | 'reviews', more = '') =>
    db.prepare(
      `SELECT r.id, l.code AS linkCode, r.person_id AS personId, r.reason, r.created_at AS createdAt${more}
       FROM ${table} r JOIN links l ON l.id = r.link_id LEFT JOIN people p ON p.id = r.person_id
       WHERE r.resolved_at IS NULL AND (@link IS NULL OR r.link_id = @link) ORDER BY r.created_at, r.id`,
    );
  const openReports = open('reports', `, coalesce(${ESTABLISHED}, 0) AS counts`);
  const openReviews = open('reviews');
  const operations = moderationOperations(random);

  return {
    report: perform(operations.report),
    askForReview: perform(operations.askForReview),
    openReports: async (rule, now, linkId) => {
      const found = openReports.all({ since: establishedSignUpBy(rule, now), link: linkId ?? null }) as Array<Omit<Report, 'counts'> & { counts: number }>;
      return found.map((row) => ({ ...row, counts: row.counts === 1 }));
    },
    openReviews: async (linkId) => openReviews.all({ link: linkId ?? null }) as ReviewRequest[],
  };
}
