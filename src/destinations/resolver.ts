/**
 * The service's one way of asking DNS where a host name points: `DNS_SERVERS` (the system's resolvers when
 * empty), within `DNS_TIMEOUT_MS`, A and AAAA together. Destination checks and the OAuth metadata document
 * fetcher both ask here, so the names they judge resolve the same way.
 */
import { Resolver } from 'node:dns/promises';

/** One address of a host, with its record's TTL in seconds. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
  ttl: number;
}

/**
 * What a host resolved to: every address found, and the resolver's error code when a family failed for another
 * reason than "no such name or record" (a private address found alongside still counts).
 */
export interface HostAnswer {
  addresses: ResolvedAddress[];
  failure: string | null;
}

/** A look-up that could not be made in time at all: the caller answers "try again later". */
export class LookupFailed extends Error {}

export type ResolveHost = (host: string) => Promise<HostAnswer>;

// No such name, or no record of that type: a plain answer, not a failure.
const NOT_FOUND = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * Resolves A and AAAA of a host with the given servers (`host[:port]`; empty: the system's), both within
 * `timeoutMs` in all; throws LookupFailed when the deadline passes. An invalid server throws here, at start-up.
 */
export function dnsResolver(options: { servers: string[]; timeoutMs: number }): ResolveHost {
  const { timeoutMs } = options;
  // One try per server: the overall deadline below is the caller's budget, and retries would only overrun it.
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (options.servers.length > 0) resolver.setServers(options.servers);

  return async (host) => {
    // c-ares's timeout is per server and per try; the deadline bounds the whole look-up, both families together.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LookupFailed('ETIMEOUT')), timeoutMs);
    });
    const answers = Promise.all([family(resolver.resolve4(host, { ttl: true }), 4), family(resolver.resolve6(host, { ttl: true }), 6)]);
    try {
      const [v4, v6] = await Promise.race([answers, deadline]);
      return { addresses: [...v4.addresses, ...v6.addresses], failure: v4.failure ?? v6.failure };
    } finally {
      clearTimeout(timer);
    }
  };
}

async function family(query: Promise<Array<{ address: string; ttl: number }>>, family: 4 | 6): Promise<HostAnswer> {
  try {
    return { addresses: (await query).map(({ address, ttl }) => ({ address, family, ttl })), failure: null };
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code ?? 'EUNKNOWN');
    return { addresses: [], failure: NOT_FOUND.has(code) ? null : code };
  }
}
