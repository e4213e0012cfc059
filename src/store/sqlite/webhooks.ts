import type { WebhookStore } from '../ports.js';
import { askingFor, deliveryOf, endpointOf, webhookSql } from '../sql/webhooks.js';
import { writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';

/** Teams' webhook endpoints and their outbox in the SQLite file: a claim or an addition is one write transaction. */
export function sqliteWebhooks(db: Db): WebhookStore {
  const s = prepareAll(db, webhookSql);
  const add = writeTransaction(db, (endpoint: Parameters<WebhookStore['add']>[0], limit: number) => {
    if (!s.teamExists.get({ teamId: endpoint.teamId })) return 'no_team' as const;
    if (s.countOfTeam.get({ teamId: endpoint.teamId })!.n >= limit) return 'team_webhooks_full' as const;
    s.insert.run({ ...endpoint, events: endpoint.events.join(' ') });
    return endpointOf(s.get.get({ id: endpoint.id })!);
  });
  const claim = writeTransaction(db, (holder: string, limit: number, until: number, now: number) =>
    s.claim.all({ holder, limit, until, now }).map((key) => {
      const row = s.claimed.get(key)!;
      return { ...deliveryOf(row), url: row.url, secret: row.secret };
    }),
  );
  const failed = writeTransaction(db, (...[key, holder, outcome, now]: Parameters<WebhookStore['failed']>) => {
    const at = now.getTime();
    const { status, error, retryAt } = outcome;
    const done = retryAt
      ? s.retry.run({ ...key, holder, status, error, retryAt: retryAt.getTime(), now: at })
      : s.giveUp.run({ ...key, holder, status, error, now: at });
    if (done.changes === 0) return null;
    return s.failing.get({ id: key.endpointId, now: now.toISOString() }) ?? null;
  });
  const delivered = writeTransaction(db, (...[key, holder, status, now]: Parameters<WebhookStore['delivered']>) => {
    if (s.delivered.run({ ...key, holder, status, now: now.getTime() }).changes === 0) return false;
    s.succeeded.run({ id: key.endpointId });
    return true;
  });
  return {
    add: async (endpoint, limit) => add(endpoint, limit),
    get: async (id) => {
      const row = s.get.get({ id });
      return row ? endpointOf(row) : null;
    },
    ofTeam: async (teamId) => s.ofTeam.all({ teamId }).map(endpointOf),
    all: async () => s.all.all({}).map(endpointOf),
    remove: async (id) => s.remove.run({ id }).changes > 0,
    resume: async (id) => {
      s.resume.run({ id });
      const row = s.get.get({ id });
      return row ? endpointOf(row) : null;
    },
    enqueue: async ({ eventId, teamId, type, payload, at }, endpointId) => {
      if (endpointId === undefined) s.enqueue.run({ eventId, teamId, type, payload, at: at.getTime(), pattern: askingFor(type) });
      else s.enqueueFor.run({ eventId, endpointId, type, payload, at: at.getTime() });
    },
    recent: async (endpointId, limit) => s.recent.all({ endpointId, limit }).map(deliveryOf),
    claim: async (holder, limit, until, now) => {
      // Every process polls every second: only a due delivery is worth the write lock, which click counts also take.
      if (!s.anyDue.get({ now: now.getTime() })) return [];
      return claim(holder, limit, until.getTime(), now.getTime());
    },
    delivered: async (key, holder, status, now) => delivered(key, holder, status, now),
    failed: async (key, holder, outcome, now) => failed(key, holder, outcome, now),
    pause: async (id, reason) => s.pause.run({ id, reason }).changes > 0,
    subscribed: async (type) => s.subscribed.all({ pattern: askingFor(type) }).map(endpointOf),
    prune: async (before, limit) => s.prune.run({ before: before.getTime(), limit }).changes,
  };
}
