import { apiError } from '../errors.js';
import { MAX_NAME_LENGTH, MIN_NAME_LENGTH } from '../shared/field-lengths.js';
import { isVersionSegment, SERVICE_SEGMENTS } from './service-paths.js';

/**
 * Words a short link name may never be besides the paths the service answers (service-paths.ts, reserved below):
 * words people would take for the service's own, or that it may answer one day.
 */
const RESERVED_WORDS = new Set([
  'api', 'oauth', 'login', 'sign-in', 'sign-up', 'logout', 'sign-out', 'dashboard', 'static', 'assets',
  'well-known', '_well-known', 'admin', 'operator', 'team', 'links', 'link', 'tokens', 'settings', 'account',
  'consent', 'callback', 'openapi', 'openapi-json', 'favicon', 'favicon-ico', 'robots', 'robots-txt', 'sitemap',
  'terms', 'privacy', 'about', 'help', 'support', 'status', 'qr', 'www', 'connected', 'public', 'shortlinks',
  'null', 'undefined',
]);

/** Kept in shared/ (the error table's sentences write them too), exported with the rule that checks them. */
export { MAX_NAME_LENGTH, MIN_NAME_LENGTH };
const NAME_PATTERN = new RegExp(`^[a-z0-9_-]{${MIN_NAME_LENGTH},${MAX_NAME_LENGTH}}$`);

/** True when `name` has the spec's shape (3 to 50 of a-z 0-9 - _), whether or not it is reserved. */
export function isWellFormedName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

// Without the u flag, i folds ASCII letters only: no other letter (the Kelvin sign, say) lowercases into a name.
const NAME_PATTERN_ANY_CASE = new RegExp(NAME_PATTERN.source, 'i');

/**
 * The name an address means by `key`, where names match in any case (`/Launch` is `launch`; names are stored
 * lowercase): `key` lowercased, or null when no name has its shape.
 */
export function nameInAddress(key: string): string | null {
  return NAME_PATTERN_ANY_CASE.test(key) ? key.toLowerCase() : null;
}

/** The rule of the spec, for schema documentation: 3 to 50 of a-z 0-9 - _. */
export const NAME_PATTERN_SOURCE = NAME_PATTERN.source;

/** True for words the service keeps for itself (not for names of deleted links: the store knows those). */
export function isReservedWord(name: string): boolean {
  return RESERVED_WORDS.has(name) || SERVICE_SEGMENTS.has(name) || isVersionSegment(name);
}

/**
 * Checks a short link name: null stays null; otherwise 400 `invalid_name` or `reserved_name`.
 * @param field the param at fault, like `name` or `links[3].name`
 */
export function checkName(name: string | null, field = 'name'): string | null {
  if (name === null) return null;
  if (!isWellFormedName(name)) throw apiError.invalidName(undefined, field);
  if (isReservedWord(name)) throw apiError.reservedName(`"${name}" is reserved by the service.`, field);
  return name;
}
