/**
 * The `clicks.daily` event: once a UTC day, each endpoint that asked for it is told yesterday's counted clicks and
 * visitors per link of its team (links without a click that day left out). Every server process looks each hour,
 * under a lease; the event's id is the endpoint's and the day's, so however often the day is looked at, each
 * endpoint is told of it once.
 */
import { dayBefore, utcDate } from '../domain/days.js';
import { HOUR_MS } from '../domain/limits.js';
import { eventBody } from '../domain/webhooks.js';
import { shortLinkOf } from '../domain/short-link.js';
import type { Clock } from '../shared/clock.js';
import { every, type PeriodicJob } from '../shared/periodic.js';
import { leaseHolder } from '../store/lease-holder.js';
import type { AnalyticsStore, LeaseStore, LinkStore, WebhookEndpoint, WebhookStore } from '../store/ports.js';
import type { AddressOf } from './body.js';

const LEASE = 'webhook-clicks-daily';

export interface DailyClicksOptions {
  store: { webhooks: WebhookStore; leases: LeaseStore; analytics: Pick<AnalyticsStore, 'dailyByLink'>; links: Pick<LinkStore, 'findByIds'> };
  clock: Clock;
  addresses: () => Promise<AddressOf>;
  intervalMs?: number;
  log: (line: string) => void;
}

/** runNow queues yesterday's events not queued yet; answers how many endpoints it looked at (null without the lease). */
export type DailyClicks = Pick<PeriodicJob<number | null>, 'runNow' | 'stop'>;

export function startDailyClicks(options: DailyClicksOptions): DailyClicks {
  const { store, clock } = options;
  const intervalMs = options.intervalMs ?? HOUR_MS;
  const holdLease = leaseHolder(store.leases, LEASE, clock, intervalMs);

  async function tell(endpoint: WebhookEndpoint, day: string, addressOf: AddressOf, now: Date): Promise<void> {
    const daily = await store.analytics.dailyByLink(endpoint.teamId, day, day);
    const links = new Map((await store.links.findByIds(daily.map((row) => row.linkId))).map((link) => [link.id, link]));
    const base = addressOf(endpoint.teamId);
    const counts = daily.flatMap(({ linkId, clicks, visitors }) => {
      const link = links.get(linkId);
      return link ? [{ code: link.code, name: link.name, shortLink: shortLinkOf(base, link), clicks, visitors }] : [];
    });
    const payload = eventBody('clicks.daily', now, { teamId: endpoint.teamId, date: day, links: counts });
    const eventId = `msg_clicks_${day}_${endpoint.id}`;
    await store.webhooks.enqueue({ eventId, teamId: endpoint.teamId, type: 'clicks.daily', payload, at: now }, endpoint.id);
  }

  async function run(): Promise<number | null> {
    if (!(await holdLease())) return null;
    const now = clock.now();
    const yesterday = dayBefore(utcDate(now));
    const endpoints = await store.webhooks.subscribed('clicks.daily');
    const addressOf = await options.addresses();
    for (const endpoint of endpoints) {
      if (job.stopped()) break;
      // Made after yesterday ended: it asked for days from today on.
      if (endpoint.createdAt >= `${utcDate(now)}T00:00:00.000Z`) continue;
      await tell(endpoint, yesterday, addressOf, now);
    }
    return endpoints.length;
  }

  const job = every(intervalMs, run, {
    result: () => undefined,
    failure: (error) => options.log(`Daily clicks for webhooks failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  return { runNow: job.runNow, stop: job.stop };
}
