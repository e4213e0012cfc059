import type { LinkQueries } from '../operations/link-queries.js';
import { LEAVE_TEAM } from '../sql/analytics.js';
import { idempotencySql } from '../sql/idempotency.js';
import { linkOrNull, linkSql, nameRowOf, storedOptions } from '../sql/links.js';
import { moderationSql } from '../sql/moderation.js';
import { askingFor, webhookSql } from '../sql/webhooks.js';
import type { Statement } from '../sql/statement.js';
import { changed, row, run as runOn, type Queryable } from './query.js';

type Answers = { [K in keyof LinkQueries]: (...args: Parameters<LinkQueries[K]>) => Promise<ReturnType<LinkQueries[K]>> };

/**
 * PostgreSQL's answers to the link and moderation operations (store/operations), on the transaction's connection.
 * Under READ COMMITTED each statement sees what committed before it, so the locks do the ordering: a team's row
 * (FOR UPDATE) serializes its creations and changes across processes, a link's row its changes, and an advisory
 * lock on a name two claims of it. The codes of the links touched are collected in `touched`.
 */
export function pgLinkQueries(client: Queryable, touched: Array<string | null>): Answers {
  const run = <P extends object>(statement: Statement<P>, params: P) => runOn(client, statement, params);
  return {
    lockTeam: async (teamId) => void (await client.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [teamId])),
    lockName: async (name) => void (await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [name])),
    linkById: async (id) => linkOrNull(await row(client, linkSql.byId, { id })),
    lockedLink: async (id) => linkOrNull(await row(client, linkSql.lockedById, { id })),
    linkByCode: async (code) => linkOrNull(await row(client, linkSql.byCode, { code })),
    latestCreatedAt: async () => {
      const latest = await row(client, linkSql.latestCreatedAt, {});
      return latest === null ? null : Date.parse(latest.createdAt);
    },
    sameLink: async (teamId, destination, name) => (await row(client, linkSql.sameLink, { teamId, destination, name }))?.code ?? null,
    liveLinks: async (teamId) => (await row(client, linkSql.liveLinks, { teamId }))?.n ?? null,
    events: async (teamId, kind, since) => (await row(client, linkSql.events, { teamId, kind, since }))!,
    addEvent: (teamId, kind, at) => run(linkSql.addEvent, { teamId, kind, at }),
    purgeEvents: (before) => run(linkSql.purgeEvents, { before }),
    claimCode: async (code) => (await changed(client, linkSql.claimCode, { code })) === 1,
    nameRow: async (name) => {
      const found = await row(client, linkSql.nameRow, { name });
      return found && nameRowOf(found);
    },
    holdName: (name, teamId, linkId) => run(linkSql.holdName, { name, teamId, linkId }),
    releaseName: (name) => run(linkSql.releaseName, { name }),
    retireName: (name) => run(linkSql.retireName, { name }),
    insertLink: (link) => run(linkSql.insert, { ...link, ...storedOptions(link) }),
    setOptions: (id, options, at) => run(linkSql.setOptions, { id, at, ...storedOptions(options) }),
    setTags: async ({ id, teamId, seq }, tags) => {
      await run(linkSql.clearTags, { id });
      for (const tag of tags) await run(linkSql.addTag, { id, teamId, seq, tag });
    },
    setDestination: (id, destination, at) => run(linkSql.setDestination, { id, destination, at }),
    setNote: (id, note, at) => run(linkSql.setNote, { id, note, at }),
    setName: (id, name, at) => run(linkSql.setName, { id, name, at }),
    setState: (id, state, at) => run(linkSql.setState, { id, state, at }),
    deleteLink: async (id) => {
      for (const leave of LEAVE_TEAM) await run(leave, { linkId: id });
      await run(linkSql.delete, { id });
    },
    resolveOpen: async (linkId, at) => {
      await run(moderationSql.resolveReports, { linkId, at });
      await run(moderationSql.resolveReviews, { linkId, at });
    },
    saveReport: (report) => run(moderationSql.saveReport, report),
    establishedReporters: async (linkId, since) => (await row(client, moderationSql.establishedReporters, { linkId, since }))!.n,
    flagIfActive: async (id) => (await changed(client, linkSql.flagIfActive, { id })) > 0,
    saveReview: (review) => run(moderationSql.saveReview, review),
    tellWebhooks: ({ eventId, teamId, type, payload, at }) =>
      run(webhookSql.enqueue, { eventId, teamId, type, payload, at: at.getTime(), pattern: askingFor(type) }),
    changed: async (...keys) => void touched.push(...keys),
    // The row is locked until the write commits: a takeover (idempotency.ts) waits for it, then replays the answer.
    keepAnswer: async (key, claim, status, response) =>
      (await changed(client, idempotencySql.finish, { ...key, claim, status, response })) === 1,
  };
}
