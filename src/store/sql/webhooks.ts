import type { WebhookEvent, WebhookEventType } from '../../domain/webhooks.js';
import type { WebhookDelivery, WebhookEndpoint } from '../ports/webhooks.js';
import { sql } from './statement.js';

/** An endpoint's row as the store reads it: its events space-separated, as they are kept. */
export interface EndpointRow {
  id: string;
  teamId: string;
  url: string;
  events: string;
  secret: string;
  state: 'active' | 'paused';
  pausedReason: string | null;
  failingSince: string | null;
  createdAt: string;
}

/** A delivery's row: times in epoch milliseconds, so "due" is one comparison (as the mail outbox keeps them). */
export interface DeliveryRow {
  eventId: string;
  endpointId: string;
  type: string;
  payload: string;
  createdAt: number;
  attempts: number;
  state: 'pending' | 'delivered' | 'failed';
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: number | null;
}

const ENDPOINT = `e.id, e.team_id AS "teamId", e.url, e.events, e.secret, e.state, e.paused_reason AS "pausedReason",
  e.failing_since AS "failingSince", e.created_at AS "createdAt"`;
const DELIVERY = `d.event_id AS "eventId", d.endpoint_id AS "endpointId", d.type, d.payload, d.created_at AS "createdAt", d.attempts,
  d.state, d.last_status AS "lastStatus", d.last_error AS "lastError", d.last_attempt_at AS "lastAttemptAt"`;

/**
 * Which endpoints asked for an event: events are kept space-separated, so one LIKE over the list with spaces
 * around it finds a whole name (`% link.created %`), never a part of another.
 */
const ASKS_FOR = "(' ' || e.events || ' ') LIKE :pattern";

type Key = { eventId: string; endpointId: string };

