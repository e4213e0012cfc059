import { randomString, type Random } from './random.js';

export const CODE_LENGTH = 7;

/**
 * A new link code: 7 random characters of A-Z a-z 0-9 holding at least one uppercase letter, so that a code can
 * never equal a short link name (names are lowercase) and `PUBLIC_URL/<x>` is never ambiguous.
 */
export function generateCode(random: Random): string {
  for (;;) {
    const code = randomString(random, CODE_LENGTH);
    if (/[A-Z]/.test(code)) return code;
  }
}

/** Could this string be a code? Used by the redirect to skip a lookup that cannot match. */
export function looksLikeCode(value: string): boolean {
  return value.length === CODE_LENGTH && /^[A-Za-z0-9]+$/.test(value) && /[A-Z]/.test(value);
}
