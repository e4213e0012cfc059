/**
 * The DNS half of destination rule 3: a public-looking host name must not resolve to a private network.
 *
 * Out of scope on purpose: DNS rebinding, a name that resolves public now and private later. The service never
 * fetches a destination, it only sends browsers there, so a name repointed after the check reaches nothing of ours;
 * the check keeps links from being made into private networks as the name stands when the link is made or changed.
 * (The OAuth metadata fetcher, which does connect, asks the same resolver and checks the addresses it connects to.)
 */
import { apiError } from '../errors.js';
import type { CheckedDestination } from '../domain/destination.js';
import { isPublicAddress } from './addresses.js';
import { cacheStats } from '../support/cache-stats.js';
import { LruCache } from '../support/lru-cache.js';
import type { NetworkCheck } from './checker.js';
import { LookupFailed, type HostAnswer, type ResolveHost } from './resolver.js';

const DETAIL = {
  private: "The destination's host name resolves to a private-network address, which is not reachable from the internet.",
  missing: "The destination's host name does not exist.",
  unavailable: "The destination's host name could not be looked up right now; retry in a minute.",
} as const;

/** Seconds a caller waits after a failed look-up: long enough for a resolver hiccup to pass. */
const RETRY_AFTER_SECONDS = 60;
/** An answer is kept as long as its records say, but never longer: a name that changes is seen within minutes. */
const MAX_ANSWER_TTL_MS = 5 * 60_000;
/** A missing name is kept briefly: it may be a site being set up right now. */
const MISSING_TTL_MS = 60_000;

/** What a host name's answer means for a destination (or any address the service is asked to trust). */
export type Verdict = 'public' | 'private' | 'missing';

/**
 * Resolves a destination's host (A and AAAA) and refuses it with 400 `private_destination` when any address is
 * not public, 400 `invalid_destination` when the name does not exist, and 503 `check_unavailable` (`retryAfter`
 * 60) when the look-up times out or fails. Answers and missing names are cached (at most `cacheSize` hosts, for
 * min(record TTL, 5 min) and 1 min); failures are not, so the next call asks again.
 * `servers` are `host[:port]` resolvers (empty: the system's); an invalid one throws here, at start-up.
 */
export function privateNetworkCheck(options: { resolve: ResolveHost; cacheSize?: number; now?: () => number }): NetworkCheck {
  const { resolve, cacheSize = 10_000, now = Date.now } = options;
  const cache = new LruCache<Verdict>(cacheSize, { now, stats: cacheStats('dns-verdicts') });
  // Checks of one host that overlap share one look-up, so a burst of links to a new site costs one query.
  const pending = new Map<string, Promise<Verdict>>();

  async function lookUp(host: string): Promise<Verdict> {
    const answer = await resolve(host);
    const verdict = judge(answer);
    const ttlMs = verdict === 'missing' ? MISSING_TTL_MS : Math.min(MAX_ANSWER_TTL_MS, ...answer.addresses.map(({ ttl }) => ttl * 1000));
    cache.set(host, verdict, ttlMs);
    return verdict;
  }

  async function verdictOf(host: string): Promise<Verdict> {
    const cached = cache.get(host);
    if (cached !== undefined) return cached;
    let running = pending.get(host);
    if (!running) {
      running = lookUp(host).finally(() => pending.delete(host));
      pending.set(host, running);
    }
    return running;
  }

  return {
    async check(destination: CheckedDestination, field: string) {
      let verdict: Verdict;
      try {
        verdict = await verdictOf(destination.host);
      } catch (error) {
        // Anything else is a bug of ours, and answers 500 rather than hide as a DNS failure.
        throw error instanceof LookupFailed ? unavailable(field) : error;
      }
      if (verdict === 'private') throw apiError.privateDestination(DETAIL.private, field);
      if (verdict === 'missing') throw apiError.invalidDestination(DETAIL.missing, field);
    },
  };
}

/**
 * Judges the A and AAAA answers together. A private address settles it even when the other family failed;
 * otherwise a failure throws LookupFailed (the other family might have held a private address), and no address
 * at all means no such name.
 */
export function judge(answer: HostAnswer): Verdict {
  if (answer.addresses.some(({ address }) => !isPublicAddress(address))) return 'private';
  if (answer.failure !== null) throw new LookupFailed(answer.failure);
  return answer.addresses.length === 0 ? 'missing' : 'public';
}

function unavailable(field: string) {
  return apiError.checkUnavailable(DETAIL.unavailable, field, RETRY_AFTER_SECONDS);
}
