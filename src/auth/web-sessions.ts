import type { IncomingMessage } from 'node:http';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { apiError } from '../errors.js';
import type { Person, Store } from '../store/ports.js';
import type { Clock } from '../shared/clock.js';
import { noteCaller } from '../observability/request-facts.js';

const SESSION_DAYS = 30;

/** Who is signed in on this request, found once and kept on `res.locals`. */
export interface SignedIn {
  person: Person;
  /** The value forms carry in their hidden `_csrf` field. */
  csrf: string;
  idHash: Buffer;
}

/**
 * Browser sessions: a random 256-bit cookie (HttpOnly, SameSite=Lax, Secure and `__Host-` behind https) whose
 * SHA-256 alone is stored. Forms are CSRF-safe twice over: SameSite=Lax keeps the cookie off cross-site POSTs,
 * and every POST must carry a token derived from the session's own secret (or, before sign-in, a double-submit
 * cookie) and, when the browser sends an Origin, come from our own origin.
 */
export function webSessions(deps: { store: Store; clock: Clock; publicUrl: string }) {
  const { store, clock, publicUrl } = deps;
  const secure = publicUrl.startsWith('https:');
  const sessionCookie = secure ? '__Host-sl_session' : 'sl_session';
  const formCookie = secure ? '__Host-sl_form' : 'sl_form';
  const origin = new URL(publicUrl).origin;
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };

  const hash = (value: string) => createHash('sha256').update(value).digest();
  const csrfOf = (secret: string) => createHmac('sha256', secret).update('csrf').digest('base64url');

  async function signedIn(req: Request, res: Response): Promise<SignedIn | null> {
    if (res.locals.signedIn !== undefined) return res.locals.signedIn as SignedIn | null;
    let found: SignedIn | null = null;
    const value = cookiesOf(req)[sessionCookie];
    if (value) {
      const idHash = hash(value);
      const session = await store.webSessions.find(idHash, clock.now());
      const person = session && (await store.people.get(session.personId));
      if (session && person) found = { person, csrf: csrfOf(session.csrfSecret), idHash };
    }
    res.locals.signedIn = found;
    return found;
  }

  return {
    signedIn,

    /**
     * Starts a session for the person (a fresh id: never one a visitor brought along). A session the browser
     * already held (found on this request) ends, so signing in as someone else leaves nothing behind.
     */
    async signIn(res: Response, personId: string): Promise<void> {
      noteCaller(res, personId);
      const previous = res.locals.signedIn as SignedIn | null | undefined;
      if (previous) await store.webSessions.remove(previous.idHash);
      res.locals.signedIn = undefined;
      const value = randomBytes(32).toString('base64url');
      const expiresAt = new Date(clock.now().getTime() + SESSION_DAYS * 86_400_000);
      const session = { personId, csrfSecret: randomBytes(32).toString('base64url'), expiresAt: expiresAt.toISOString() };
      await store.webSessions.add(hash(value), session, clock.now());
      res.cookie(sessionCookie, value, { ...cookieOptions, expires: expiresAt });
    },

    async signOut(req: Request, res: Response): Promise<void> {
      const current = await signedIn(req, res);
      if (current) await store.webSessions.remove(current.idHash);
      res.locals.signedIn = null;
      res.clearCookie(sessionCookie, cookieOptions);
    },

    /** The hidden field's value for a form on this page: the session's token, or a double-submit one. */
    async formToken(req: Request, res: Response): Promise<string> {
      const current = await signedIn(req, res);
      if (current) return current.csrf;
      let token = cookiesOf(req)[formCookie];
      if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
        token = randomBytes(32).toString('base64url');
        res.cookie(formCookie, token, cookieOptions);
      }
      return token;
    },

    /** Throws 403 `forbidden` unless this POST comes from one of our own forms. */
    async checkForm(req: Request, res: Response): Promise<void> {
      const sentOrigin = req.headers.origin;
      if (sentOrigin !== undefined && sentOrigin !== origin) throw apiError.forbidden('This form was sent from another site.');
      const current = await signedIn(req, res);
      const expected = current ? current.csrf : cookiesOf(req)[formCookie];
      const given = typeof req.body?._csrf === 'string' ? req.body._csrf : '';
      if (!expected || !sameText(expected, given)) {
        throw apiError.forbidden('The form expired or came from elsewhere; reload the page and try again.');
      }
    },
  };
}

export type WebSessions = ReturnType<typeof webSessions>;

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The request's cookies (only the first of a repeated name counts). */
export function cookiesOf(req: Pick<Request, 'headers'> | Pick<IncomingMessage, 'headers'>): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const name = part.slice(0, at).trim();
    if (!(name in cookies)) {
      try {
        cookies[name] = decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        // A malformed cookie of someone else's is not ours to judge.
      }
    }
  }
  return cookies;
}
