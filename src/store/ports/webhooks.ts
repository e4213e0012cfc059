import type { WebhookEvent, WebhookEventType } from '../../domain/webhooks.js';

/** A team's webhook endpoint (webhooks/manage.ts): where its events go, signed with its secret. */
export interface WebhookEndpoint {
  /** `whk_…` */
  id: string;
  teamId: string;
  url: string;
  events: WebhookEvent[];
  /**
   * `whsec_…`: the key deliveries are signed with (Standard Webhooks). Kept as it is, unlike tokens and passwords,
   * because signing needs it; shown to the team's owners once, when the endpoint is added.
   */
  secret: string;
  /** Paused after a day of failed deliveries: it is sent nothing until an owner resumes it. */
  state: 'active' | 'paused';
  /** Why it was paused, in words for its owners; null while active. */
  pausedReason: string | null;
  /** Since when every delivery failed (the first failure after the last success); null when the last went well. */
  failingSince: string | null;
  createdAt: string;
}

/** One event for one endpoint: what is sent (its body fixed when the event happened) and how sending went. */
export interface WebhookDelivery {
  /** The event's id, sent as `webhook-id` (the same for every endpoint told of the event): receivers dedupe by it. */
  eventId: string;
  endpointId: string;
  type: WebhookEventType;
  /** The JSON body, as sent. */
  payload: string;
  /** When the event happened. */
  createdAt: string;
  attempts: number;
  state: 'pending' | 'delivered' | 'failed';
  /** The last attempt's HTTP status, or null (none yet, or no answer). */
  lastStatus: number | null;
  /** Why the last attempt failed, in words (a status, a timeout, a refused connection); null when it did not. */
  lastError: string | null;
  lastAttemptAt: string | null;
}

/** A delivery a sender claimed, with what it needs to send it. */
export interface ClaimedDelivery extends WebhookDelivery {
  url: string;
  secret: string;
}

/** A change's event, as the link operations write it into the outbox in their own transaction. */
export interface WebhookEventRecord {
  eventId: string;
  teamId: string;
  type: WebhookEventType;
  payload: string;
  at: Date;
}

/**
 * Teams' webhook endpoints and their outbox (issue 26). The link operations write each event in the transaction of
 * the change it tells of (LinkQueries.tellWebhooks), one delivery per endpoint that asked for it; senders claim due
 * deliveries, so however many processes share the store each goes out once at a time.
 */
export interface WebhookStore {
  /** Adds the endpoint; 'team_webhooks_full' when the team has `limit` already; 'no_team' when it is gone. */
  add(endpoint: Omit<WebhookEndpoint, 'state' | 'pausedReason' | 'failingSince'>, limit: number): Promise<WebhookEndpoint | 'team_webhooks_full' | 'no_team'>;
  get(id: string): Promise<WebhookEndpoint | null>;
  /** The team's endpoints, oldest first. */
  ofTeam(teamId: string): Promise<WebhookEndpoint[]>;
  /** Every team's endpoints (the operator's `webhook list`), by team, oldest first. */
  all(): Promise<WebhookEndpoint[]>;
  /** Removes the endpoint and its deliveries; false when there was none. */
  remove(id: string): Promise<boolean>;
  /** An active endpoint again, its failures forgotten; null when there is none. */
  resume(id: string): Promise<WebhookEndpoint | null>;
  /** Queues an event for the endpoints of the team that asked for its type (or for one endpoint: a test event). */
  enqueue(event: WebhookEventRecord, endpointId?: string): Promise<void>;
  /** The endpoint's latest deliveries, newest first. */
  recent(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  /**
   * Claims up to `limit` due deliveries of active endpoints, oldest first, for `holder` until `until` (past which
   * another sender may take them, as after a crash), counting an attempt on each.
   */
  claim(holder: string, limit: number, until: Date, now: Date): Promise<ClaimedDelivery[]>;
  /** The holder's attempt was answered with a 2xx status: delivered; the endpoint fails no more. */
  delivered(delivery: Pick<WebhookDelivery, 'eventId' | 'endpointId'>, holder: string, status: number, now: Date): Promise<boolean>;
  /**
   * The holder's attempt failed (`status`, when one came): tried again from `retryAt`, or given up with null. The
   * endpoint is failing from now unless it was already; paused, with `pauseReason`, when it has failed long enough
   * (domain/webhooks.ts pausesNow, decided by the caller on the endpoint's failingSince that this answers).
   */
  failed(
    delivery: Pick<WebhookDelivery, 'eventId' | 'endpointId'>,
    holder: string,
    outcome: { status: number | null; error: string; retryAt: Date | null },
    now: Date,
  ): Promise<{ failingSince: string } | null>;
  /** Pauses the endpoint with the reason; false when it is gone or paused already. */
  pause(endpointId: string, reason: string): Promise<boolean>;
  /** Endpoints of every team asking for `type` (the daily clicks' job), active ones only. */
  subscribed(type: WebhookEvent): Promise<WebhookEndpoint[]>;
  /** Deletes up to `limit` deliveries finished before `before`; how many went. */
  prune(before: Date, limit: number): Promise<number>;
}
