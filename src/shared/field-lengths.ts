/**
 * The lengths of a link's fields (spec section 8, "Limits"). The domain's rules check them and re-export them; they
 * live here, at the bottom of the layers, because the error table (src/errors.ts), which the domain itself imports,
 * writes them in its default sentences too, and a number written twice drifts.
 */

/** The longest destination accepted, in UTF-16 code units, both as sent and as stored. */
export const MAX_DESTINATION_LENGTH = 2048;
/** MAX_DESTINATION_LENGTH as the sentences write it: "2,048". */
export const MAX_DESTINATION_LENGTH_TEXT = MAX_DESTINATION_LENGTH.toLocaleString('en-US');

/** The shortest and longest short link name. */
export const MIN_NAME_LENGTH = 3;
export const MAX_NAME_LENGTH = 50;

/** The longest note, in characters as people count them (code points). */
export const NOTE_MAX = 100;

/** A link's options (the service's additions to v1): how far ahead it may end, its click cap, password and tags. */
export const MAX_EXPIRY_YEARS = 10;
export const MAX_CLICKS_CAP = 10_000_000;
export const MAX_CLICKS_CAP_TEXT = MAX_CLICKS_CAP.toLocaleString('en-US');
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const TAGS_MAX = 10;
export const TAG_MAX_LENGTH = 30;
