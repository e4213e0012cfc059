import type { Express, Request, Response } from 'express';
import { emailOrNull } from '../../domain/account-rules.js';
import { HOUR_MS } from '../../domain/limits.js';
import { setRetryAfter } from '../../http/retry-after.js';
import { mailPasswordLink } from '../../operator/people.js';
import { timeToWait } from '../../shared/words.js';
import { alertBox, csrfField, textField } from '../../views/forms.js';
import { html } from '../../views/html.js';
import { notFound, render, text, type PageDeps } from '../request.js';

/** Reset mails one address may be sent in an hour: enough for a lost message, too few to flood an inbox. */
const RESETS_PER_EMAIL_HOUR = 3;
/** Requests one network may make in an hour, whatever the emails: asking for many emails is refused. */
const RESETS_PER_ADDRESS_HOUR = 20;

const SENT =
  'If an account has this email, a link to choose a new password is on its way to it. It works once, within 24 hours; ' +
  'your password stays as it is until you use it.';

/**
 * "Forgot your password?" (issue 22), only while mail is on (SMTP_URL): mails a one-time set-password link, the same
 * link `shortlinks person reset` makes but without ending the password or sessions (a stranger may ask for anyone's).
 * The answer reads the same whether or not the email has an account, whether or not its hourly allowance was
 * spent, and (OIDC_ONLY) whether or not it is an operator's; only a network asking too often is told so.
 */
export function forgotPages(app: Express, deps: PageDeps): void {
  const { ctx, sessions, gate } = deps;

  async function form(req: Request, res: Response, status: number, values: { email?: string; error?: string; alert?: string }) {
    const csrf = await sessions.formToken(req, res);
    const body = html`<h1>Forgot your password?</h1>${alertBox(values.alert)}
<p>Enter your account's email: we mail you a link to choose a new password.</p>
<form method="post" action="/forgot" class="card" novalidate>
${csrfField(csrf)}
${textField({ name: 'email', label: 'Email', type: 'email', value: values.email ?? '', error: values.error, required: true, autocomplete: 'email', maxlength: 254 })}
<button type="submit">Mail me a link</button>
</form>
<p><a href="/signin">Back to sign in</a></p>`;
    render(res, status, 'Forgot your password?', body, 'account');
  }

  /** The one answer to a well-formed request: nothing in it depends on the email. */
  function sent(res: Response) {
    render(res, 200, 'Check your email', html`<h1>Check your email</h1><p role="status">${SENT}</p><p><a href="/signin">Back to sign in</a></p>`, 'account');
  }

  app.get('/forgot', async (req, res) => {
    if (!ctx.config.mail) return notFound(res);
    return form(req, res, 200, {});
  });

  app.post('/forgot', async (req, res) => {
    if (!ctx.config.mail) return notFound(res);
    await sessions.checkForm(req, res);
    const raw = text(req, 'email');
    const email = emailOrNull(raw);
    if (email === null) return form(req, res, 400, { email: raw, error: 'Enter an email address, like name@example.com.' });
    const now = ctx.clock.now();
    const byAddress = await gate.rates.take(`resets:address:${gate.addressKey(req)}`, RESETS_PER_ADDRESS_HOUR, HOUR_MS, now.getTime());
    if (!byAddress.allowed) {
      setRetryAfter(res, byAddress.resetSeconds);
      return form(req, res, 429, { email: raw, alert: `Too many links were asked for from your network in the last hour. Try again in ${timeToWait(byAddress.resetSeconds)}.` });
    }
    // Counted for every email, with or without an account, so the count says nothing either.
    const byEmail = await gate.rates.take(`resets:email:${email}`, RESETS_PER_EMAIL_HOUR, HOUR_MS, now.getTime());
    const person = byEmail.allowed ? await ctx.store.people.findByEmail(email) : null;
    // OIDC_ONLY: a set-password link signs its holder in, so only an operator (who alone signs in with a password)
    // is mailed one; anyone else would get around single sign-on. The answer stays the same, naming no operator.
    if (person && (!ctx.config.oidc?.only || person.operator)) {
      await mailPasswordLink(ctx.store, person, ctx.config.publicUrl, now, false);
    }
    sent(res);
  });
}
