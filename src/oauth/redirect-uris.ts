import { clipped } from '../shared/words.js';

/**
 * Redirect URIs (RFC 6749 §3.1.2, RFC 8252 §7, OAuth 2.1 §2.3.1). A client may register https addresses, http
 * addresses on a loopback host (an app on the person's computer), and private-use schemes (`cursor://…`).
 * Requests must name a registered URI exactly; only loopback ones match on any port, since a native app picks a
 * free port at run time.
 */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);
// Schemes that run code, read local data or reach browser and system internals; a private-use scheme is an app's
// own (`cursor:`, `com.example.app:`), never one of these.
const NEVER_SCHEMES: ReadonlySet<string> = new Set([
  'javascript:', 'data:', 'file:', 'vbscript:', 'about:', 'blob:', 'filesystem:', 'ftp:', 'ws:', 'wss:', 'mailto:',
  'chrome:', 'chrome-extension:', 'edge:', 'brave:', 'opera:', 'vivaldi:', 'view-source:', 'jar:', 'resource:',
  'moz-extension:', 'safari-extension:', 'intent:', 'content:', 'smb:', 'tel:', 'sms:',
]);
const NEVER_SCHEME_PREFIXES = ['ms-', 'x-apple-'];
const MAX_LENGTH = 2000;

function parse(uri: string): URL | null {
  if (uri.length > MAX_LENGTH || /[\s\u0000-\u001f\u007f]/.test(uri)) return null;
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}

/** True for `http://localhost…`, `http://127.0.0.1…` and `http://[::1]…`. */
export function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** Why a URI cannot be registered, or null when it can. */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string') return 'Each redirect URI must be a string.';
  const url = parse(uri);
  if (!url) return `${JSON.stringify(clipped(uri))} is not an absolute URI.`;
  if (url.hash !== '' || uri.includes('#')) return `${clipped(uri)} has a fragment, which redirect URIs must not have.`;
  if (url.username !== '' || url.password !== '') return `${clipped(uri)} carries credentials.`;
  if (NEVER_SCHEMES.has(url.protocol) || NEVER_SCHEME_PREFIXES.some((p) => url.protocol.startsWith(p))) {
    return `${url.protocol} redirect URIs are not allowed.`;
  }
  if (url.protocol === 'http:' && !isLoopback(url)) {
    return `${clipped(uri)} is plain http on a host other than localhost, 127.0.0.1 or [::1]; use https.`;
  }
  if ((url.protocol === 'https:' || url.protocol === 'http:') && url.hostname === '') return `${clipped(uri)} has no host.`;
  return null;
}

/** True when `requested` is one of `registered` exactly, or a loopback one but for its port. */
export function redirectUriMatches(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const asked = parse(requested);
  if (!asked || !isLoopback(asked) || requested.includes('#')) return false;
  return registered.some((uri) => {
    const known = parse(uri);
    return (
      known !== null &&
      isLoopback(known) &&
      known.hostname === asked.hostname &&
      known.pathname === asked.pathname &&
      known.search === asked.search &&
      asked.username === '' &&
      asked.password === ''
    );
  });
}

/** What a consent page shows for where the person returns: the host, or "an app on this device" for loopback. */
export function redirectHostOf(uri: string): string {
  const url = parse(uri);
  if (!url) return uri;
  if (isLoopback(url)) return `${url.host} (an app on your own computer)`;
  if (url.protocol === 'https:') return url.host;
  return `${url.protocol}${url.host === '' ? '' : `//${url.host}`} (an app on your device)`;
}
