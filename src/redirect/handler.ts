import type { IncomingMessage, ServerResponse } from 'node:http';
import { stampIds, withIds } from '../http/answer-ids.js';
import { isReservedWord, MAX_NAME_LENGTH, MIN_NAME_LENGTH } from '../domain/link-name.js';
import { PAGE_HEADERS } from '../views/layout.js';
import type { Store } from '../store/ports.js';
import type { Clock } from '../shared/clock.js';
import { visitClass } from '../analytics/visit-class.js';
import { qrAddress } from '../domain/qr-address.js';
import { ClickCounter } from './click-counter.js';
import { clickFacts, type CaptureDeps } from './click-facts.js';
import { disabledPage, flaggedPage, notFoundPage } from './pages.js';
import { QrCodes } from './qr.js';
import type { Gate } from '../auth/gate.js';
import { toApiError } from '../errors.js';
import { linkResolver } from './resolve.js';
import { setRetryAfter } from '../http/retry-after.js';

const SHORT_PATH = new RegExp(`^/([A-Za-z0-9_-]{${MIN_NAME_LENGTH},${MAX_NAME_LENGTH}})(/qr)?$`);
// The service's page headers, but no referrer: the warning page's link leads off to the destination.
const VISIT_PAGE_HEADERS = { ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Referrer-Policy': 'no-referrer' };

/**
 * GET and HEAD `PUBLIC_URL/<code>`, `/<name>` and `/<code>/qr`, answered before Express: active links 302 at once,
 * flagged ones show a warning with a way onward, disabled ones 410, anything else a 404 page. Resolves to false for
 * paths that are not short links, so the web app can answer them; else to the id of the link answered (null for
 * the not-found page), for the log. Every answer carries its ids (http/answer-ids.ts); a redirect writes them with
 * its other headers in one writeHead (withIds).
 */
export function redirects(deps: {
  store: Store;
  clock: Clock;
  publicUrl: string;
  gate: Gate;
  clicksCounted?: { value: number };
  /** This worker's `X-Served-By` (WORKERS above 1), else null. */
  servedBy?: string | null;
  /**
   * Click analytics (ANALYTICS=on): where countries come from, who the client is, and how often they are written
   * (ANALYTICS_WRITE_MS); null or left out: off.
   */
  analytics?: (Omit<CaptureDeps, 'publicUrl'> & { writeMs?: number }) | null;
}) {
  const servedBy = deps.servedBy ?? null;
  const resolve = linkResolver(deps.store);
  const qrCodes = new QrCodes();
  const clicks = new ClickCounter(deps.store.clicks, deps.clicksCounted, deps.analytics ? deps.store.analytics : null, deps.analytics?.writeMs);
  const factsOf = deps.analytics ? clickFacts({ ...deps.analytics, publicUrl: deps.publicUrl }) : null;

  async function handleRedirect(req: IncomingMessage, res: ServerResponse, path: string, requestId: string): Promise<string | null | false> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const match = SHORT_PATH.exec(path);
    // The service's own pages (/app, /signin, ...) are reserved words, never names: they are the web app's.
    if (!match || isReservedWord(match[1]!)) return false;
    const link = await resolve(match[1]!);
    if (match[2]) {
      if (!link || link.code !== match[1]) return false;
      stampIds(res, requestId, servedBy);
      await sendQr(req, res, link.code);
      return link.id;
    }
    if (link?.state === 'active') {
      // No Referrer-Policy: a redirect's policy replaces that of the page the click came from. A looser one leaks
      // what the page kept (unsafe-url sent the dashboard's whole address, team and search included); a stricter
      // one takes from the destination what the page chose to share. Without one the page's policy decides:
      // nothing from the dashboard (same-origin), another site's origin under the browsers' default.
      res.writeHead(302, withIds({ Location: link.location, 'Cache-Control': 'private, max-age=0' }, requestId, servedBy));
      res.end();
      const kind = visitClass(req);
      if (kind === 'counted') clicks.count(link.id, deps.clock.now(), factsOf?.(req));
      else clicks.notCounted(link.id, deps.clock.now(), kind);
      return link.id;
    }
    stampIds(res, requestId, servedBy);
    if (!link) return sendPage(res, 404, notFoundPage(), null);
    if (link.state === 'disabled') return sendPage(res, 410, disabledPage(), link.id);
    // A flagged link's warning is no click; the fetchers that are not people are still shown by class.
    const kind = visitClass(req);
    if (kind !== 'counted') clicks.notCounted(link.id, deps.clock.now(), kind);
    return sendPage(res, 200, flaggedPage(link.destination, link.code), link.id);
  }

  async function sendQr(req: IncomingMessage, res: ServerResponse, code: string): Promise<void> {
    const format = new URL(req.url ?? '/', 'http://x').searchParams.get('format') === 'png' ? 'png' : 'svg';
    try {
      await deps.gate.countAddress(req, res);
    } catch (error) {
      setRetryAfter(res, toApiError(error).retryAfter ?? 60);
      res.writeHead(429, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end('Too many requests; wait a minute.');
    }
    const { type, body } = await qrCodes.of(qrAddress(deps.publicUrl, code), format);
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return { handleRedirect, close: () => clicks.close() };
}

function sendPage(res: ServerResponse, status: number, html: string, link: string | null): string | null {
  res.writeHead(status, VISIT_PAGE_HEADERS);
  res.end(html);
  return link;
}
