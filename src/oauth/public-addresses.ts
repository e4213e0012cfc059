import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Addresses the server never fetches from: private, loopback, link-local, shared, documentation, reserved. */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // IPv4-mapped addresses (::ffff:a.b.c.d) are checked by BlockList against the IPv4 rules above.
  ['::', 127], ['64:ff9b::', 96], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** True for an IP address on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;

export const dnsResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * A `lookup` for node:http(s) that resolves the host and refuses it when any of its addresses is not public.
 * The connection then goes to an address checked here, so DNS cannot hand a private one to the connect step.
 */
export function publicOnlyLookup(resolve: Resolve, refusal: (host: string) => Error): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        if (found.length === 0 || found.some(({ address }) => !isPublicAddress(address))) return callback(refusal(hostname), '', 0);
        if (options.all) return (callback as (error: null, addresses: typeof found) => void)(null, found);
        return callback(null, found[0]!.address, found[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
