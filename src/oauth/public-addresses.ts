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
  // ::/96 holds ::, ::1 and the deprecated IPv4-compatible addresses (::a.b.c.d, RFC 4291 §2.5.5.1), which
  // nothing public uses; 64:ff9b::/96 and 64:ff9b:1::/48 are NAT64 prefixes (RFC 6052, RFC 8215) that reach
  // IPv4 addresses through a translator, so a private IPv4 address could hide behind them.
  ['::', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address a 6to4 address (2002:AABB:CCDD::/48, RFC 3056) carries, or null for other addresses. */
function sixToFourIPv4(address: string): string | null {
  const groups = expandIPv6(address);
  if (!groups || groups[0] !== 0x2002) return null;
  return [groups[1]! >> 8, groups[1]! & 0xff, groups[2]! >> 8, groups[2]! & 0xff].join('.');
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included), or null. */
function expandIPv6(address: string): number[] | null {
  let text = address.split('%')[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (half: string | undefined) => (half ? half.split(':').map((group) => parseInt(group, 16)) : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<number>(Math.max(fill, 0)).fill(0), ...tail];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

/**
 * True for an IP address on the public internet. A 6to4 address (2002::/16) is judged by the IPv4 address it
 * carries: a relay would deliver it there.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0 || NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')) return false;
  const embedded = family === 6 ? sixToFourIPv4(address) : null;
  return embedded === null || isPublicAddress(embedded);
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
