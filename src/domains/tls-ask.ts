import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostOf } from '../domain/custom-domain.js';
import { normalizeDomain } from '../domain/destination.js';
import type { DomainDirectory } from './directory.js';

/** Where a reverse proxy asks before it gets a certificate for a name (Caddy's `on_demand_tls { ask }`). */
export const TLS_ASK_PATH = '/tls/allowed';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Whether a request on the public listener may ask: only one from this machine that no proxy forwarded. A proxy on
 * this machine connects from loopback for every visitor too, and says so with its forwarding headers; its own `ask`
 * carries none. (The metrics listener answers the question to anyone who reaches it: METRICS_HOST keeps it inside.)
 */
export function mayAskOnPublicListener(req: IncomingMessage): boolean {
  const { headers } = req;
  const forwarded = headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined || headers['x-forwarded-host'] !== undefined;
  return !forwarded && LOOPBACK.has(req.socket.remoteAddress ?? '');
}

/**
 * `GET /tls/allowed?domain=D`: 200 when D is PUBLIC_URL's host or a team's verified domain, so the proxy gets it a
 * certificate; 404 for any other name (a pending or failed domain too), so a stranger's name never costs one; 400
 * without a name. Text answers: the proxy reads only the status.
 */
export function tlsAsk(domains: DomainDirectory, publicUrl: string) {
  const publicHost = new URL(publicUrl).hostname;
  const answer = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`${text}\n`);
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'Ask with GET.');
    const asked = new URL(req.url ?? '/', 'http://x').searchParams.get('domain');
    if (!asked) return answer(res, 400, `Ask with ${TLS_ASK_PATH}?domain=NAME.`);
    // PUBLIC_URL's host may be an IP address (an intranet's), which is no domain name: compared as given first.
    const name = hostOf(asked.trim()) === publicHost ? publicHost : normalizeDomain(asked.trim());
    const allowed = name !== null && (name === publicHost || (await domains.byHost(name))?.state === 'verified');
    answer(res, allowed ? 200 : 404, allowed ? `${name} is served here.` : 'Not a name this service serves.');
  };
}
