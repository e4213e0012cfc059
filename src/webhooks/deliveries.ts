/**
 * Sends the webhook outbox (issue 26): every server process runs a sender, but a round first takes a lease in the
 * store, so one process at a time sends; deliveries are also claimed, so even two senders at once never send one
 * twice. A failed attempt is tried again on Standard Webhooks' schedule (domain/webhooks.ts) for about a day, then
 * given up; an endpoint whose deliveries have all failed for a day is paused, and its owners see why.
 */
import { randomUUID } from 'node:crypto';
import { pausesNow, retryAt } from '../domain/webhooks.js';
import { DAY_MS, HOUR_MS } from '../domain/limits.js';
import type { Clock } from '../shared/clock.js';
import { every, type PeriodicJob } from '../shared/periodic.js';
import { leaseHolder } from '../store/lease-holder.js';
import type { ClaimedDelivery, LeaseStore, WebhookStore } from '../store/ports.js';
import { deliveryBody, type AddressOf } from './body.js';
import type { Send } from './send.js';

const LEASE = 'webhook-deliveries';
/**
 * How long the lease holds, renewed before each claim: a sender that died or stopped is replaced within this (or
 * three polls, when they are longer). Claims, not the lease, keep a delivery from going out twice.
 */
const LEASE_MS = 5_000;
/** Deliveries claimed at once: sent side by side across endpoints, one after another to each. */
const BATCH = 20;
/** How long a sent delivery's row is kept for its endpoint's owners to see; older ones are deleted hourly. */
export const KEEP_MS = 30 * DAY_MS;
const PRUNE_BATCH = 500;

export interface WebhookSenderOptions {
  store: { webhooks: WebhookStore; leases: LeaseStore };
  send: Send;
  clock: Clock;
  /** Each team's address of the moment, for the links' short addresses in bodies. */
  addresses: () => Promise<AddressOf>;
  /** How long an attempt may take (WEBHOOK_TIMEOUT_MS): a claim holds well beyond it. */
  timeoutMs: number;
  /** How often the outbox is looked at (WEBHOOK_POLL_MS): an event goes out within this. */
  pollMs: number;
  log: (line: string) => void;
}

/** runNow sends what is due now (or joins the round under way); answers how many it attempted, null without the lease. */
export type WebhookSender = Pick<PeriodicJob<number | null>, 'runNow' | 'stop'>;

export function startWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { store, send, clock, log } = options;
  const holder = `${process.pid}-${randomUUID()}`;
  const holdLease = leaseHolder(store.leases, LEASE, clock, Math.max(LEASE_MS, options.pollMs * 3));
  const claimMs = options.timeoutMs * 3 + 60_000;
  let prunedAt = -Infinity;

  async function attempt(delivery: ClaimedDelivery, addressOf: AddressOf): Promise<void> {
    const body = deliveryBody(delivery.payload, addressOf);
    const { status, error } = await send({ url: delivery.url, secret: delivery.secret, eventId: delivery.eventId, body });
    const now = clock.now();
    if (error === null) {
      await store.webhooks.delivered(delivery, holder, status!, now);
      return;
    }
    const again = retryAt(delivery.attempts, now);
    const failing = await store.webhooks.failed(delivery, holder, { status, error, retryAt: again }, now);
    if (failing && pausesNow(failing.failingSince, now)) {
      const reason = `No delivery has succeeded since ${failing.failingSince}; the last attempt ${error}.`;
      if (await store.webhooks.pause(delivery.endpointId, reason)) log(`Webhook endpoint ${delivery.endpointId} paused: ${reason}`);
    }
  }

  /** Each endpoint's deliveries one after another (a receiver is not flooded), endpoints side by side. */
  async function sendAll(claimed: ClaimedDelivery[]): Promise<void> {
    const addressOf = await options.addresses();
    const byEndpoint = new Map<string, ClaimedDelivery[]>();
    for (const delivery of claimed) byEndpoint.set(delivery.endpointId, [...(byEndpoint.get(delivery.endpointId) ?? []), delivery]);
    await Promise.all(
      [...byEndpoint.values()].map(async (deliveries) => {
        for (const delivery of deliveries) await attempt(delivery, addressOf);
      }),
    );
  }

  async function prune(): Promise<void> {
    const now = clock.now().getTime();
    if (now - prunedAt < HOUR_MS) return;
    prunedAt = now;
    while ((await store.webhooks.prune(new Date(now - KEEP_MS), PRUNE_BATCH)) === PRUNE_BATCH && !job.stopped());
  }

  async function round(): Promise<number | null> {
    if (!(await holdLease())) return null;
    await prune();
    let attempted = 0;
    // A long round (many due, slow receivers) renews the lease as it goes, so no other process starts one meanwhile.
    while (!job.stopped() && (attempted === 0 || (await holdLease()))) {
      const now = clock.now();
      const claimed = await store.webhooks.claim(holder, BATCH, new Date(now.getTime() + claimMs), now);
      await sendAll(claimed);
      attempted += claimed.length;
      if (claimed.length < BATCH) break;
    }
    return attempted;
  }

  // A store out of reach now is tried again next round; the deliveries wait in it.
  const job = every(options.pollMs, round, {
    result: () => undefined,
    failure: (error) => log(`Webhook round failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  return { runNow: job.runNow, stop: job.stop };
}
