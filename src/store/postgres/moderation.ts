import type pg from 'pg';
import type { ModerationStore } from '../ports.js';
import type { Random } from '../../domain/random.js';
import { establishedSignUpBy, moderationOperations } from '../operations/moderation.js';
import { moderationSql, reportOf } from '../sql/moderation.js';
import type { pgOperations } from './operations.js';
import { rows } from './query.js';

/** The PostgreSQL ModerationStore: open reports and reviews read here, changes as the shared operations. */
export function pgModeration(pool: pg.Pool, random: Random, perform: ReturnType<typeof pgOperations>): ModerationStore {
  const operations = moderationOperations(random);
  return {
    report: perform(operations.report),
    askForReview: perform(operations.askForReview),
    openReports: async (rule, now, linkId) => {
      const found = await rows(pool, moderationSql.openReports, { since: establishedSignUpBy(rule, now), link: linkId ?? null });
      return found.map(reportOf);
    },
    openReviews: (linkId) => rows(pool, moderationSql.openReviews, { link: linkId ?? null }),
  };
}
