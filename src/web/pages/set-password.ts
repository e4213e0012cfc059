import type { Express, Request, Response } from 'express';
import { hashPassword } from '../../support/password.js';
import { PASSWORD_LINK_HOURS, passwordLinkHashOrNull, SET_PASSWORD_PATH } from '../../auth/password-link.js';
import { MAX_PASSWORD, MIN_PASSWORD, passwordFits } from '../../domain/account-rules.js';
import type { PasswordLinkState, Person } from '../../store/ports.js';
import { serviceDeviceCookie } from '../device-cookie.js';
import { render, text, type PageDeps } from '../request.js';
import { ssoHref } from './signin-oidc.js';
import { csrfField, textField } from '../../views/forms.js';
import { html } from '../../views/html.js';

const ASK_AGAIN = 'Ask whoever runs this service for a new link.';

/** Why a link does not work, for a person: unknown (or replaced by a newer one) is 404, spent or expired 410. */
const BROKEN = {
  unknown: { status: 404, detail: `This link does not work: it is not one of ours, or a newer link replaced it. ${ASK_AGAIN}` },
  used: { status: 410, detail: `This link was already used: sign in with the password set then, or ${ASK_AGAIN.toLowerCase()}` },
  expired: { status: 410, detail: `This link has expired: links to set a password work for ${PASSWORD_LINK_HOURS} hours. ${ASK_AGAIN}` },
} as const;

/**
 * `PUBLIC_URL/set-password/<token>`: the one-time page, printed by `shortlinks person add` (without a password) and
 * `person reset`, where a person chooses their password. Setting it spends the link and signs them in, except
 * (OIDC_ONLY) someone who is not an operator: the link is the operator's act, so the password is set, but they
 * sign in with single sign-on like everyone but the operators.
 */
export function setPasswordPages(app: Express, deps: PageDeps): void {
  const { ctx, sessions } = deps;
  const devices = serviceDeviceCookie(ctx);

  async function form(req: Request, res: Response, person: Person, status: number, error?: string) {
    const action = `${SET_PASSWORD_PATH}/${req.params.token}`;
    const csrf = await sessions.formToken(req, res);
    render(
      res,
      status,
      'Set your password',
      html`<h1>Set your password</h1>
<p>Choose the password you will sign in with as <strong>${person.email}</strong>. This link works once.</p>
<form method="post" action="${action}" class="card" novalidate>
${csrfField(csrf)}
<input type="hidden" name="username" value="${person.email}" autocomplete="username">
${textField({
  name: 'password',
  label: 'New password',
  type: 'password',
  error,
  required: true,
  autocomplete: 'new-password',
  hint: `At least ${MIN_PASSWORD} characters.`,
})}
<button type="submit">Set password</button>
</form>`,
    );
  }

  function broken(res: Response, state: Exclude<PasswordLinkState, { kind: 'valid' }>) {
    const { status, detail } = BROKEN[state.kind];
    render(res, status, 'Link not valid', html`<h1>This link cannot be used</h1><p>${detail}</p><p><a href="/signin">Sign in</a></p>`);
  }

  // The token is in the path: this page, alone, never sends a Referer, not even to our own pages.
  const noReferrer = (res: Response) => res.set('Referrer-Policy', 'no-referrer');

  app.get(`${SET_PASSWORD_PATH}/:token`, async (req, res) => {
    noReferrer(res);
    const tokenHash = passwordLinkHashOrNull(req.params.token ?? '');
    const state = tokenHash ? await ctx.store.passwordLinks.find(tokenHash, ctx.clock.now()) : ({ kind: 'unknown' } as const);
    if (state.kind !== 'valid') return broken(res, state);
    return form(req, res, state.person, 200);
  });

  app.post(`${SET_PASSWORD_PATH}/:token`, async (req, res) => {
    noReferrer(res);
    await sessions.checkForm(req, res);
    const tokenHash = passwordLinkHashOrNull(req.params.token ?? '');
    if (!tokenHash) return broken(res, { kind: 'unknown' });
    // Looked at first, so a dead link costs no scrypt; `use` checks again as it spends the link.
    const found = await ctx.store.passwordLinks.find(tokenHash, ctx.clock.now());
    if (found.kind !== 'valid') return broken(res, found);
    const password = text(req, 'password');
    if (!passwordFits(password)) {
      return form(req, res, found.person, 400, `Choose a password of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`);
    }
    const state = await ctx.store.passwordLinks.use(tokenHash, await hashPassword(password), ctx.clock.now());
    if (state.kind !== 'valid') return broken(res, state);
    const { oidc } = ctx.config;
    if (oidc?.only && !state.person.operator) {
      return render(
        res,
        200,
        'Password set',
        html`<h1>Password set</h1><p role="status">Your password is set, but here only operators sign in with a password: sign in with ${oidc.name}.</p><p><a class="button" href="${ssoHref(null)}">Sign in with ${oidc.name}</a></p>`,
      );
    }
    // This browser now knows the password: the sign-in slowdown counts it apart from strangers (device-cookie.ts).
    await devices.issue(res, state.person.email);
    await sessions.signIn(res, state.person.id);
    res.redirect(303, state.person.agreedTermsAt === null ? '/welcome' : '/app');
  });
}
