/**
 * The daily removal of old click analytics (issue 23, item 5): the daily counts, facets, not-counted classes and
 * visitors of days before the operator's window (`limits set --analytics-days`, 400 by default) are deleted.
 *
 * Every server process schedules it, and a run first takes a lease in the store for one interval, as the unsafe-site
 * re-check does: with several processes sharing the database it runs once per interval in all, not once per process.
 */
import { firstOfLastDays, utcDate } from '../domain/days.js';
import { DAY_MS } from '../domain/limits.js';
import type { AnalyticsStore, LeaseStore, SettingsStore } from '../store/ports.js';
import type { Clock } from '../shared/clock.js';
import { leaseHolder } from '../store/lease-holder.js';
import { every } from '../shared/periodic.js';
import { count } from '../shared/words.js';

/** The lease's name in the store. */
const RETENTION_LEASE = 'analytics-retention';

export interface RetentionResult {
  /** The first day kept (`YYYY-MM-DD`): every earlier day's rows were removed. */
  keptFrom: string;
  /** Rows removed, of every analytics table and the daily counts. */
  removed: number;
}

export interface AnalyticsRetention {
  /** Removes the old days now (or joins the run under way); null, removing nothing, while another process holds the lease. */
  runNow(): Promise<RetentionResult | null>;
  /** No more runs; resolves when the run under way (if any) has ended. */
  stop(): Promise<void>;
}

export interface RetentionOptions {
  store: { analytics: Pick<AnalyticsStore, 'removeBefore' | 'visitorKey'>; leases: LeaseStore; settings: Pick<SettingsStore, 'limits'> };
  clock: Clock;
  /** Time between runs. Default a day. */
  intervalMs?: number;
  /**
   * Time from the start to the first run. Default a minute: a server restarted more often than once an interval (a
   * deploy a day) would otherwise never run it; not at once, so that it does not compete with the start-up.
   */
  firstRunMs?: number;
  log: (line: string) => void;
}

/** Schedules the removal every `intervalMs`, the first `firstRunMs` after the start; runs never overlap. */
export function startAnalyticsRetention(options: RetentionOptions): AnalyticsRetention {
  const { store, clock, intervalMs = DAY_MS, firstRunMs = 60_000, log } = options;
  const holdLease = leaseHolder(store.leases, RETENTION_LEASE, clock, intervalMs);

  async function run(): Promise<RetentionResult | null> {
    const now = clock.now();
    if (!(await holdLease())) return null;
    const keptFrom = firstOfLastDays(now, (await store.settings.limits()).analyticsDays);
    const removed = await store.analytics.removeBefore(keptFrom);
    // The visitor key and marks of the day before yesterday go with it (visitorKey deletes them): on a day nobody
    // visits, they would otherwise wait for the next visit.
    await store.analytics.visitorKey(utcDate(now));
    return { keptFrom, removed };
  }

  const done = {
    result: (result: RetentionResult | null) =>
      log(
        result
          ? `Click analytics retention: ${count(result.removed, 'row')} of days before ${result.keptFrom} removed.`
          : 'Click analytics retention: left to another process, which ran it less than an interval ago.',
      ),
    failure: (error: unknown) => log(`Click analytics retention failed: ${error instanceof Error ? error.message : String(error)}`),
  };
  const job = every(intervalMs, run, done);
  const first = setTimeout(() => job.runNow().then(done.result, done.failure), firstRunMs);
  first.unref();
  return {
    runNow: job.runNow,
    async stop() {
      clearTimeout(first);
      await job.stop();
    },
  };
}
