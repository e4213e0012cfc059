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
import { disabledPage, endedPage, flaggedPage, notFoundPage, passwordPage } from './pages.js';
import { ClickCaps } from './click-caps.js';
import { forwardedLocation } from './forward-query.js';
import { linkPasswords, type GuardedLink } from './link-password.js';
import { isQrFormat, QrCodes } from './qr.js';
import type { Gate } from '../auth/gate.js';
import { toApiError } from '../errors.js';
import { linkResolver } from './resolve.js';
import type { RedirectTarget } from './link-cache.js';
import { setRetryAfter } from '../http/retry-after.js';

/**
 * A team's own domain a request came in on (routing.ts, domain-site.ts): only the team's links answer there, and
 * their QR codes draw the domain's addresses (`base`: `https://<domain>`).
 */
export interface LinkSite {
  teamId: string;
  base: string;
}

// One trailing slash is ignored (`/launch/`, `/<code>/qr/`): within the one match every visit runs anyway.
const SHORT_PATH = new RegExp(`^/([A-Za-z0-9_-]{${MIN_NAME_LENGTH},${MAX_NAME_LENGTH}})(/qr)?/?$`);
const BAD_FORMAT = 'Unknown format: ask for format=svg (the default) or format=png.';
// The service's page headers, but no referrer: the warning page's link leads off to the destination.
const VISIT_PAGE_HEADERS = { ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Referrer-Policy': 'no-referrer' };

/**
 * GET and HEAD `PUBLIC_URL/<code>`, `/<name>` (in any case), `/<code>/qr` and `/<name>/qr`, each with or without a
 * trailing slash, answered before Express: active links 302 at once, flagged ones show a warning with a way onward,
 * disabled ones 410, anything else a 404 page. Resolves to false for paths that are not short links, so the web app
 * can answer them; else to the id of the link answered (null for the not-found page), for the log. Every answer
 * carries its ids (http/answer-ids.ts); a redirect writes them with its other headers in one writeHead (withIds).
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
  /** The service's secret (the store keeps it): signs the permissions of links with a password. */
  secret: Uint8Array;
  /** Each team's address (its primary domain, or PUBLIC_URL: domains/directory.ts), which its QR codes hold. */
  addresses: () => Promise<(teamId: string) => string>;
}) {
  const servedBy = deps.servedBy ?? null;
  const resolve = linkResolver(deps.store);
  const qrCodes = new QrCodes();
  const clicks = new ClickCounter(deps.store.clicks, deps.clicksCounted, deps.analytics ? deps.store.analytics : null, deps.analytics?.writeMs);
  const caps = new ClickCaps(deps.store.clicks, (linkId) => clicks.clicksNotWritten(linkId));
  const passwords = linkPasswords({ secret: deps.secret, rates: deps.gate.rates, publicUrl: deps.publicUrl });
  const factsOf = deps.analytics ? clickFacts({ ...deps.analytics, publicUrl: deps.publicUrl }) : null;

  async function handleRedirect(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    requestId: string,
    site: LinkSite | null = null,
    /** The request caught up with other processes' changes already (as its host was looked up among domains). */
    caughtUp = site !== null,
  ): Promise<string | null | false> {
    // A POST is a link's password form (link-password.ts); any other is the web app's to refuse.
    const posted = req.method === 'POST';
    if (req.method !== 'GET' && req.method !== 'HEAD' && !posted) return false;
    const match = SHORT_PATH.exec(path);
    // The service's own pages (/app, /signin, ...) are reserved words, never names: they are the web app's.
    if (!match || isReservedWord(match[1]!)) return false;
    const found = await resolve(match[1]!, caughtUp);
    // On a team's domain another team's link is no link at all.
    const link = site !== null && found !== null && found.teamId !== site.teamId ? null : found;
    if (posted && (match[2] || link?.passwordHash == null || link.state === 'disabled')) return false;
    if (match[2]) {
      if (!link) return false;
      stampIds(res, requestId, servedBy);
      // Drawn for the address the link is shown at: the domain visited, or its team's.
      const base = site?.base ?? (await deps.addresses())(link.teamId);
      await sendQr(req, res, qrAddress(base, link.code));
      return link.id;
    }
    // Links without options, the most, pass these tests on fields of the cached entry alone.
    const limited = link !== null && (link.expiresAt !== null || link.maxClicks !== null || link.passwordHash !== null);
    if (link?.state === 'active' && !limited) return redirect(req, res, link, 302, requestId);
    // The pages below write their ids with their other headers, as the redirects do (withIds).
    if (!link) return sendPage(res, 404, notFoundPage(), null, requestId);
    if (link.state === 'disabled') return sendPage(res, 410, disabledPage(), link.id, requestId);
    const nowMs = deps.clock.now().getTime();
    // Ended, or behind a password, before anything else: a flagged link's warning names its destination. An end
    // date is a comparison; only a click cap may have to wait for a read (click-caps.ts).
    const ended = (link.expiresAt !== null && nowMs >= link.expiresAt) || (link.maxClicks !== null && (await caps.reached(link.id, link.maxClicks, nowMs)));
    if (ended) return sendPage(res, 410, endedPage(), link.id, requestId);
    const { passwordHash } = link;
    const opened = passwordHash === null ? [] : await openedBy(req, res, { ...link, passwordHash }, nowMs, requestId);
    if (opened === null) return link.id;
    if (link.state === 'active') return redirect(req, res, link, posted ? 303 : 302, requestId, opened);
    // A flagged link's warning is no click; the fetchers that are not people are still shown by class.
    const kind = visitClass(req);
    if (kind !== 'counted') clicks.notCounted(link.id, deps.clock.now(), kind);
    return sendPage(res, 200, flaggedPage(link.destination, link.code, site ? deps.publicUrl : ''), link.id, requestId);
  }

  /**
   * Sends the visit on to the link's destination (with its query string, for forwardQuery) and counts it: 302, or
   * 303 answering the password form, with the permission it earned (`cookies`).
   */
  function redirect(req: IncomingMessage, res: ServerResponse, link: RedirectTarget, status: 302 | 303, requestId: string, cookies: string[] = []): string {
    const query = link.forwardQuery ? req.url!.indexOf('?') : -1;
    const location = query === -1 ? link.location : forwardedLocation(link.location, req.url!.slice(query + 1));
    // No Referrer-Policy: a redirect's policy replaces that of the page the click came from. A looser one leaks
    // what the page kept (unsafe-url sent the dashboard's whole address, team and search included); a stricter
    // one takes from the destination what the page chose to share. Without one the page's policy decides:
    // nothing from the dashboard (same-origin), another site's origin under the browsers' default.
    const headers: Record<string, string | string[]> = { Location: location, 'Cache-Control': 'private, max-age=0' };
    if (cookies.length > 0) headers['Set-Cookie'] = cookies;
    res.writeHead(status, withIds(headers, requestId, servedBy));
    res.end();
    const kind = visitClass(req, status === 303);
    if (kind === 'counted') {
      clicks.count(link.id, deps.clock.now(), factsOf?.(req));
      if (link.maxClicks !== null) caps.counted(link.id);
    } else clicks.notCounted(link.id, deps.clock.now(), kind);
    return link.id;
  }

  /**
   * A link with a password: the cookies to send with the redirect when the visit may go on (none: it holds a
   * permission; the permission: it posted the right password); null once it was answered the password page.
   */
  async function openedBy(req: IncomingMessage, res: ServerResponse, link: GuardedLink, nowMs: number, requestId: string): Promise<string[] | null> {
    if (req.method !== 'POST') {
      if (passwords.permitted(req, link, nowMs)) return [];
      sendPage(res, 200, passwordPage('ask'), link.id, requestId);
      return null;
    }
    const attempt = await passwords.attempt(req, link, deps.gate.addressKey(req), nowMs);
    if (attempt.outcome === 'right') return [attempt.cookie];
    if (attempt.outcome === 'limited') setRetryAfter(res, attempt.retryAfter);
    sendPage(res, attempt.outcome === 'limited' ? 429 : 403, passwordPage(attempt.outcome), link.id, requestId);
    return null;
  }

  /** The QR code of `address` (the link's, on the address visited), as SVG or PNG. */
  async function sendQr(req: IncomingMessage, res: ServerResponse, address: string): Promise<void> {
    const format = new URL(req.url ?? '/', 'http://x').searchParams.get('format') ?? 'svg';
    // Before the gate: a wrong format draws nothing, so it costs the address none of its budget.
    if (!isQrFormat(format)) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end(BAD_FORMAT);
    }
    try {
      await deps.gate.countAddress(req, res);
    } catch (error) {
      setRetryAfter(res, toApiError(error).retryAfter ?? 60);
      res.writeHead(429, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end('Too many requests; wait a minute.');
    }
    const { type, body } = await qrCodes.of(address, format);
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** A page instead of a redirect, its ids written with its other headers. */
  function sendPage(res: ServerResponse, status: number, html: string, link: string | null, requestId: string): string | null {
    res.writeHead(status, withIds({ ...VISIT_PAGE_HEADERS }, requestId, servedBy));
    res.end(html);
    return link;
  }

  return { handleRedirect, close: () => clicks.close() };
}
