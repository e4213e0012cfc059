/**
 * Spec rule 6: the destination is not on a third-party list of unsafe sites. The lists are providers (Google Safe
 * Browsing, a local file); the check asks all of them, keeps each verdict for a while, and turns "could not ask"
 * into 503 `check_unavailable` rather than letting an unchecked address through.
 */
import type { CheckedDestination } from '../../domain/destination.js';
import { apiError, type ApiError } from '../../errors.js';
import type { NetworkCheck } from '../checker.js';
import { cacheStats } from '../../support/cache-stats.js';
import { LruCache } from '../../support/lru-cache.js';
import { warnLine } from '../../observability/logger.js';

/** One list of unsafe sites. */
export interface UnsafeSiteProvider {
  /** A short name for log lines: `safe-browsing`, `list-file`. */
  name: string;
  /** The addresses among `urls` (returned as given) that are on the list; rejects when it cannot tell. */
  lookup(urls: string[]): Promise<Set<string>>;
}

/** The rule-6 check, plus the uncached batch look-up the daily re-check uses. */
export interface UnsafeSitesCheck extends NetworkCheck {
  /**
   * Asks every provider about `urls` (lookup keys, see lookupKeyOf) now, past the cache: the re-check wants
   * today's answer, and thousands of cold entries would push out the ones that make creates cheap. `complete` is
   * false when some provider failed: then only the addresses in `unsafe` are known.
   */
  lookupFresh(urls: string[]): Promise<{ unsafe: Set<string>; complete: boolean }>;
}

export interface UnsafeSitesOptions {
  /** Addresses whose verdict is kept; the least recently used goes first. Default 10,000. */
  cacheSize?: number;
  /** How long a verdict serves, safe or unsafe. Default 15 minutes, so a list's additions show within that. */
  ttlMs?: number;
  /** A provider that has not answered by then counts as failed (each provider has its own shorter one). */
  timeoutMs?: number;
  /** The Retry-After of a 503 answer. Default 60 seconds ("retry in a minute"). */
  retryAfterSeconds?: number;
  /** Milliseconds since the epoch, for the cache's TTL. */
  now?: () => number;
  /** Where a provider's failure and recovery are told, once each. Default the process's log. */
  log?: (line: string) => void;
}

const UNSAFE = 'The destination is on a list of unsafe sites.';
const UNAVAILABLE = 'The destination could not be checked against the lists of unsafe sites right now; retry in a minute.';

/**
 * The address every provider is asked about and the cache is keyed by: the parsed URL without its fragment
 * (never sent to a server, and no list tells fragments apart) and with the normalized host (lowercase, punycode,
 * no trailing dot). `https://Example.COM./a#top` → `https://example.com/a`.
 */
export function lookupKeyOf(destination: CheckedDestination): string {
  const url = new URL(destination.url.href);
  url.hash = '';
  url.hostname = destination.host;
  return url.href;
}

/**
 * Rule 6 over `providers`: a match on any list answers 400 `unsafe_destination` at `field`; a provider that fails
 * or times out (and no other matched) answers 503 `check_unavailable` with `retryAfter`. Verdicts are cached;
 * failures are not, so the next call asks again. With no providers every destination passes.
 */
export function unsafeSitesCheck(providers: UnsafeSiteProvider[], options: UnsafeSitesOptions = {}): UnsafeSitesCheck {
  const { timeoutMs = 5000, retryAfterSeconds = 60, log = warnLine } = options;
  const cache = new LruCache<'safe' | 'unsafe'>(options.cacheSize ?? 10_000, { ttlMs: options.ttlMs ?? 15 * 60_000, now: options.now, stats: cacheStats('unsafe-verdicts') });
  // A provider's outage is logged when it starts and when it ends, not on every refused link.
  const failing = new Set<string>();

  async function ask(urls: string[]): Promise<{ unsafe: Set<string>; complete: boolean }> {
    const asked = new Set(urls);
    const answers = await Promise.allSettled(providers.map((provider) => withTimeout(provider, urls, timeoutMs)));
    const unsafe = new Set<string>();
    let complete = true;
    answers.forEach((answer, i) => {
      const name = providers[i]!.name;
      if (answer.status === 'rejected') {
        complete = false;
        if (!failing.has(name)) log(`Unsafe-site list "${name}" cannot be asked (${messageOf(answer.reason)}); new destinations are refused with 503 check_unavailable until it answers again.`);
        failing.add(name);
        return;
      }
      if (failing.delete(name)) log(`Unsafe-site list "${name}" answers again.`);
      for (const url of answer.value) if (asked.has(url)) unsafe.add(url);
    });
    return { unsafe, complete };
  }

  function unavailable(field: string): ApiError {
    return apiError.checkUnavailable(UNAVAILABLE, field, retryAfterSeconds);
  }

  return {
    async check(destination, field) {
      const key = lookupKeyOf(destination);
      let verdict = cache.get(key);
      if (verdict === undefined) {
        const { unsafe, complete } = await ask([key]);
        // A match is an answer even when another list failed; "no match" is one only when every list answered.
        if (!unsafe.has(key) && !complete) throw unavailable(field);
        verdict = unsafe.has(key) ? 'unsafe' : 'safe';
        cache.set(key, verdict);
      }
      if (verdict === 'unsafe') throw apiError.unsafeDestination(UNSAFE, field);
    },
    lookupFresh: (urls) => (urls.length === 0 ? Promise.resolve({ unsafe: new Set(), complete: true }) : ask(urls)),
  };
}

/** The provider's answer, or a rejection once `ms` have passed: no provider can hold a create up for long. */
async function withTimeout(provider: UnsafeSiteProvider, urls: string[], ms: number): Promise<Set<string>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([provider.lookup(urls), late]);
  } finally {
    clearTimeout(timer);
  }
}

function messageOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
