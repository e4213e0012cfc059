import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookiesOf } from '../auth/web-sessions.js';
import type { ToolContext } from '../tools/define-tool.js';

const LIFETIME_MS = 365 * 24 * 60 * 60_000;

/**
 * Device cookies (OWASP's answer to lock-outs by strangers): a browser where a person signed in keeps a cookie that
 * proves it, for their email only. Without it, anyone who knows an email could fail on purpose against it and keep
 * its owner waiting up to 15 minutes at every try. A sign-in from a browser with the cookie is slowed by that
 * browser's own failures instead of the email's, so only strangers' browsers wait.
 *
 * The value is a random id and an HMAC of the id and the email, under a key derived from the service's secret (the
 * one that signs cursors, which every process opens): it names no one, and holds for no other email.
 */
export function deviceCookie(deps: { publicUrl: string; secret: () => Promise<Buffer> }) {
  const secure = deps.publicUrl.startsWith('https:');
  const name = secure ? '__Host-sl_device' : 'sl_device';
  const options = { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
  const keyOf = async () => createHmac('sha256', await deps.secret()).update('device-cookie').digest();
  const proof = async (id: string, email: string) => createHmac('sha256', await keyOf()).update(`${id}\n${email}`).digest();

  return {
    /** The person with `email` signed in here: a new id for this browser, proved for their email. */
    async issue(res: Response, email: string): Promise<void> {
      const id = randomBytes(16).toString('base64url');
      res.cookie(name, `${id}.${(await proof(id, email)).toString('base64url')}`, { ...options, maxAge: LIFETIME_MS });
    },

    /** This browser's id when its cookie proves a past sign-in of `email`; null otherwise (none, another's, altered). */
    async idFor(req: Request, email: string): Promise<string | null> {
      const [id, mac, extra] = (cookiesOf(req)[name] ?? '').split('.');
      if (!id || !mac || extra !== undefined) return null;
      const given = Buffer.from(mac, 'base64url');
      const expected = await proof(id, email);
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
    },
  };
}

/** The service's device cookies: every page that signs someone in gives one (sign-in, sign-up, a set-password link). */
export function serviceDeviceCookie(ctx: ToolContext) {
  return deviceCookie({ publicUrl: ctx.config.publicUrl, secret: () => ctx.store.settings.cursorSecret() });
}
