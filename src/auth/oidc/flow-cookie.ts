import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookiesOf } from '../web-sessions.js';
import type { FlowChecks } from './provider.js';

/** A sign-in started, kept until the provider sends the person back. */
export interface Flow extends FlowChecks {
  /** Where to go once signed in (already checked with safeNext). */
  next: string | null;
}

// Long enough to sign in at the provider (a password, a second factor), short enough that a stale one goes.
const FLOW_MS = 10 * 60_000;

/**
 * A sign-in in flight, kept in the browser that started it: a cookie (HttpOnly, SameSite=Lax so it comes back on
 * the provider's redirect, Secure and `__Host-` behind https) holding the PKCE verifier, `state`, `nonce` and
 * `next`, signed with the service's secret so it cannot be changed, and taken (cleared) when the person comes back,
 * so a callback is answered once per sign-in started. Nothing is stored server-side: any process can finish it.
 */
export function flowCookies(deps: { publicUrl: string; secret: () => Promise<Buffer>; now: () => Date }) {
  const secure = deps.publicUrl.startsWith('https:');
  const name = secure ? '__Host-sl_oidc' : 'sl_oidc';
  const options = { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
  const sign = async (body: string) =>
    createHmac('sha256', await deps.secret()).update('oidc-flow:').update(body).digest('base64url');

  return {
    async set(res: Response, flow: Flow): Promise<void> {
      const body = Buffer.from(JSON.stringify({ ...flow, until: deps.now().getTime() + FLOW_MS })).toString('base64url');
      res.cookie(name, `${body}.${await sign(body)}`, { ...options, maxAge: FLOW_MS });
    },

    /** The flow this browser started, cleared as it is read; null when absent, changed or expired. */
    async take(req: Request, res: Response): Promise<Flow | null> {
      const value = cookiesOf(req)[name];
      if (value === undefined) return null;
      res.clearCookie(name, options);
      const [body = '', mac = ''] = value.split('.');
      const expected = Buffer.from(await sign(body));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const flow = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Flow & { until: number };
      if (flow.until <= deps.now().getTime()) return null;
      return { verifier: flow.verifier, state: flow.state, nonce: flow.nonce, next: flow.next };
    },
  };
}
