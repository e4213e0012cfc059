import type { Express, Request, Response } from 'express';
import { oneTimeToken, PASSWORD_LINK_HOURS, passwordLinkHashOrNull } from '../../auth/password-link.js';
import { emailOrNull } from '../../domain/account-rules.js';
import { HOUR_MS } from '../../domain/limits.js';
import { setRetryAfter } from '../../http/retry-after.js';
import { emailChangeMessage } from '../../mail/messages/email-change.js';
import type { SignedIn } from '../../auth/web-sessions.js';
import { timeToWait } from '../../shared/words.js';
import { alertBox, csrfField, textField, type FieldErrors } from '../../views/forms.js';
import { html } from '../../views/html.js';
import { currentPassword } from '../current-password.js';
import { render, signedInOnly, text, type PageDeps } from '../request.js';

/** Where the confirmation link points: `PUBLIC_URL/account/email/confirm/<token>`. */
const CONFIRM_PATH = '/account/email/confirm';
/** Confirmation mails a person may ask for in an hour. */
const EMAIL_CHANGES_PER_HOUR = 3;

/** Why a confirmation link does not work: unknown (or replaced by a newer one) is 404, spent or expired 410. */
const BROKEN = {
  unknown: { status: 404, detail: 'This link does not work: it is not one of ours, or a newer change replaced it.' },
  used: { status: 410, detail: 'This link was already used: the email was changed then.' },
  expired: { status: 410, detail: `This link has expired: it worked for ${PASSWORD_LINK_HOURS} hours. Ask for a new one on your Account page.` },
} as const;

/**
 * `/account/email` (issue 22): a signed-in person changes their email, their password first, and the new address
 * confirms it by a one-time link mailed to it; only then does the account take it. Without mail (SMTP_URL unset) the
 * page says the operator changes emails: an address no one confirmed would let its taker be matched to the account
 * by a later single sign-on.
 */
export function accountEmailPages(app: Express, deps: PageDeps): void {
  const { ctx, sessions, gate } = deps;
  const now = () => ctx.clock.now();
  const current = currentPassword(deps);

  async function form(req: Request, res: Response, me: SignedIn, status: number, values: { email?: string; errors?: FieldErrors; alert?: string }) {
    if (!ctx.config.mail) {
      return render(
        res,
        200,
        'Change email',
        html`<h1>Change email</h1><p>You sign in as <strong>${me.person.email}</strong>. Here the operator of this service changes emails: ask them.</p><p><a href="/account">Back to your account</a></p>`,
        'account',
      );
    }
    const csrf = await sessions.formToken(req, res);
    const errors = values.errors ?? {};
    const hasPassword = (await current.hashOf(me)) !== null;
    render(
      res,
      status,
      'Change email',
      html`<h1>Change email</h1>${alertBox(values.alert)}
<p>You sign in as <strong>${me.person.email}</strong>. We mail a link to the new address; your email changes when you follow it.</p>
<form method="post" action="/account/email" class="card" novalidate>
${csrfField(csrf)}
${textField({ name: 'email', label: 'New email', type: 'email', value: values.email ?? '', error: errors.email, required: true, autocomplete: 'email', maxlength: 254 })}
${hasPassword ? textField({ name: 'password', label: 'Current password', type: 'password', error: errors.password, required: true, autocomplete: 'current-password' }) : html``}
<button type="submit">Mail me a link</button>
</form>
<p><a href="/account">Back to your account</a></p>`,
      'account',
    );
  }

  function page(res: Response, status: number, title: string, body: string) {
    render(res, status, title, html`<h1>${title}</h1><p>${body}</p><p><a href="/account">Your account</a></p>`, 'account');
  }

  app.get('/account/email', signedInOnly(deps, (req, res, me) => form(req, res, me, 200, {})));

  app.post(
    '/account/email',
    signedInOnly(deps, async (req, res, me) => {
      if (!ctx.config.mail) return form(req, res, me, 200, {});
      const raw = text(req, 'email');
      const password = text(req, 'password');
      const email = emailOrNull(raw);
      if (email === null) return form(req, res, me, 400, { email: raw, errors: { email: 'Enter an email address, like name@example.com.' } });
      // Someone who signs in without a password (single sign-on) has only their session to show, as for deletion.
      const hash = await current.hashOf(me);
      const checked = hash === null ? 'ok' : await current.check(res, me, hash, password);
      if (typeof checked === 'number') {
        return form(req, res, me, 429, { email: raw, alert: `Too many wrong passwords. Wait ${timeToWait(checked)}, then try again.` });
      }
      if (checked === 'wrong') return form(req, res, me, 400, { email: raw, errors: { password: 'This is not your current password.' } });
      if (email === me.person.email) return form(req, res, me, 400, { email: raw, errors: { email: 'This already is your email.' } });
      // Sign-up says as much: an address with an account is no secret from someone who can make one.
      if (await ctx.store.people.findByEmail(email)) return form(req, res, me, 409, { email: raw, errors: { email: 'An account with this email already exists.' } });
      const allowance = await gate.rates.take(`email-changes:person:${me.person.id}`, EMAIL_CHANGES_PER_HOUR, HOUR_MS, now().getTime());
      if (!allowance.allowed) {
        setRetryAfter(res, allowance.resetSeconds);
        return form(req, res, me, 429, { email: raw, alert: `You asked for ${EMAIL_CHANGES_PER_HOUR} links in the last hour. Try again in ${timeToWait(allowance.resetSeconds)}.` });
      }
      const { token, tokenHash } = oneTimeToken();
      const expiresAt = new Date(now().getTime() + PASSWORD_LINK_HOURS * HOUR_MS);
      await ctx.store.emailChanges.issue({ personId: me.person.id, email, tokenHash, expiresAt }, now());
      const url = `${ctx.config.publicUrl}${CONFIRM_PATH}/${token}`;
      await ctx.store.mailOutbox.enqueue(emailChangeMessage(email, url, PASSWORD_LINK_HOURS, ctx.config.publicUrl), now());
      page(res, 200, 'Check your email', `We mailed a link to ${email}. Your email stays ${me.person.email} until you follow it, within ${PASSWORD_LINK_HOURS} hours.`);
    }),
  );

  // Following the link shows a button; only its POST changes the email, so a mail scanner that opens links changes nothing.
  app.get(`${CONFIRM_PATH}/:token`, async (req, res) => {
    res.set('Referrer-Policy', 'no-referrer');
    const csrf = await sessions.formToken(req, res);
    render(
      res,
      200,
      'Confirm your new email',
      html`<h1>Confirm your new email</h1><form method="post" action="${CONFIRM_PATH}/${req.params.token ?? ''}" class="card">${csrfField(csrf)}<button type="submit">Confirm</button></form>`,
      'account',
    );
  });

  app.post(`${CONFIRM_PATH}/:token`, async (req, res) => {
    res.set('Referrer-Policy', 'no-referrer');
    await sessions.checkForm(req, res);
    const tokenHash = passwordLinkHashOrNull(req.params.token ?? '');
    const result = tokenHash ? await ctx.store.emailChanges.confirm(tokenHash, now()) : ({ kind: 'unknown' } as const);
    if (result.kind === 'changed') return page(res, 200, 'Email changed', `You sign in as ${result.person.email} from now on.`);
    if (result.kind === 'taken') return page(res, 409, 'Email not changed', `Someone made an account with ${result.email} meanwhile, so your email stays as it was.`);
    const { status, detail } = BROKEN[result.kind];
    page(res, status, 'This link cannot be used', detail);
  });
}
