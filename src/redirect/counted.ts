import type { IncomingMessage } from 'node:http';
import { isbot } from 'isbot';
import { cacheStats } from '../support/cache-stats.js';
import { LruCache } from '../support/lru-cache.js';

/**
 * Whether a redirect counts as a click: a GET from a person's browser. Not counted: HEAD, prefetch and prerender
 * requests, known bots, link-preview fetchers and link checkers (isbot's maintained list), and requests with no
 * User-Agent at all (scripts and checkers).
 */
export function countsAsClick(req: IncomingMessage): boolean {
  if (req.method !== 'GET') return false;
  const { headers } = req;
  // A browser's visit sends none of these: each is looked at only when present.
  if (
    announcesPrefetch(headers['sec-purpose']) ||
    announcesPrefetch(headers['purpose']) ||
    announcesPrefetch(headers['x-purpose']) ||
    announcesPrefetch(headers['x-moz'])
  ) {
    return false;
  }
  const agent = headers['user-agent'];
  return agent !== undefined && agent !== '' && !botAgent(agent, req.socket);
}

function announcesPrefetch(value: string | string[] | undefined): boolean {
  return value !== undefined && /prefetch|prerender|preview/i.test(String(value));
}

// isbot runs one large regular expression; the same few thousand User-Agent strings make most visits, so the
// verdicts are remembered.
const verdicts = new LruCache<boolean>(10_000, { stats: cacheStats('bot-verdicts') });

/** The User-Agent of a connection's last visit and its verdict, kept on the connection (a socket) itself. */
const LAST_AGENT = Symbol('last User-Agent');
const LAST_VERDICT = Symbol('last verdict');
type Remembering = object & { [LAST_AGENT]?: string; [LAST_VERDICT]?: boolean };

/**
 * The visits on one kept-alive connection come from one browser, with one User-Agent: comparing it with the last
 * one costs less than hashing its hundred-odd characters for the lookup below (2% of a redirect's CPU in a profile).
 */
function botAgent(agent: string, connection: Remembering): boolean {
  if (connection[LAST_AGENT] === agent) return connection[LAST_VERDICT]!;
  let bot = verdicts.get(agent);
  if (bot === undefined) verdicts.set(agent, (bot = isbot(agent)));
  connection[LAST_AGENT] = agent;
  connection[LAST_VERDICT] = bot;
  return bot;
}
