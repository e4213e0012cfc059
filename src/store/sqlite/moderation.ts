import type { ModerationStore } from '../ports.js';
import type { Random } from '../../domain/random.js';
import { establishedSignUpBy, moderationOperations } from '../operations/moderation.js';
import type { Db } from './database.js';
import { moderationSql, reportOf } from '../sql/moderation.js';
import type { sqliteOperations } from './link-queries.js';
import { prepareAll } from './prepare.js';

/** The SQLite ModerationStore: open reports and reviews read here, changes as the shared operations. */
export function sqliteModeration(db: Db, random: Random, perform: ReturnType<typeof sqliteOperations>): ModerationStore {
  const { openReports, openReviews } = prepareAll(db, moderationSql);
  const operations = moderationOperations(random);

  return {
    report: perform(operations.report),
    askForReview: perform(operations.askForReview),
    openReports: async (rule, now, linkId) => {
      const found = openReports.all({ since: establishedSignUpBy(rule, now), link: linkId ?? null });
      return found.map(reportOf);
    },
    openReviews: async (linkId) => openReviews.all({ link: linkId ?? null }),
  };
}
