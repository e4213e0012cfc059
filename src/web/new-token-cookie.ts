import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookiesOf, type SignedIn } from '../auth/web-sessions.js';

/** Long enough to follow one redirect on a slow line; a token not seen by then stays unseen (it is listed, and may be revoked). */
const LIFETIME_MS = 5 * 60_000;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A new token is shown once, on the page its form redirects to (post/redirect/get, so that reloading shows no form
 * answer and makes no second token). Between the two requests it rides in a cookie of its own, sealed with
 * AES-256-GCM under a key derived from the service's own secret (the one that signs cursors, kept in the
 * database, so every process opens it) and bound to the session: the browser holds only what it cannot open, and
 * no database or log ever holds the token. The page that shows it clears the cookie first, so a reload shows
 * nothing; a cookie of another session, tampered with or expired, shows nothing either.
 */
export function newTokenCookie(deps: { publicUrl: string; secret: () => Promise<Buffer> }) {
  const secure = deps.publicUrl.startsWith('https:');
  const name = secure ? '__Host-sl_new_token' : 'sl_new_token';
  const options = { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
  const keyOf = async () => createHmac('sha256', await deps.secret()).update('new-token-cookie').digest();

  return {
    /** Seals `token` for the next page this session opens. */
    async keep(res: Response, me: SignedIn, token: string): Promise<void> {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await keyOf(), iv).setAAD(me.idHash);
      const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
      const value = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
      res.cookie(name, value, { ...options, maxAge: LIFETIME_MS });
    },

    /** The token kept for this session, once: the cookie is cleared whatever it held. */
    async take(req: Request, res: Response, me: SignedIn): Promise<string | null> {
      const value = cookiesOf(req)[name];
      if (value === undefined) return null;
      res.clearCookie(name, options);
      const bytes = Buffer.from(value, 'base64url');
      if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', await keyOf(), bytes.subarray(0, IV_BYTES)).setAAD(me.idHash);
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        // Not sealed for this session (another one's, or altered): nothing to show.
        return null;
      }
    },
  };
}
