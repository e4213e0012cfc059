import ipaddr from 'ipaddr.js';

/**
 * The key a per-address limit counts a client under: an IPv4 address itself, an IPv6 address its /64. One home or
 * office line gets a whole /64 and can change address within it at will, so counting single IPv6 addresses would
 * give one client billions of allowances.
 */
export function addressGroup(address: string): string {
  const bare = address.split('%')[0]!;
  if (!ipaddr.IPv6.isValid(bare)) return address;
  const parsed = ipaddr.IPv6.parse(bare);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return `${parsed.parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

/**
 * The IPv6 /48 an addressGroup key lies in; any other key as it is. A /48 is what one site is usually given (a home
 * line often a /56 of it), so a limit that must hold against someone free to use a whole allocation counts by it.
 */
export function networkOf(group: string): string {
  const bare = group.split('/')[0]!;
  if (!ipaddr.IPv6.isValid(bare)) return group;
  return `${ipaddr.IPv6.parse(bare).parts.slice(0, 3).map((part) => part.toString(16)).join(':')}::/48`;
}