/** The webhook endpoints' and their outbox's statements (ports/webhooks.ts). */
export const webhookSql = {
  teamExists: sql<{ teamId: string }, { id: string }>((d) => `SELECT id FROM teams WHERE id = :teamId${d.forUpdate}`),
  countOfTeam: sql<{ teamId: string }, { n: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS n FROM webhook_endpoints WHERE team_id = :teamId'),
  insert: sql<Omit<EndpointRow, 'state' | 'pausedReason' | 'failingSince'>>(
    `INSERT INTO webhook_endpoints (id, team_id, url, events, secret, state, paused_reason, failing_since, created_at)
     VALUES (:id, :teamId, :url, :events, :secret, 'active', NULL, NULL, :createdAt)`,
  ),
  get: sql<{ id: string }, EndpointRow>(`SELECT ${ENDPOINT} FROM webhook_endpoints e WHERE e.id = :id`),
  ofTeam: sql<{ teamId: string }, EndpointRow>(`SELECT ${ENDPOINT} FROM webhook_endpoints e WHERE e.team_id = :teamId ORDER BY e.created_at, e.id`),
  all: sql<object, EndpointRow>(`SELECT ${ENDPOINT} FROM webhook_endpoints e ORDER BY e.team_id, e.created_at, e.id`),
  subscribed: sql<{ pattern: string }, EndpointRow>(
    `SELECT ${ENDPOINT} FROM webhook_endpoints e WHERE e.state = 'active' AND ${ASKS_FOR} ORDER BY e.team_id, e.created_at, e.id`,
  ),
  remove: sql<{ id: string }>('DELETE FROM webhook_endpoints WHERE id = :id'),
  resume: sql<{ id: string }>("UPDATE webhook_endpoints SET state = 'active', paused_reason = NULL, failing_since = NULL WHERE id = :id"),
  pause: sql<{ id: string; reason: string }>(
    "UPDATE webhook_endpoints SET state = 'paused', paused_reason = :reason WHERE id = :id AND state = 'active'",
  ),
  /**
   * The change's event, one delivery for each active endpoint of the team that asked for it, written in the change's
   * own transaction (LinkQueries.tellWebhooks): a team without endpoints costs one look at an index. An event told
   * twice (the daily clicks' job run again) is one delivery.
   */
  enqueue: sql<{ eventId: string; teamId: string; type: string; payload: string; at: number; pattern: string }>(
    `INSERT INTO webhook_deliveries (event_id, endpoint_id, type, payload, created_at, attempts, state, due_at)
     SELECT :eventId, e.id, :type, :payload, :at, 0, 'pending', :at FROM webhook_endpoints e
     WHERE e.team_id = :teamId AND e.state = 'active' AND ${ASKS_FOR}
     ON CONFLICT DO NOTHING`,
  ),
  /** A test event, for one endpoint whatever it asked for. */
  enqueueFor: sql<{ eventId: string; endpointId: string; type: string; payload: string; at: number }>(
    `INSERT INTO webhook_deliveries (event_id, endpoint_id, type, payload, created_at, attempts, state, due_at)
     VALUES (:eventId, :endpointId, :type, :payload, :at, 0, 'pending', :at) ON CONFLICT DO NOTHING`,
  ),
  recent: sql<{ endpointId: string; limit: number }, DeliveryRow>(
    `SELECT ${DELIVERY} FROM webhook_deliveries d WHERE d.endpoint_id = :endpointId ORDER BY d.created_at DESC, d.event_id DESC LIMIT :limit`,
  ),
  /** Whether any delivery is due: read first, so a poll of an empty outbox takes no write lock (as mail's). */
  anyDue: sql<{ now: number }, { due: number }>("SELECT 1 AS due FROM webhook_deliveries WHERE state = 'pending' AND due_at <= :now LIMIT 1"),
  /**
   * One statement, as the mail outbox claims: the rows chosen are checked again as they are updated, so no delivery
   * is in two claims; claiming moves due_at to the claim's end, when a crashed sender's delivery is due again.
   * Deliveries of a paused endpoint wait (it is resumed, or removed with them).
   */
  claim: sql<{ holder: string; limit: number; until: number; now: number }, Key>(
    `UPDATE webhook_deliveries SET holder = :holder, due_at = :until, attempts = attempts + 1
     WHERE (event_id, endpoint_id) IN (
       SELECT d.event_id, d.endpoint_id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.state = 'pending' AND d.due_at <= :now AND e.state = 'active' ORDER BY d.due_at, d.event_id LIMIT :limit)
       AND state = 'pending' AND due_at <= :now
     RETURNING event_id AS "eventId", endpoint_id AS "endpointId"`,
  ),
  claimed: sql<Key, DeliveryRow & { url: string; secret: string }>(
    `SELECT ${DELIVERY}, e.url, e.secret FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.event_id = :eventId AND d.endpoint_id = :endpointId`,
  ),
  delivered: sql<Key & { holder: string; status: number; now: number }>(
    `UPDATE webhook_deliveries SET state = 'delivered', holder = NULL, last_status = :status, last_error = NULL, last_attempt_at = :now, finished_at = :now
     WHERE event_id = :eventId AND endpoint_id = :endpointId AND holder = :holder AND state = 'pending'`,
  ),
  retry: sql<Key & { holder: string; status: number | null; error: string; retryAt: number; now: number }>(
    `UPDATE webhook_deliveries SET holder = NULL, last_status = :status, last_error = :error, last_attempt_at = :now, due_at = :retryAt
     WHERE event_id = :eventId AND endpoint_id = :endpointId AND holder = :holder AND state = 'pending'`,
  ),
  giveUp: sql<Key & { holder: string; status: number | null; error: string; now: number }>(
    `UPDATE webhook_deliveries SET state = 'failed', holder = NULL, last_status = :status, last_error = :error, last_attempt_at = :now, finished_at = :now
     WHERE event_id = :eventId AND endpoint_id = :endpointId AND holder = :holder AND state = 'pending'`,
  ),
  succeeded: sql<{ id: string }>('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = :id'),
  /** The first failure after the last success starts the count towards pausing; later ones keep it. */
  failing: sql<{ id: string; now: string }, { failingSince: string }>(
    'UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, :now) WHERE id = :id RETURNING failing_since AS "failingSince"',
  ),
  prune: sql<{ before: number; limit: number }>(
    `DELETE FROM webhook_deliveries WHERE (event_id, endpoint_id) IN (
       SELECT event_id, endpoint_id FROM webhook_deliveries WHERE finished_at < :before ORDER BY finished_at LIMIT :limit)`,
  ),
};

/** The LIKE pattern that finds endpoints asking for `type`. */
export function askingFor(type: WebhookEvent | string): string {
  return `% ${type} %`;
}

/** An endpoint as the port answers it. */
export function endpointOf(row: EndpointRow): WebhookEndpoint {
  return { ...row, events: row.events.split(' ') as WebhookEvent[] };
}

/** A delivery as the port answers it: times as ISO strings. */
export function deliveryOf(row: DeliveryRow): WebhookDelivery {
  const { createdAt, lastAttemptAt, ...rest } = row;
  return {
    ...rest,
    type: row.type as WebhookEventType,
    createdAt: new Date(createdAt).toISOString(),
    lastAttemptAt: lastAttemptAt === null ? null : new Date(lastAttemptAt).toISOString(),
  };
}
