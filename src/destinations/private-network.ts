/**
 * The DNS half of destination rule 3: a public-looking host name must not resolve to a private network.
 *
 * Out of scope on purpose: DNS rebinding, a name that resolves public now and private later. The service never
 * fetches a destination, it only sends browsers there, so a name repointed after the check reaches nothing of ours;
 * the check keeps links from being made into private networks as the name stands when the link is made or changed.
 * (The OAuth metadata fetcher, which does connect, checks the address it connects to instead.)
 */
import { Resolver } from 'node:dns/promises';
import { fail } from '../errors.js';
import type { CheckedDestination } from '../domain/destination.js';
import { isPublicAddress } from './addresses.js';
import { LruCache } from '../support/lru-cache.js';
import type { NetworkCheck } from './checker.js';

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

type Verdict = 'public' | 'private' | 'missing';
/** A look-up that could not be made (timeout, SERVFAIL, refused, ...): 503, and not cached. */
class LookupFailed extends Error {}
type Family = { addresses: Array<{ address: string; ttl: number }> } | { error: string };

/**
 * Resolves a destination's host (A and AAAA) and refuses it with 400 `private_destination` when any address is
 * not public, 400 `invalid_destination` when the name does not exist, and 503 `check_unavailable` (`retryAfter`
 * 60) when the look-up times out or fails. Answers and missing names are cached (at most `cacheSize` hosts, for
 * min(record TTL, 5 min) and 1 min); failures are not, so the next call asks again.
 * `servers` are `host[:port]` resolvers (empty: the system's); an invalid one throws here, at start-up.
 */
export function privateNetworkCheck(options: {
  servers: string[];
  timeoutMs: number;
  cacheSize?: number;
  now?: () => number;
}): NetworkCheck {
  const { timeoutMs, cacheSize = 10_000, now = Date.now } = options;
  // One try per server: the overall deadline below is the caller's budget, and retries would only overrun it.
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (options.servers.length > 0) resolver.setServers(options.servers);
  const cache = new LruCache<Verdict>(cacheSize, { now });
  // Checks of one host that overlap share one look-up, so a burst of links to a new site costs one query.
  const pending = new Map<string, Promise<Verdict>>();

  async function lookUp(host: string): Promise<Verdict> {
    // c-ares's timeout is per server and per try; the deadline bounds the whole look-up, both families together.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LookupFailed('ETIMEOUT')), timeoutMs);
    });
    const answers = Promise.all([family(resolver.resolve4(host, { ttl: true })), family(resolver.resolve6(host, { ttl: true }))]);
    try {
      const { verdict, ttlMs } = judge(...(await Promise.race([answers, deadline])));
      cache.set(host, verdict, ttlMs);
      return verdict;
    } finally {
      clearTimeout(timer);
    }
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
      if (verdict === 'private') throw fail('private_destination', DETAIL.private, field);
      if (verdict === 'missing') throw fail('invalid_destination', DETAIL.missing, field);
    },
  };
}

/** One family's answer: its addresses, or the resolver's error code (ENODATA: none of that type). */
async function family(query: Promise<Array<{ address: string; ttl: number }>>): Promise<Family> {
  try {
    return { addresses: await query };
  } catch (error) {
    return { error: String((error as NodeJS.ErrnoException).code ?? 'EUNKNOWN') };
  }
}

/**
 * Combines the A and AAAA answers. A private address settles it even when the other family failed; otherwise a
 * failure throws (the other family might have held a private address), and no address at all means no such name.
 */
function judge(...families: Family[]): { verdict: Verdict; ttlMs: number } {
  const found = families.flatMap((answer) => ('addresses' in answer ? answer.addresses : []));
  const ttlMs = Math.min(MAX_ANSWER_TTL_MS, ...found.map(({ ttl }) => ttl * 1000));
  if (found.some(({ address }) => !isPublicAddress(address))) return { verdict: 'private', ttlMs };
  const failed = families.find((answer) => 'error' in answer && answer.error !== 'ENODATA' && answer.error !== 'ENOTFOUND');
  if (failed) throw new LookupFailed('error' in failed ? failed.error : '');
  if (found.length === 0) return { verdict: 'missing', ttlMs: MISSING_TTL_MS };
  return { verdict: 'public', ttlMs };
}

function unavailable(field: string) {
  const error = fail('check_unavailable', DETAIL.unavailable, field);
  error.retryAfter = RETRY_AFTER_SECONDS;
  return error;
}
