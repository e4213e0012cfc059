import type { LookupFunction } from 'node:net';
import { isPublicAddress } from './addresses.js';
import { judge } from './private-network.js';
import { LookupFailed, type ResolveHost } from './resolver.js';

// The ranges live with the destination checks, so the fetchers (OAuth metadata, webhook deliveries) and the link rules
// never disagree on what is public.
export { isPublicAddress };

export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;

/**
 * A Resolve on the service's resolver (`DNS_SERVERS`, `DNS_TIMEOUT_MS`), judged as destinations are: any
 * private address is handed on (for the lookup below to refuse), a failed or timed-out look-up and a missing
 * name are errors.
 */
export function resolveWith(resolveHost: ResolveHost): Resolve {
  return async (host) => {
    try {
      const answer = await resolveHost(host);
      if (judge(answer) === 'missing') throw new Error(`${host} has no address.`);
      return answer.addresses;
    } catch (error) {
      throw error instanceof LookupFailed ? new Error(`${host} could not be looked up (${error.message}).`) : error;
    }
  };
}

/**
 * A `lookup` for node:http(s) that resolves the host and refuses it (with `refusal`) when it has no address or, unless
 * `allowPrivate` (the operator's private destinations, for webhooks), when any of its addresses is not public. The
 * connection then goes to an address checked here, so DNS cannot hand another to the connect step.
 */
export function checkedLookup(resolve: Resolve, refusal: (host: string) => Error, { allowPrivate = false } = {}): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        if (found.length === 0 || (!allowPrivate && found.some(({ address }) => !isPublicAddress(address)))) return callback(refusal(hostname), '', 0);
        if (options.all) return (callback as (error: null, addresses: typeof found) => void)(null, found);
        return callback(null, found[0]!.address, found[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
