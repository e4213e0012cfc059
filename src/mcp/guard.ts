import type { IncomingMessage, ServerResponse } from 'node:http';
import { rpcError } from './rpc-error.js';
import { clipped } from '../shared/words.js';

/** Hostnames that always mean this machine; a DNS-rebinding page cannot make a browser send them as its Host. */
const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * DNS-rebinding protection and CORS for /mcp. `Host` must be the public address's host (a rebinding page cannot
 * forge it), or, when PUBLIC_URL is a loopback address, any loopback spelling of it with the same port; a browser's
 * `Origin`, when present, must be one of those origins or an operator-allowed one. Clients send no cookies (they
 * authenticate with a bearer token), so any origin may read the CORS answers.
 */
export function mcpGuard(publicUrl: string, allowedOrigins: readonly string[]) {
  const own = new URL(publicUrl);
  const hosts = ownHosts(own);
  // URL.host is lowercase and leaves out the scheme's default port, so a Host header is compared the same way.
  // Asked of every /mcp request: the usual header, already in that form, is taken without parsing a URL.
  const hostOf = (header: string | undefined) => {
    if (header === undefined) return null;
    const lower = header.toLowerCase();
    if (hosts.includes(lower)) return lower;
    try {
      return new URL(`${own.protocol}//${header}`).host;
    } catch {
      return null;
    }
  };
  const origins = new Set([...hosts.map((host) => `${own.protocol}//${host}`), ...allowedOrigins.map((origin) => new URL(origin).origin)]);

  return {
    /** Sets the CORS headers; answers a preflight or a refused request itself and returns true when it did. */
    handled(req: IncomingMessage, res: ServerResponse): boolean {
      const origin = req.headers.origin;
      // Only a browser reads CORS headers, and a browser always names its Origin; other clients are spared the bytes.
      if (origin !== undefined || req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate, Mcp-Session-Id, RateLimit, RateLimit-Policy, Retry-After');
      }
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
        // Mcp-Method and Mcp-Name are on every 2026-07-28 request: without them a browser sends nothing at all.
        res.setHeader(
          'Access-Control-Allow-Headers',
          'Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID',
        );
        res.setHeader('Access-Control-Max-Age', '86400');
        res.statusCode = 204;
        res.end();
        return true;
      }
      const host = hostOf(req.headers.host);
      if (host === null || !hosts.includes(host)) {
        return refuse(res, `Forbidden: this server's PUBLIC_URL is ${publicUrl}, but the request was sent to Host ${JSON.stringify(clipped(req.headers.host ?? ''))}. Connect to ${publicUrl}/mcp, or set PUBLIC_URL to the address clients use.`);
      }
      if (origin !== undefined && !origins.has(origin)) {
        return refuse(res, `Forbidden: the Origin ${JSON.stringify(clipped(origin))} is not allowed; it must be ${own.origin} or one listed in ALLOWED_ORIGINS.`);
      }
      return false;
    },
  };
}

/** The Host values that reach this service: PUBLIC_URL's, and every loopback spelling of it when it is loopback. */
function ownHosts(own: URL): string[] {
  if (!LOOPBACK_HOSTNAMES.includes(own.hostname)) return [own.host];
  const port = own.port === '' ? '' : `:${own.port}`;
  return LOOPBACK_HOSTNAMES.map((hostname) => `${hostname}${port}`);
}

function refuse(res: ServerResponse, message: string): true {
  rpcError(res, 403, -32000, message);
  return true;
}
