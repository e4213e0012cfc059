/**
 * The synchronous destination rules (spec, "Destination rules" 1 to 5). Rule 6, the third-party unsafe-site lists,
 * and the DNS look-up that catches names resolving to private addresses, need the network and live elsewhere.
 * The operator's `private` destinations mode lifts rule 3 and lets rule 1 take `http:` too (the go-link use).
 */
import { domainToASCII } from 'node:url';
import { apiError } from '../errors.js';
import type { DestinationMode } from './service-settings.js';
import { MAX_DESTINATION_LENGTH, MAX_DESTINATION_LENGTH_TEXT } from '../shared/field-lengths.js';

/** Kept in shared/ (the error table's sentences write it too), exported with the rule that checks it. */
export { MAX_DESTINATION_LENGTH, MAX_DESTINATION_LENGTH_TEXT };

// Characters that make domainToASCII parse its input as a URL host: it silently cuts "a.b/c" to "a.b" and
// percent-decodes "a%2eb" to "a.b", so an operator's typo would become some other domain. Reject them up front.
const NOT_IN_A_DOMAIN = /[\s/\\?#@:%[\]\u0000-\u001f\u007f]/;
// Letters, digits, "-" and "_" (underscores appear in real host names); 1 to 63 characters per DNS.
const LABEL = /^[a-z0-9_-]{1,63}$/;
const ALL_DIGITS = /^[0-9]+$/;
// The WHATWG parser serializes every IPv4 spelling (decimal, octal, hex, short) to this and brackets every IPv6.
const DOTTED_QUAD = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Special-use and private-network names (RFC 6761, RFC 6762, RFC 8375, ICANN's .internal, and suffixes commonly
 * used on company and home networks). A destination there can only reach a private network or nothing at all.
 * ".onion" is left out on purpose: it names public services, only reachable through Tor.
 */
const PRIVATE_SUFFIXES: ReadonlySet<string> = new Set(['localhost', 'local', 'internal', 'intranet', 'lan', 'home',
  'corp', 'private', 'localdomain', 'arpa' /* home.arpa, reverse zones */, 'test', 'invalid', 'example']);

/** The sentences shown to a person; each names the rule, never echoes the input. */
const DETAIL = {
  tooLong: `The destination is longer than ${MAX_DESTINATION_LENGTH_TEXT} characters.`,
  tooLongWritten: `The destination is longer than ${MAX_DESTINATION_LENGTH_TEXT} characters once written as a web address (characters ` +
    'outside ASCII count in their percent-encoded form).',
  spaces: 'The destination must not start or end with spaces.',
  notUrl: 'The destination is not a valid web address.',
  notHttps: 'The destination must be an https address.',
  notWeb: 'The destination must be an http or https address.',
  noHost: 'The destination has no host name.',
  badHost: 'The host of the destination is not a valid domain name.',
  ipAddress: 'The destination must use a domain name, not an IP address.',
  control: 'The destination must not contain control characters such as tabs or line breaks.',
  userinfo: 'The destination must not contain a user name or password: credentials are not allowed.',
  privateName: 'The destination is a local or private-network name, which is not reachable from the internet.',
  ownHost: 'The destination is already a link of this service; use the address it leads to instead.',
  shortener: 'The destination is a link of another link shortener; use the address it leads to instead.',
  blocked: 'The service does not allow links to that site.',
} as const;

/**
 * What checkDestination needs to know, all domains normalized: the service's own hosts (from PUBLIC_URL; a link
 * to the service is a short link too), other shorteners (loadShortenerList()) and the operator's blocked domains.
 */
export interface DestinationPolicy {
  ownHosts: ReadonlySet<string>;
  shorteners: ReadonlySet<string>;
  blocked: ReadonlySet<string>;
}

/**
 * A destination that passed: the address as the WHATWG parser serialized it, and its normalized host name.
 * `url.href` is what is stored, listed, shown and redirected to, so what a person reads is where the link goes
 * (`https://evil.example\@bank.example/` is `https://evil.example/@bank.example/`).
 */
export interface CheckedDestination {
  url: URL;
  host: string;
}

/**
 * A domain in the one form every comparison uses: lowercase, punycode (IDN), without its one trailing dot.
 * Null when the input is not a valid host name, including IP addresses, empty labels and URL syntax.
 * Callers trim user input first: surrounding spaces make it invalid here.
 * `normalizeDomain('Example.COM.')` is `'example.com'`; `normalizeDomain('bücher.de')` is `'xn--bcher-kva.de'`.
 */
export function normalizeDomain(input: string): string | null {
  if (input === '' || NOT_IN_A_DOMAIN.test(input)) return null;
  // domainToASCII applies the UTS #46 mapping: case, full-width letters and dots, IDN to punycode. "" when invalid.
  const ascii = domainToASCII(input).toLowerCase();
  const host = ascii.endsWith('.') ? ascii.slice(0, -1) : ascii;
  return isValidHostName(host) ? host : null;
}

/** DNS shape: at most 253 characters, no empty label, and a last label that is not a number (that is an IPv4). */
function isValidHostName(host: string): boolean {
  if (host === '' || host.length > 253) return false;
  const labels = host.split('.');
  return labels.every((label) => LABEL.test(label)) && !ALL_DIGITS.test(labels[labels.length - 1] ?? '');
}

/**
 * True when `host` is one of `domains` or a subdomain of one. Walks up whole labels, so "www.bit.ly" matches
 * "bit.ly" and "notbit.ly" does not. Both sides must already be normalized.
 */
export function matchesDomain(host: string, domains: ReadonlySet<string>): boolean {
  for (let rest = host; ; ) {
    if (domains.has(rest)) return true;
    const dot = rest.indexOf('.');
    if (dot < 0) return false;
    rest = rest.slice(dot + 1);
  }
}

/**
 * True for names that can only be on a private network: single-label names ("intranet", which a resolver completes
 * with the local search domain) and special-use names (localhost, *.local, *.internal, *.test, *.arpa, ...).
 * "example.com" is public; only the ".example" top-level domain is reserved. `host` must be normalized.
 */
export function isPrivateHostName(host: string): boolean {
  return !host.includes('.') || matchesDomain(host, PRIVATE_SUFFIXES);
}

/**
 * Applies destination rules 1 to 5 in the spec's order and returns the parsed address; throws an ApiError at
 * `field` (`links[3].destination` in createLinks) naming the first rule that fails:
 * invalid_destination, private_destination, shortener_destination, blocked_destination.
 */
export function checkDestination(raw: string, policy: DestinationPolicy, field = 'destination', mode: DestinationMode = 'public'): CheckedDestination {
  const checked = checkAddress(raw, field, mode);
  checkHostPolicy(checked, policy, field);
  return checked;
}

/**
 * What a destination may be, as a form's hint says it: the spec's https addresses, or in `private` mode the
 * intranet's addresses too, so a person on a private instance is not told that `http://wiki/` would be refused.
 */
export function destinationWords(mode: DestinationMode): string {
  return mode === 'private' ? 'An https or http address, intranet names such as http://wiki/ included' : 'An https address';
}

/**
 * Rules 1, 2 and the literal part of 3: a well-formed https address whose host is a public name. In `private`
 * mode, a well-formed http or https address whose host is any valid name or IP address.
 */
export function checkAddress(raw: string, field = 'destination', mode: DestinationMode = 'public'): CheckedDestination {
  const url = parseWebAddress(raw, field, mode === 'private' ? PRIVATE_SCHEMES : PUBLIC_SCHEMES);
  return { url, host: mode === 'private' ? anyHostOf(url, field) : publicHostOf(url, field) };
}

/**
 * The host of an address as every comparison takes it: an IP address as the WHATWG parser serialized it
 * ("10.0.0.1", "[::1]"), a name normalized; null when the host is neither.
 */
export function hostKeyOf(url: URL): string | null {
  return isIpLiteral(url.hostname) ? url.hostname : normalizeDomain(url.hostname);
}

/** Rules 4 and 5: not this service or another shortener, not blocked by the operator. */
export function checkHostPolicy({ host }: CheckedDestination, policy: DestinationPolicy, field = 'destination'): void {
  if (matchesDomain(host, policy.ownHosts)) throw apiError.shortenerDestination(DETAIL.ownHost, field);
  if (matchesDomain(host, policy.shorteners)) throw apiError.shortenerDestination(DETAIL.shortener, field);
  if (matchesDomain(host, policy.blocked)) throw apiError.blockedDestination(DETAIL.blocked, field);
}

/** The schemes rule 1 takes, and the sentence that refuses any other. */
interface Schemes {
  allowed: ReadonlySet<string>;
  refusal: string;
}
const PUBLIC_SCHEMES: Schemes = { allowed: new Set(['https:']), refusal: DETAIL.notHttps };
const PRIVATE_SCHEMES: Schemes = { allowed: new Set(['https:', 'http:']), refusal: DETAIL.notWeb };

/** Rules 1 and 2 (invalid_destination): a well-formed address of at most 2,048 characters, no credentials. */
function parseWebAddress(raw: string, field: string, schemes: Schemes): URL {
  const invalid = (detail: string) => apiError.invalidDestination(detail, field);
  // Length first, so a huge string is never handed to the parser.
  if (raw.length > MAX_DESTINATION_LENGTH) throw invalid(DETAIL.tooLong);
  // The WHATWG parser silently drops tabs and line breaks and trims spaces, so "https://bi\tt.ly" would become
  // bit.ly; refuse such input rather than link somewhere other than what the caller sent.
  if (raw.trim() !== raw) throw invalid(DETAIL.spaces);
  if (CONTROL.test(raw)) throw invalid(DETAIL.control);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(DETAIL.notUrl);
  }
  if (!schemes.allowed.has(url.protocol)) throw invalid(schemes.refusal);
  // "https://google.com@evil.example" goes to evil.example: a phishing trick, never needed for a public page.
  if (hasUserinfo(url, raw)) throw invalid(DETAIL.userinfo);
  if (url.hostname.replace(/\.$/, '') === '') throw invalid(DETAIL.noHost);
  // The serialization is what is stored (IDN as punycode, other characters percent-encoded): it too must fit.
  if (url.href.length > MAX_DESTINATION_LENGTH) throw invalid(DETAIL.tooLongWritten);
  return url;
}

