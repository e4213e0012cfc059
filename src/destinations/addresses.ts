/**
 * Which IP addresses are on the public internet. One answer for the whole service: destination checks (what a
 * link's host name resolves to) and the OAuth client-metadata fetcher (where it may connect) both ask here.
 * The ranges come from ipaddr.js, a maintained list of the IANA special-purpose registries, not a hand-kept table.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// ipaddr.js names every special-purpose range (IPv4: unspecified, broadcast, multicast, linkLocal, loopback,
// carrierGradeNat, private, reserved — which holds TEST-NET-1/2/3, 198.18/15 and 240/4 —, as112, amt; IPv6:
// unspecified, linkLocal, multicast, loopback, uniqueLocal, ipv4Mapped, deprecatedSiteLocal, discard, rfc6145,
// rfc6052, 6to4, teredo, benchmarking, amt, as112v6, deprecatedOrchid, orchid2, droneRemoteIdProtocolEntityTags,
// segmentRouting, reserved — 2001::/23, 2001:db8::/32, 3fff::/20) and calls everything else "unicast".
// Only "unicast" is public; a name added by a later version of the library is therefore not public by default.
const PUBLIC_RANGE = 'unicast';

// IPv4-compatible addresses (::a.b.c.d, RFC 4291 §2.5.5.1) are deprecated and unused on the internet; ipaddr.js
// names only :: and ::1 in ::/96 and would call the rest unicast.
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
// The well-known NAT64 prefix (RFC 6052) reaches the IPv4 address in its last 32 bits through a translator, and a
// DNS64 resolver answers it for every IPv4-only site: judge the IPv4 address, so IPv6-only hosts still work.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
// IANA's global unicast space. The rest of the IPv6 space (bar the special ranges above) is reserved by the IETF.
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * True for an IP address on the public internet; false for any non-public range and for anything that is not an
 * IP address. An IPv4-mapped address (::ffff:a.b.c.d) is judged as its IPv4 address; so are 6to4 (2002::/16,
 * RFC 3056) and well-known-prefix NAT64 (64:ff9b::/96) addresses, which a relay or translator delivers to the
 * IPv4 address they carry. Every other IPv6 form of an IPv4 address (IPv4-compatible, local-use NAT64
 * 64:ff9b:1::/48, IPv4-translated, Teredo) is not public.
 * `isPublicAddress('93.184.216.34')` is true; `isPublicAddress('::ffff:10.0.0.1')` is false.
 */
export function isPublicAddress(address: string): boolean {
  // isIP first: ipaddr.js also accepts inet_aton spellings ("127.1", "0x7f.1"), which no resolver answers.
  if (isIP(address) === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(isIP(address) === 6 ? hexOnly(address) : address);
  } catch {
    return false;
  }
  return parsed instanceof ipaddr.IPv4 ? parsed.range() === PUBLIC_RANGE : isPublicIPv6(parsed);
}

/**
 * An IPv6 address with its zone dropped (it does not change where the address is) and a dotted IPv4 tail spelled
 * as two hex groups: ipaddr.js reads "::a.b.c.d", an IPv4-compatible address, as the IPv4-mapped "::ffff:a.b.c.d",
 * and resolvers print IPv4-compatible answers in that dotted form.
 */
function hexOnly(address: string): string {
  return address.split('%')[0]!.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`);
}

function isPublicIPv6(address: ipaddr.IPv6): boolean {
  if (address.match(IPV4_COMPATIBLE)) return false;
  const parts = address.parts;
  if (address.match(NAT64_WELL_KNOWN)) return isPublicIPv4Of(parts[6]!, parts[7]!);
  // 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
  if (address.range() === '6to4') return isPublicIPv4Of(parts[1]!, parts[2]!);
  return address.range() === PUBLIC_RANGE && address.match(GLOBAL_UNICAST);
}

/** Judges the IPv4 address held by two 16-bit groups of an IPv6 address. */
function isPublicIPv4Of(high: number, low: number): boolean {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]).range() === PUBLIC_RANGE;
}
