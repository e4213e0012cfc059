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
  return agent !== undefined && agent !== '' && !botAgent(agent);
}

function announcesPrefetch(value: string | string[] | undefined): boolean {
  return value !== undefined && /prefetch|prerender|preview/i.test(String(value));
}

// isbot runs one large regular expression; the same few thousand User-Agent strings make most visits, so the
// verdicts are remembered.
const verdicts = new LruCache<boolean>(10_000, { stats: cacheStats('bot-verdicts') });

function botAgent(agent: string): boolean {
  let bot = verdicts.get(agent);
  if (bot === undefined) verdicts.set(agent, (bot = isbot(agent)));
  return bot;
}
