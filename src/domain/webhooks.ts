import { randomUUID } from 'node:crypto';
import { apiError } from '../errors.js';
import { DAY_MS, HOUR_MS } from './limits.js';

/**
 * What a team's webhook endpoints may be told (docs/behaviour.md, "Webhooks"): a link made, changed (destination,
 * name, note, options), deleted, or flagged, disabled and restored by the service; and, once a day, yesterday's
 * clicks per link. `webhook.test` is only ever sent by the team page's "Send a test event".
 */
export const WEBHOOK_EVENTS = ['link.created', 'link.changed', 'link.deleted', 'link.state_changed', 'clicks.daily'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type WebhookEventType = WebhookEvent | 'webhook.test';

/** Endpoints a team may have: enough for a CRM, a chat and a warehouse, with room to move one. */
export const MAX_TEAM_WEBHOOKS = 10;

/**
 * The waits before each retry of a delivery that failed, after the first attempt: Standard Webhooks' suggested
 * schedule, about a day and a quarter in all; after the last, the delivery is given up.
 */
export const RETRY_WAITS_MS: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * HOUR_MS, 5 * HOUR_MS, 10 * HOUR_MS, 10 * HOUR_MS];

/** An endpoint that has answered no delivery well for this long is paused: its owners see why and resume it. */
export const PAUSE_AFTER_MS = DAY_MS;

/** When a failed attempt (the `attempt`-th, from 1) is tried again, or null when the delivery is given up. */
export function retryAt(attempt: number, now: Date): Date | null {
  const wait = RETRY_WAITS_MS[attempt - 1];
  return wait === undefined ? null : new Date(now.getTime() + wait);
}

/** Whether an endpoint failing since `failingSince` (null: its last delivery went well) is to be paused now. */
export function pausesNow(failingSince: string | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - Date.parse(failingSince) >= PAUSE_AFTER_MS;
}

/**
 * The events an endpoint asks for, as a form or the CLI sends them (`link.created,link.deleted`): each once, in
 * the list's order; 400 bad_request naming the unknown one, or none at all.
 */
export function checkWebhookEvents(events: readonly string[], field = 'events'): WebhookEvent[] {
  const wanted = new Set(events.map((event) => event.trim()).filter((event) => event !== ''));
  for (const event of wanted) {
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) {
      throw apiError.badRequest(`Unknown event "${event}": the events are ${WEBHOOK_EVENTS.join(', ')}.`, field);
    }
  }
  if (wanted.size === 0) throw apiError.badRequest(`Choose at least one event: ${WEBHOOK_EVENTS.join(', ')}.`, field);
  return WEBHOOK_EVENTS.filter((event) => wanted.has(event));
}

/** A new event's id, sent as `webhook-id` (Standard Webhooks' `msg_` prefix): random, so receivers dedupe by it. */
export function newEventId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/** An event's body as Standard Webhooks lays one out, fixed when the event happens: its type, when, and its data. */
export function eventBody(type: WebhookEventType, at: Date, data: object): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}
