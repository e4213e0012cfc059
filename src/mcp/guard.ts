import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * DNS-rebinding protection and CORS for /mcp. `Host` must be the public address's host (a rebinding page cannot
 * forge it); a browser's `Origin`, when present, must be the public address or an operator-allowed origin.
 * Clients send no cookies (they authenticate with a bearer token), so any origin may read the CORS answers.
 */
export function mcpGuard(publicUrl: string, allowedOrigins: readonly string[]) {
  const own = new URL(publicUrl);
  // URL.host is lowercase and leaves out the scheme's default port, so a Host header is compared the same way.
  const hostOf = (header: string | undefined) => {
    try {
      return header === undefined ? null : new URL(`${own.protocol}//${header}`).host;
    } catch {
      return null;
    }
  };
  const origins = new Set([own.origin, ...allowedOrigins.map((origin) => new URL(origin).origin)]);

  return {
    /** Sets the CORS headers; answers a preflight or a refused request itself and returns true when it did. */
    handled(req: IncomingMessage, res: ServerResponse): boolean {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate, Mcp-Session-Id, RateLimit, RateLimit-Policy, Retry-After');
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
        res.setHeader(
          'Access-Control-Allow-Headers',
          'Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID',
        );
        res.setHeader('Access-Control-Max-Age', '86400');
        res.statusCode = 204;
        res.end();
        return true;
      }
      const origin = req.headers.origin;
      if (hostOf(req.headers.host) !== own.host || (origin !== undefined && !origins.has(origin))) {
        res.statusCode = 403;
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: this Host or Origin is not allowed.' }, id: null }));
        return true;
      }
      return false;
    },
  };
}
