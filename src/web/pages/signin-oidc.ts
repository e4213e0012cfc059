import type { Express, NextFunction, Request, Response } from 'express';
import { ssoAccount } from '../../auth/oidc/accounts.js';
import { flowCookies } from '../../auth/oidc/flow-cookie.js';
import { CALLBACK_PATH, oidcProvider, ProviderUnavailable, ProviderUnsupported, SignInRefused } from '../../auth/oidc/provider.js';
import type { OidcConfig } from '../../config.js';
import { setRetryAfter } from '../../http/retry-after.js';
import type { Logger } from '../../observability/logger.js';
import { timeToWait } from '../../shared/words.js';
import { html } from '../../views/html.js';
import { queryText, render, safeNext, type PageDeps } from '../request.js';

// How long a person is asked to wait when the provider is out of reach; the next try discovers it again.
const RETRY_SECONDS = 30;

/**
 * Requests one network may send to each of /signin/oidc and its callback in a minute: 30 sign-ins, far more than
 * a person needs, too few to make the service a flood of discoveries and token requests against the provider.
 */
const SSO_REQUESTS_PER_ADDRESS_MINUTE = 30;
const MINUTE_MS = 60_000;

/** Where the sign-in page's single sign-on button leads, carrying `next`. */
export function ssoHref(next: string | null): string {
  return next ? `/signin/oidc?next=${encodeURIComponent(next)}` : '/signin/oidc';
}

/**
 * Single sign-on with the OpenID provider of OIDC_ISSUER (absent: these routes are not there). /signin/oidc sends
 * the person to the provider; the provider sends them back to /signin/oidc/callback, which signs them in with the
 * same web session a password makes, to the account ssoAccount finds or makes, and goes on to `next`. What fails
 * on the provider's side is told to `log`, the service's log (failure-log.ts).
 */
export function singleSignOnPages(app: Express, deps: PageDeps, oidc: OidcConfig, log: () => Logger): void {
  const { ctx, sessions, gate } = deps;
  const provider = oidcProvider(oidc, ctx.config.publicUrl, { log, now: () => ctx.clock.now().getTime() });
  const flows = flowCookies({
    publicUrl: ctx.config.publicUrl,
    // The store keeps the secret in memory (and reads it again after a failed read), as for the device cookie.
    secret: () => ctx.store.settings.cursorSecret(),
    now: () => ctx.clock.now(),
  });

  /** A sign-in that did not happen, said plainly, with the way back. */
  function failed(res: Response, status: number, reason: string, next: string | null) {
    const again = next ? `?next=${encodeURIComponent(next)}` : '';
    render(
      res,
      status,
      'Sign-in failed',
      html`<h1>Sign-in with ${oidc.name} failed</h1><p class="alert" role="alert">${reason}</p><p><a href="/signin${again}">Back to sign-in</a></p>`,
      'account',
    );
  }

  function unavailable(res: Response, next: string | null) {
    setRetryAfter(res, RETRY_SECONDS);
    failed(res, 503, `${oidc.name} cannot be reached right now. Try again in a minute.`, next);
  }

  /** What a provider this service cannot use (ProviderUnsupported) answers: nothing to wait for, the log says why. */
  function unsupported(res: Response, next: string | null) {
    failed(res, 503, `Sign-in with ${oidc.name} is not set up correctly here, so it cannot be used. The operator of this service can see why in its log.`, next);
  }

  /** Counts the request against its network's allowance for `route`; past it, a 429 page instead. */
  function limited(route: 'start' | 'callback') {
    return async (req: Request, res: Response, next: NextFunction) => {
      const answer = await gate.rates.take(`sso-${route}:${gate.addressKey(req)}`, SSO_REQUESTS_PER_ADDRESS_MINUTE, MINUTE_MS, ctx.clock.now().getTime());
      if (answer.allowed) return next();
      setRetryAfter(res, answer.resetSeconds);
      failed(res, 429, `Too many sign-ins with ${oidc.name} came from your network in the last minute. Try again in ${timeToWait(answer.resetSeconds)}.`, null);
    };
  }

  app.get('/signin/oidc', limited('start'), async (req, res) => {
    const next = safeNext(queryText(req, 'next'));
    if (await sessions.signedIn(req, res)) return res.redirect(303, next ?? '/app');
    let started: Awaited<ReturnType<typeof provider.start>>;
    try {
      started = await provider.start();
    } catch (error) {
      if (error instanceof ProviderUnavailable) return unavailable(res, next);
      if (error instanceof ProviderUnsupported) return unsupported(res, next);
      throw error;
    }
    await flows.set(res, { ...started.checks, next });
    res.redirect(303, started.url);
  });

  app.get(CALLBACK_PATH, limited('callback'), async (req, res) => {
    const flow = await flows.take(req, res);
    if (flow === null) return failed(res, 400, 'This sign-in expired or was already used. Start again.', null);
    let identity: Awaited<ReturnType<typeof provider.finish>>;
    try {
      identity = await provider.finish(new URL(req.originalUrl, ctx.config.publicUrl), flow);
    } catch (error) {
      if (error instanceof ProviderUnavailable) return unavailable(res, flow.next);
      if (error instanceof ProviderUnsupported) return unsupported(res, flow.next);
      if (error instanceof SignInRefused) return failed(res, 400, `${oidc.name} did not sign you in, or its answer did not check out. No account was changed.`, flow.next);
      throw error;
    }
    const outcome = await ssoAccount(ctx.store, identity, { providerName: oidc.name, allowedDomains: oidc.allowedDomains, now: ctx.clock.now() });
    if (outcome.kind === 'refused') return failed(res, 403, outcome.reason, flow.next);
    await sessions.signIn(res, outcome.person.id);
    const { next } = flow;
    // As after a password: a new account takes the first step as one made at /signup does, then goes on to `next`.
    if (outcome.made) return res.redirect(303, next ? `/welcome?next=${encodeURIComponent(next)}` : '/welcome');
    res.redirect(303, next ?? (outcome.person.agreedTermsAt === null ? '/welcome' : '/app'));
  });
}
