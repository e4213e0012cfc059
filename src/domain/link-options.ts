import { apiError } from '../errors.js';
import { hasHiddenCharacters } from './hidden-characters.js';
import { MAX_CLICKS_CAP, MAX_EXPIRY_YEARS, PASSWORD_MAX, PASSWORD_MIN, TAG_MAX_LENGTH, TAGS_MAX } from '../shared/field-lengths.js';

/**
 * A link's options, the service's additions to v1 (docs/behaviour.md, "Link options"): when it ends, after how
 * many clicks, behind which password, its tags, and whether a visitor's query string goes on to the destination.
 * Each rule throws its own 400 code, naming the param at `field`.
 */
export { MAX_CLICKS_CAP, MAX_EXPIRY_YEARS, PASSWORD_MAX, PASSWORD_MIN, TAG_MAX_LENGTH, TAGS_MAX };

/** An RFC 3339 date-time with its offset: `2027-01-31T18:00:00Z`, `2027-01-31T19:00:00.5+01:00`. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * The instant a date-time names, or NaN when it is none: RFC 3339's shape, and a day its month has, hours to 23,
 * minutes and seconds to 59, an offset within a day (Date.parse would roll `02-30` over into March, and 24:00 into
 * the next day, storing a moment nobody wrote).
 */
function instantOf(text: string): number {
  const parts = DATE_TIME.exec(text);
  if (!parts) return Number.NaN;
  const [year, month, day, hour, minute, second, offsetHours = 0, offsetMinutes = 0] = parts.slice(1).map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  const valid =
    month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth && hour! <= 23 && minute! <= 59 && second! <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
  return valid ? Date.parse(text) : Number.NaN;
}
const TAG = new RegExp(`^[a-z0-9_-]{1,${TAG_MAX_LENGTH}}$`);

/**
 * When the link ends: null for never; else a date-time with its offset, after `now` and at most MAX_EXPIRY_YEARS
 * ahead, answered as UTC with milliseconds (as createdAt is), so it compares and sorts as text. 400 `invalid_expiry`.
 */
export function checkExpiresAt(expiresAt: string | null, now: Date, field = 'expiresAt'): string | null {
  if (expiresAt === null) return null;
  const at = instantOf(expiresAt);
  if (Number.isNaN(at)) throw apiError.invalidExpiry('expiresAt must be a date-time with its offset, such as 2027-01-31T18:00:00Z.', field);
  if (at <= now.getTime()) throw apiError.invalidExpiry('expiresAt must be in the future.', field);
  const latest = new Date(now);
  latest.setUTCFullYear(latest.getUTCFullYear() + MAX_EXPIRY_YEARS);
  if (at > latest.getTime()) throw apiError.invalidExpiry(`expiresAt may be at most ${MAX_EXPIRY_YEARS} years ahead.`, field);
  return new Date(at).toISOString();
}

/** The most counted clicks the link answers: null for no cap; else 1 to MAX_CLICKS_CAP. 400 `invalid_max_clicks`. */
export function checkMaxClicks(maxClicks: number | null, field = 'maxClicks'): number | null {
  if (maxClicks === null) return null;
  if (!Number.isInteger(maxClicks) || maxClicks < 1 || maxClicks > MAX_CLICKS_CAP) throw apiError.invalidMaxClicks(undefined, field);
  return maxClicks;
}

/**
 * A password visitors must give: null for none; else PASSWORD_MIN to PASSWORD_MAX characters as people count them
 * (code points), any characters but control and text-direction ones (hidden-characters.ts). 400
 * `invalid_password`. Only its hash is ever stored.
 */
export function checkPassword(password: string | null, field = 'password'): string | null {
  if (password === null) return null;
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) throw apiError.invalidPassword(undefined, field);
  if (hasHiddenCharacters(password)) {
    throw apiError.invalidPassword("A link's password holds no control or text-direction characters.", field);
  }
  return password;
}

/**
 * The link's tags, as a set: sorted, each once (a tag sent twice is the same tag), at most TAGS_MAX of 1 to
 * TAG_MAX_LENGTH lowercase letters, digits, `-` and `_`. 400 `invalid_tag`, naming the first tag at fault
 * (`tags[2]`).
 */
export function checkTags(tags: readonly string[], field = 'tags'): string[] {
  tags.forEach((tag, i) => {
    if (!TAG.test(tag)) throw apiError.invalidTag(undefined, `${field}[${i}]`);
  });
  const set = tagSet(tags);
  if (set.length > TAGS_MAX) throw apiError.invalidTag(`A link has at most ${TAGS_MAX} tags.`, field);
  return set;
}

/** Tags as a link keeps them: each once, sorted (checkTags, and a form telling whether they changed). */
export function tagSet(tags: readonly string[]): string[] {
  return [...new Set(tags)].sort();
}
