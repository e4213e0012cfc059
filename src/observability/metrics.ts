import { collectDefaultMetrics, Registry, type Metric } from 'prom-client';
import { ApiError } from '../errors.js';
import { everyCacheStats } from '../support/cache-stats.js';
import type { CallTimer } from './instrument.js';
import { TallyCounter, TallyHistogram, type CounterSeries } from './tallies.js';

const REQUEST_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DATABASE_SECONDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * The service's own metrics (docs/behaviour.md lists them). They are counted whether or not METRICS_PORT is set:
 * the redirect summary of the log reads the same tallies, and counting is adding to numbers. Only a registry,
 * made when metrics are on, turns them into Prometheus text, beside the process's own metrics.
 */
export class ServiceMetrics {
  readonly requests = new TallyCounter(
    'shortlinks_requests_total',
    'Requests answered, by surface (api, mcp, web, oauth, redirect), operation (the API operation, MCP tool or method, page route, or for redirects visit and qr) and status (for a refused MCP tool call, the status of its problem; aborted: the client left before the answer).',
    ['surface', 'operation', 'status'],
  );
  readonly errors = new TallyCounter(
    'shortlinks_request_errors_total',
    "Requests refused, by surface, operation and error code (the problem's code; for MCP, a tool call's isError result).",
    ['surface', 'operation', 'code'],
  );
  readonly durations = new TallyHistogram(
    'shortlinks_request_duration_seconds',
    'Time from a request to its answer, by surface and operation.',
    ['surface', 'operation'],
    REQUEST_SECONDS,
  );
  readonly clicks = new TallyCounter('shortlinks_clicks_counted_total', 'Redirects counted as clicks (GETs from browsers; not bots, previews or HEAD).', []);
  readonly refusals = new TallyCounter(
    'shortlinks_limit_refusals_total',
    'Calls refused by a limit, by kind (calls_per_minute, link_creations, link_changes, team_full, signups, new_teams, signin_slowdown, client_registrations, metadata_fetches).',
    ['kind'],
  );
  readonly destinationChecks = new TallyCounter(
    'shortlinks_destination_checks_total',
    'Destination checks of new and changed links, by outcome: passed, or the error code of the refusal.',
    ['outcome'],
  );
  readonly mail = new TallyCounter(
    'shortlinks_mail_messages_total',
    'Attempts to send a message of the outbox, by outcome: sent, retried (failed, tried again later) or failed (given up).',
    ['outcome'],
  );
  readonly database = new TallyHistogram(
    'shortlinks_database_duration_seconds',
    "Time spent in store calls (a database's reads and writes, and the store's caches in front of them), by call.",
    ['call'],
    DATABASE_SECONDS,
  );
  readonly caches = new TallyCounter(
    'shortlinks_cache_lookups_total',
    'Lookups of the in-memory caches, by cache and result (hit or miss): the hit ratio is hit / (hit + miss).',
    ['cache', 'result'],
    (counter) => {
      for (const [name, stats] of everyCacheStats()) {
        counter.of(name, 'hit').value = stats.hits;
        counter.of(name, 'miss').value = stats.misses;
      }
    },
  );

  /** The one series of counted clicks, which the click counter adds to. */
  get clicksCounted(): CounterSeries {
    return this.clicks.of();
  }

  refused(kind: string): void {
    this.refusals.of(kind).value += 1;
  }

  checked(outcome: string): void {
    this.destinationChecks.of(outcome).value += 1;
  }

  mailed(outcome: 'sent' | 'retried' | 'failed'): void {
    this.mail.of(outcome).value += 1;
  }

  /**
   * The timer of one store call; refusals of the link limits are counted too: those the store's rules throw, and
   * those createMany answers as the outcomes of its items.
   */
  storeCall(call: string): CallTimer {
    const series = this.database.of(call);
    if (!call.startsWith('links.')) return (seconds) => series.observe(seconds);
    const creates = call === 'links.create' || call === 'links.createMany';
    const refusal = (error: unknown) => {
      if (!(error instanceof ApiError)) return;
      if (error.code === 'team_full') this.refused('team_full');
      else if (error.code === 'limit_reached') this.refused(creates ? 'link_creations' : 'link_changes');
    };
    return (seconds, error, value) => {
      series.observe(seconds);
      refusal(error);
      if (call === 'links.createMany' && Array.isArray(value)) value.forEach(refusal);
    };
  }

  /** A registry printing every metric above and the process's (CPU, memory, event loop, garbage collection). */
  registry(): Registry {
    const registry = new Registry();
    for (const tally of [this.requests, this.errors, this.durations, this.clicks, this.refusals, this.destinationChecks, this.mail, this.database, this.caches]) {
      // The tallies answer the registry's one question, get(), as prom-client's own metrics do (tallies.ts).
      registry.registerMetric(tally as unknown as Metric);
    }
    collectDefaultMetrics({ register: registry });
    return registry;
  }
}
