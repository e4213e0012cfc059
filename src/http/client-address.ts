import type { IncomingMessage } from 'node:http';

/**
 * The address a request came from, for per-address limits (calls before sign-in, the sign-in slowdown, client
 * registration). Behind a reverse proxy every request comes from the proxy, which would make those limits global;
 * with TRUST_PROXY naming the proxies' addresses, the client is taken from `X-Forwarded-For`: the rightmost entry
 * that is not itself a trusted proxy (so a client cannot forge its address by sending the header itself).
 */
export function clientAddressOf(trustedProxies: ReadonlySet<string>) {
  return function clientAddress(req: IncomingMessage): string {
    const peer = normalize(req.socket.remoteAddress ?? 'unknown');
    if (!trustedProxies.has(peer)) return peer;
    if (req.headers['x-forwarded-for'] === undefined) return peer;
    // Node joins repeated X-Forwarded-For lines with ", ": one string.
    const header = String(req.headers['x-forwarded-for']);
    // Read from the right without splitting: every redirect with analytics on asks (a list per click cost the
    // garbage collector more than the reading).
    for (let end = header.length; end > 0; ) {
      const comma = header.lastIndexOf(',', end - 1);
      const entry = normalize(header.slice(comma + 1, end).trim());
      if (entry !== '' && !trustedProxies.has(entry)) return entry;
      end = comma;
    }
    return peer;
  };
}

export type ClientAddress = ReturnType<typeof clientAddressOf>;

/** Whether a request came straight from one of the trusted reverse proxies (TRUST_PROXY). */
export function fromTrustedProxy(trustedProxies: ReadonlySet<string>) {
  return (req: IncomingMessage): boolean => trustedProxies.size > 0 && trustedProxies.has(normalize(req.socket.remoteAddress ?? ''));
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one address. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
