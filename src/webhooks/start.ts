import type { Config } from '../config.js';
import { resolveWith } from '../destinations/public-lookup.js';
import type { ResolveHost } from '../destinations/resolver.js';
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/ports.js';
import type { AddressOf } from './body.js';
import { startDailyClicks } from './daily-clicks.js';
import { startWebhookSender } from './deliveries.js';
import { webhookSender } from './send.js';

/** The webhook jobs of a process: each run now (the tests', rather than waiting for its schedule), and stopped. */
export interface WebhookJobs {
  /** Sends what is due; how many deliveries were attempted, or null while another process holds the lease. */
  deliverNow(): Promise<number | null>;
  /** Queues yesterday's clicks.daily events not queued yet; null while another process holds the lease. */
  dailyClicksNow(): Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * A server process's part of webhooks: the outbox's sender (deliveries connect through the service's resolver,
 * to public addresses unless the operator allows private destinations) and the daily clicks' job; stop ends both.
 */
export function startWebhooks(
  config: Pick<Config, 'webhookPollMs' | 'webhookTimeoutMs'>,
  deps: { store: Store; clock: Clock; resolveHost: ResolveHost; addresses: () => Promise<AddressOf>; log: (line: string) => void },
): WebhookJobs {
  const { store, clock, addresses, log } = deps;
  const send = webhookSender({
    resolve: resolveWith(deps.resolveHost),
    allowPrivate: async () => (await store.settings.serviceSettings()).destinations === 'private',
    timeoutMs: config.webhookTimeoutMs,
    // Receivers judge `webhook-timestamp` by their own clocks (a replay window): it is the wall clock's, always.
    clock: () => new Date(),
  });
  const sender = startWebhookSender({ store, send, clock, addresses, timeoutMs: config.webhookTimeoutMs, pollMs: config.webhookPollMs, log });
  const daily = startDailyClicks({ store, clock, addresses, log });
  return {
    deliverNow: sender.runNow,
    dailyClicksNow: daily.runNow,
    async stop() {
      await Promise.all([sender.stop(), daily.stop()]);
    },
  };
}
