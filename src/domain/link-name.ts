import { apiError } from '../errors.js';

/**
 * Words a short link name may never be, because the service answers at `PUBLIC_URL/<word>` itself or may one day.
 * Version-like words (`v1`, `v20`) are reserved by pattern below.
 */
const RESERVED_WORDS = new Set([
  'api', 'v1', 'mcp', 'oauth', 'login', 'signin', 'sign-in', 'signup', 'sign-up', 'logout', 'signout', 'sign-out',
  'app', 'dashboard', 'developers', 'docs', 'static', 'assets', 'health', 'healthz', 'well-known', '_well-known',
  'admin', 'operator', 'welcome', 'teams', 'team', 'links', 'link', 'tokens', 'token', 'settings', 'account',
  'authorize', 'register', 'revoke', 'consent', 'callback', 'openapi', 'openapi-json', 'favicon', 'favicon-ico',
  'robots', 'robots-txt', 'sitemap', 'terms', 'privacy', 'about', 'help', 'support', 'status', 'qr', 'www',
  'assistants', 'connected', 'public', 'shortlinks', 'null', 'undefined', 'set-password',
]);

const NAME_PATTERN = /^[a-z0-9_-]{3,50}$/;

/** The rule of the spec, for schema documentation: 3 to 50 of a-z 0-9 - _. */
export const NAME_PATTERN_SOURCE = NAME_PATTERN.source;

/** True for words the service keeps for itself (not for names of deleted links: the store knows those). */
export function isReservedWord(name: string): boolean {
  return RESERVED_WORDS.has(name) || /^v\d+$/.test(name);
}

/**
 * Checks a short link name: null stays null; otherwise 400 `invalid_name` or `reserved_name`.
 * @param field the param at fault, like `name` or `links[3].name`
 */
export function checkName(name: string | null, field = 'name'): string | null {
  if (name === null) return null;
  if (!NAME_PATTERN.test(name)) throw apiError.invalidName(undefined, field);
  if (isReservedWord(name)) throw apiError.reservedName(`"${name}" is reserved by the service.`, field);
  return name;
}
