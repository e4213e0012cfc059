import type { LinkQueries } from '../operations/link-queries.js';
import type { StoreQueries } from '../operations/team-queries.js';
import { runNow, type Steps } from '../operations/steps.js';
import { writeTransaction, type Db } from './database.js';
import { LEAVE_TEAM } from '../sql/analytics.js';
import { idempotencySql } from '../sql/idempotency.js';
import { linkOrNull, linkSql, nameRowOf, storedOptions } from '../sql/links.js';
import { moderationSql } from '../sql/moderation.js';
import { askingFor, webhookSql } from '../sql/webhooks.js';
import type { LinkChanges } from './link-changes.js';
import { prepare, prepareAll } from './prepare.js';
import { sqliteDomainQueries } from './domain-queries.js';
import { sqliteTeamQueries } from './team-queries.js';

/**
 * SQLite's answers to the link, moderation, team and domain operations (store/operations), and `perform`, which runs one
 * operation in one immediate write transaction and tells StoreChanges what it changed within it. The write lock is
 * the whole file's, so the team and name locks are already held.
 */
export function sqliteOperations(db: Db, changes: LinkChanges) {
  const s = statements(db);
  const tellWebhooks = prepare(db, webhookSql.enqueue);
  const leaveTeam = LEAVE_TEAM.map((statement) => prepare(db, statement));
  let touched: Array<string | null> = [];

  const links: LinkQueries = {
    lockTeam: () => undefined,
    lockName: () => undefined,
    linkById: (id) => linkOrNull(s.byId.get({ id })),
    lockedLink: (id) => linkOrNull(s.lockedById.get({ id })),
    linkByCode: (code) => linkOrNull(s.byCode.get({ code })),
    latestCreatedAt: () => {
      const latest = s.latestCreatedAt.get({});
      return latest === undefined ? null : Date.parse(latest.createdAt);
    },
    sameLink: (teamId, destination, name) => s.sameLink.get({ teamId, destination, name })?.code ?? null,
    liveLinks: (teamId) => s.liveLinks.get({ teamId })?.n ?? null,
    events: (teamId, kind, since) => s.events.get({ teamId, kind, since })!,
    addEvent: (teamId, kind, at) => void s.addEvent.run({ teamId, kind, at }),
    purgeEvents: (before) => void s.purgeEvents.run({ before }),
    claimCode: (code) => s.claimCode.run({ code }).changes === 1,
    nameRow: (name) => {
      const row = s.nameRow.get({ name });
      return row ? nameRowOf(row) : null;
    },
    holdName: (name, teamId, linkId) => void s.holdName.run({ name, teamId, linkId }),
    releaseName: (name) => void s.releaseName.run({ name }),
    retireName: (name) => void s.retireName.run({ name }),
    insertLink: (link) => void s.insert.run({ ...link, ...storedOptions(link) }),
    setOptions: (id, options, at) => void s.setOptions.run({ id, at, ...storedOptions(options) }),
    setTags: ({ id, teamId, seq }, tags) => {
      s.clearTags.run({ id });
      for (const tag of tags) s.addTag.run({ id, teamId, seq, tag });
    },
    setDestination: (id, destination, at) => void s.setDestination.run({ id, destination, at }),
    setNote: (id, note, at) => void s.setNote.run({ id, note, at }),
    setName: (id, name, at) => void s.setName.run({ id, name, at }),
    setState: (id, state, at) => void s.setState.run({ id, state, at }),
    deleteLink: (id) => {
      for (const leave of leaveTeam) leave.run({ linkId: id });
      s.delete.run({ id });
    },
    resolveOpen: (linkId, at) => {
      s.resolveReports.run({ linkId, at });
      s.resolveReviews.run({ linkId, at });
    },
    saveReport: (report) => void s.saveReport.run(report),
    establishedReporters: (linkId, since) => s.establishedReporters.get({ linkId, since })!.n,
    flagIfActive: (id) => s.flagIfActive.run({ id }).changes > 0,
    saveReview: (review) => void s.saveReview.run(review),
    tellWebhooks: ({ eventId, teamId, type, payload, at }) =>
      void tellWebhooks.run({ eventId, teamId, type, payload, at: at.getTime(), pattern: askingFor(type) }),
    changed: (...keys) => void touched.push(...keys),
    keepAnswer: (key, claim, status, response) => s.finish.run({ ...key, claim, status, response }).changes === 1,
  };
  const queries: StoreQueries = { ...links, ...sqliteTeamQueries(db), ...sqliteDomainQueries(db) };

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

/** The shared statements the operations ask, prepared once on the connection. */
function statements(db: Db) {
  return { ...prepareAll(db, linkSql), ...prepareAll(db, moderationSql), ...prepareAll(db, idempotencySql) };
}
