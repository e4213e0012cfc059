import { DIRECT, THIS_SERVICE } from '../domain/analytics.js';

/** The longest host kept (a DNS name's limit): anything longer is no host a browser sent. */
const MAX_HOST_LENGTH = 253;

/**
 * `scheme://[userinfo@]host[:port]` at the start of a Referer, its host captured: read with a regular expression
 * rather than `new URL`, which builds a whole URL object for every click. The host is a name (letters, digits,
 * `.`, `-`, `_`) or a bracketed IPv6 address. `android-app://com.slack/` (Android apps' referrers) names an app.
 */
const REFERER_HOST = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?([a-z0-9._-]+|\[[0-9a-f:.]+\])(?::\d*)?(?:[/?#]|$)/i;

/**
 * The referrer a click is counted under: the host of its `Referer` only (lower case, no port; never the path or
 * query, which may name a person's search or page), `direct` when there is none or it is no URL, and `this service`
 * for the service's own pages (PUBLIC_URL's host).
 */
export function referrerOf(publicUrl: string): (referer: string | undefined) => string {
  const ownHost = new URL(publicUrl).hostname.toLowerCase();
  return (referer) => {
    if (referer === undefined || referer === '') return DIRECT;
    const host = REFERER_HOST.exec(referer)?.[1];
    if (host === undefined || host.length > MAX_HOST_LENGTH) return DIRECT;
    const lower = host.toLowerCase();
    return lower === ownHost ? THIS_SERVICE : lower;
  };
}