/**
 * True when the address carries userinfo, even an empty one ("https://@x.com", "https://:@x.com"), which the
 * parser drops from `username`/`password` without a trace. The raw string has no whitespace or control characters
 * here, and its scheme is http or https, so its authority runs from after the ":" and any slashes to the first
 * / \ ? #.
 */
function hasUserinfo(url: URL, raw: string): boolean {
  if (url.username !== '' || url.password !== '') return true;
  const afterScheme = raw.slice(raw.indexOf(':') + 1).replace(/^[/\\]+/, '');
  return (afterScheme.split(/[/\\?#]/, 1)[0] ?? '').includes('@');
}

/** Rule 3 (private_destination), plus host-name validity: the normalized host of a public domain name. */
function publicHostOf(url: URL, field: string): string {
  // Every IP literal is refused, public ones too (spec: "not an IP address"). Checked before the host-name shape:
  // the two sets do not overlap, so the order between them changes no answer, only which check is reached first.
  if (isIpLiteral(url.hostname)) {
    throw apiError.privateDestination(DETAIL.ipAddress, field);
  }
  const host = normalizeDomain(url.hostname);
  if (host === null) throw apiError.invalidDestination(DETAIL.badHost, field);
  if (isPrivateHostName(host)) throw apiError.privateDestination(DETAIL.privateName, field);
  return host;
}

/** The private mode's rule 3: none. The host must still be a valid name (any, single labels too) or an IP address. */
function anyHostOf(url: URL, field: string): string {
  const host = hostKeyOf(url);
  if (host === null) throw apiError.invalidDestination(DETAIL.badHost, field);
  return host;
}

function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || DOTTED_QUAD.test(hostname);
}
