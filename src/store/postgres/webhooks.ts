import type { WebhookStore } from '../ports.js';
import { askingFor, deliveryOf, endpointOf, webhookSql } from '../sql/webhooks.js';
import type { PgPool } from './database.js';
import { changed, row, rows, run, transaction } from './query.js';

/**
 * Teams' webhook endpoints and their outbox in PostgreSQL. A claim is one UPDATE, which skips the rows another claim
 * took first (see the SQL); an addition holds its team's row, so two at once count each other against the limit.
 */
export function pgWebhooks(pool: PgPool): WebhookStore {
  const get = async (id: string) => {
    const found = await row(pool, webhookSql.get, { id });
    return found ? endpointOf(found) : null;
  };
  return {
    add: (endpoint, limit) =>
      transaction(pool, async (client) => {
        if (!(await row(client, webhookSql.teamExists, { teamId: endpoint.teamId }))) return 'no_team' as const;
        if ((await row(client, webhookSql.countOfTeam, { teamId: endpoint.teamId }))!.n >= limit) return 'team_webhooks_full' as const;
        await run(client, webhookSql.insert, { ...endpoint, events: endpoint.events.join(' ') });
        return endpointOf((await row(client, webhookSql.get, { id: endpoint.id }))!);
      }),
    get,
    ofTeam: async (teamId) => (await rows(pool, webhookSql.ofTeam, { teamId })).map(endpointOf),
    all: async () => (await rows(pool, webhookSql.all, {})).map(endpointOf),
    remove: async (id) => (await changed(pool, webhookSql.remove, { id })) > 0,
    resume: async (id) => {
      await run(pool, webhookSql.resume, { id });
      return get(id);
    },
    enqueue: async ({ eventId, teamId, type, payload, at }, endpointId) => {
      if (endpointId === undefined) await run(pool, webhookSql.enqueue, { eventId, teamId, type, payload, at: at.getTime(), pattern: askingFor(type) });
      else await run(pool, webhookSql.enqueueFor, { eventId, endpointId, type, payload, at: at.getTime() });
    },
    recent: async (endpointId, limit) => (await rows(pool, webhookSql.recent, { endpointId, limit })).map(deliveryOf),
    claim: async (holder, limit, until, now) => {
      const keys = await rows(pool, webhookSql.claim, { holder, limit, until: until.getTime(), now: now.getTime() });
      const claimed = await Promise.all(keys.map((key) => row(pool, webhookSql.claimed, key)));
      return claimed.flatMap((found) => (found ? [{ ...deliveryOf(found), url: found.url, secret: found.secret }] : []));
    },
    delivered: (key, holder, status, now) =>
      transaction(pool, async (client) => {
        if ((await changed(client, webhookSql.delivered, { ...key, holder, status, now: now.getTime() })) === 0) return false;
        await run(client, webhookSql.succeeded, { id: key.endpointId });
        return true;
      }),
    failed: (key, holder, { status, error, retryAt }, now) =>
      transaction(pool, async (client) => {
        const at = now.getTime();
        const done = retryAt
          ? await changed(client, webhookSql.retry, { ...key, holder, status, error, retryAt: retryAt.getTime(), now: at })
          : await changed(client, webhookSql.giveUp, { ...key, holder, status, error, now: at });
        if (done === 0) return null;
        return row(client, webhookSql.failing, { id: key.endpointId, now: now.toISOString() });
      }),
    pause: async (id, reason) => (await changed(pool, webhookSql.pause, { id, reason })) > 0,
    subscribed: async (type) => (await rows(pool, webhookSql.subscribed, { pattern: askingFor(type) })).map(endpointOf),
    prune: (before, limit) => changed(pool, webhookSql.prune, { before: before.getTime(), limit }),
  };
}
