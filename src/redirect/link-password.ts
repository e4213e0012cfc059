import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';
import { mediaTypeOf, readText } from '../http/read-body.js';
import type { RateLimiter } from '../support/rate-limiter.js';
import { verifyPassword } from '../support/password.js';
import { cookiesOf } from '../auth/web-sessions.js';

/** How long a visitor who gave a link's password is let through without being asked again. */
export const PERMISSION_MS = 12 * 3_600_000;
/** Password guesses allowed per client address (of any links), and per link (from anyone), in GUESS_WINDOW_MS. */
export const GUESSES_PER_ADDRESS = 10;
export const GUESSES_PER_LINK = 100;
export const GUESS_WINDOW_MS = 15 * 60_000;
/** A form with one password of at most 128 characters, each up to 12 bytes percent-encoded. */
const FORM_BYTES = 4_096;

/** What the redirect needs of a link with a password. */
export interface GuardedLink {
  id: string;
  code: string;
  passwordHash: string;
}

export type Attempt = { outcome: 'right'; cookie: string } | { outcome: 'wrong' } | { outcome: 'limited'; retryAfter: number };

/**
 * A link's password (domain/link-options.ts) at the door: visitors of a link with one get a page asking for it
 * (redirect/pages.ts), post it to the short address itself, and the right one earns a permission: a cookie naming
 * the link, until when, and an HMAC over both and the link's password hash, so it opens that link only, only until
 * it runs out, and only while the password stays the one given (a new password ends every permission). Guesses
 * count per client address and per link, right ones too; the wrong ones are told so.
 *
 * @param secret the service's own secret (the store keeps it): permissions hold across restarts and processes
 */
export function linkPasswords(deps: { secret: Uint8Array; rates: RateLimiter; publicUrl: string }) {
  const secure = deps.publicUrl.startsWith('https:');
  const key = createHmac('sha256', deps.secret).update('link-password-permission').digest();
  const cookieName = (link: GuardedLink) => `slp_${link.code}`;
  const signature = (link: GuardedLink, until: number) =>
    createHmac('sha256', key).update(`${link.id}\n${until}\n${link.passwordHash}`).digest();

  return {
    /** Whether the visit carries a permission for the link that holds now. */
    permitted(req: IncomingMessage, link: GuardedLink, nowMs: number): boolean {
      const value = cookiesOf(req)[cookieName(link)];
      const dot = value?.indexOf('.') ?? -1;
      if (value === undefined || dot < 1) return false;
      const until = Number(value.slice(0, dot));
      if (!Number.isSafeInteger(until) || until <= nowMs) return false;
      const given = Buffer.from(value.slice(dot + 1), 'base64url');
      const expected = signature(link, until);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },

    /** A password posted for the link, counted against the guesses, then checked against its hash. */
    async attempt(req: IncomingMessage, link: GuardedLink, addressKey: string, nowMs: number): Promise<Attempt> {
      const password = await postedPassword(req);
      const answers = await deps.rates.takeAll(
        [
          [`link-password:address:${addressKey}`, GUESSES_PER_ADDRESS],
          [`link-password:link:${link.id}`, GUESSES_PER_LINK],
        ],
        GUESS_WINDOW_MS,
        nowMs,
      );
      const refused = answers.filter((answer) => !answer.allowed);
      if (refused.length > 0) return { outcome: 'limited', retryAfter: Math.max(...refused.map((answer) => answer.resetSeconds)) };
      if (password === null || !(await verifyPassword(password, link.passwordHash))) return { outcome: 'wrong' };
      const until = nowMs + PERMISSION_MS;
      const attributes = `Path=/; Max-Age=${PERMISSION_MS / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
      return { outcome: 'right', cookie: `${cookieName(link)}=${until}.${signature(link, until).toString('base64url')}; ${attributes}` };
    },
  };
}

export type LinkPasswords = ReturnType<typeof linkPasswords>;

/**
 * The form's `password`, or null when the body holds none: another type, too large, not UTF-8 (a wrong guess, as
 * anything else would be). A client that hung up is thrown (ClientGone): nobody is left to answer.
 */
async function postedPassword(req: IncomingMessage): Promise<string | null> {
  if (mediaTypeOf(req.headers['content-type']) !== 'application/x-www-form-urlencoded') return null;
  try {
    return new URLSearchParams(await readText(req, FORM_BYTES)).get('password');
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}
