import { isIPv6 } from 'node:net';

/** Where a listener listens, as `host:port`; an IPv6 host in brackets (`[::1]:3000`), or its last group reads as the port. */
export function hostAndPort(address: { address: string; port: number }): string {
  return isIPv6(address.address) ? `[${address.address}]:${address.port}` : `${address.address}:${address.port}`;
}

/**
 * The first line the server prints once it serves: where it is reached and where it listens, and with WORKERS=N
 * how many processes serve. Printed once, by the single process or by the primary when every worker listens.
 */
export function serveLine(publicUrl: string, address: { address: string; port: number }, workers: number): string {
  const processes = workers > 1 ? `, ${workers} worker processes` : '';
  return `shortlinks serves ${publicUrl} (listening on ${hostAndPort(address)}${processes})`;
}
