import type { Express, Request, Response } from 'express';
import { hashPassword, verifyPassword } from '../../support/password.js';
import { emailOrNull, MAX_PASSWORD, MIN_PASSWORD, passwordFits } from '../../domain/account-rules.js';
import { HOUR_MS } from '../../domain/limits.js';
import { EmailTaken } from '../../store/ports.js';
import { serviceDeviceCookie } from '../device-cookie.js';
import { SignInThrottle } from '../sign-in-throttle.js';
import { nextField, queryText, render, safeNext, text, type PageDeps } from '../request.js';
import { alertBox, csrfField, noticeBox, textField, type FieldErrors } from '../../views/forms.js';
import { CLOSED_WORDS, INVITE_WORDS, signupVerdict, standingSignupLink } from '../../auth/signup-rule.js';
import { INVITATION_FIELD } from '../../auth/signup-link.js';
import { html } from '../../views/html.js';
import { timeToWait } from '../../shared/words.js';
import { setRetryAfter } from '../../http/retry-after.js';
import { assistantOf } from '../assistant-of.js';
import { ssoHref } from './signin-oidc.js';

const WRONG = 'The email or the password is wrong.';

/** What the sign-in and sign-up forms are drawn with. */
interface FormValues {
  email?: string;
  next?: string | null;
  errors?: FieldErrors;
  alert?: string;
  notice?: string;
  /** The token of the sign-up link the person came with, carried by the form. */
  invitation?: string;
  /** Under OIDC_ONLY, the password form an operator asked for (`/signin?password=1`). */
  password?: boolean;
}

/** Sign up (as the operator's sign-up mode allows), sign in and sign out. */
export function accountPages(app: Express, deps: PageDeps): void {
  const { ctx, sessions, gate } = deps;
  const { oidc } = ctx.config;
  const throttle = new SignInThrottle(gate.rates);
  const devices = serviceDeviceCookie(ctx);
  // Unknown emails are checked against this, so a wrong email takes as long as a wrong password.
  let decoy: Promise<string> | undefined;
  const decoyHash = () => (decoy ??= hashPassword('not anyone’s password'));

  async function form(req: Request, res: Response, kind: 'signin' | 'signup', status: number, values: FormValues) {
    const { signup: mode } = await ctx.store.settings.serviceSettings();
    const signUp = kind === 'signup';
    const again = values.next ? `?next=${encodeURIComponent(values.next)}` : '';
    if (signUp && oidc?.only) return ssoOnlyPage(res, status, values.next ?? null, values.alert);
    if (signUp && mode === 'closed') return closedPage(res, status, again, values.alert);
    const csrf = await sessions.formToken(req, res);
    const errors = values.errors ?? {};
    const next = nextField(values.next ?? null);
    const invitation = values.invitation ? html`<input type="hidden" name="${INVITATION_FIELD}" value="${values.invitation}">` : html``;
    const assistant = await assistantOf(ctx.store.oauth, values.next);
    const connecting = assistant === null ? html`` : html`<p>To connect the assistant <strong>${assistant}</strong> to your account.</p>`;
    const sso = oidc && !signUp ? html`<p><a class="button" href="${ssoHref(values.next ?? null)}">Sign in with ${oidc.name}</a></p>` : html``;
    // OIDC_ONLY: single sign-on is the way in; the password form is there only for an operator who asks for it.
    const passwordForm = !oidc?.only || signUp || values.password === true;
    const other = signUp
      ? html`<p>Have an account? <a href="/signin${again}">Sign in</a>.</p>`
      : oidc?.only
        ? html``
        : mode === 'closed'
          ? html`<p>New here? ${CLOSED_WORDS}</p>`
          : html`<p>New here? ${mode === 'invite' ? html`Accounts here are by invitation. ` : html``}<a href="/signup${again}">Make an account</a>.</p>`;
    render(
      res,
      status,
      signUp ? 'Sign up' : 'Sign in',
      html`<h1>${signUp ? 'Make an account' : 'Sign in'}</h1>${connecting}
${alertBox(values.alert)}${signUp ? noticeBox(values.notice ?? (mode === 'invite' ? INVITE_WORDS : undefined)) : html``}${sso}
${passwordForm ? html`<form method="post" action="/${kind}" class="card" novalidate>
${csrfField(csrf)}${next}${invitation}
${textField({ name: 'email', label: 'Email', type: 'email', value: values.email ?? '', error: errors.email, required: true, autocomplete: 'email', maxlength: 254 })}
${textField({
  name: 'password',
  label: 'Password',
  type: 'password',
  error: errors.password,
  required: true,
  autocomplete: signUp ? 'new-password' : 'current-password',
  ...(signUp ? { hint: `At least ${MIN_PASSWORD} characters.` } : {}),
})}
<button type="submit">${signUp ? 'Sign up' : 'Sign in'}</button>
</form>${ctx.config.mail && !signUp ? html`<p><a href="/forgot">Forgot your password?</a></p>` : html``}` : html``}
${other}`,
      signUp ? 'signup' : 'account',
    );
  }

  /** Sign-up while it is closed: said plainly, with no form to fill in for nothing. */
  function closedPage(res: Response, status: number, again: string, alert: string | undefined) {
    render(
      res,
      status,
      'Sign up',
      html`<h1>Sign-up is closed</h1>${alertBox(alert)}<p>${CLOSED_WORDS}</p><p>Have an account? <a href="/signin${again}">Sign in</a>.</p>`,
      'signup',
    );
  }

  /** Sign-up under OIDC_ONLY: accounts are made by signing in with the provider. */
  function ssoOnlyPage(res: Response, status: number, next: string | null, alert: string | undefined) {
    render(
      res,
      status,
      'Sign up',
      html`<h1>Make an account</h1>${alertBox(alert)}<p>Accounts here are made by signing in with ${oidc!.name}.</p><p><a class="button" href="${ssoHref(next)}">Sign in with ${oidc!.name}</a></p>`,
      'signup',
    );
  }

  app.get('/signup', async (req, res) => {
    const next = safeNext(queryText(req, 'next'));
    const token = queryText(req, INVITATION_FIELD);
    // A sign-up link fills in its email; one that no longer works is said to, and the form is still shown (a team
    // invitation may let them in).
    const link = token === '' ? null : await standingSignupLink(ctx.store, token, ctx.clock.now());
    if (link === null) {
      return form(req, res, 'signup', 200, { next, notice: token === '' ? undefined : 'This sign-up link was used, has expired or is not one of ours.' });
    }
    return form(req, res, 'signup', 200, { next, email: link.email, invitation: token, notice: `You were invited as ${link.email}: choose a password.` });
  });

  app.post('/signup', async (req, res) => {
    await sessions.checkForm(req, res);
    const rawEmail = text(req, 'email');
    const password = text(req, 'password');
    const next = safeNext(text(req, 'next'));
    const token = text(req, INVITATION_FIELD);
    const { signup: mode } = await ctx.store.settings.serviceSettings();
    // Refused before anything is read or counted: a closed service writes nothing for a sign-up.
    if (mode === 'closed' || oidc?.only) return form(req, res, 'signup', 403, { next, alert: 'No account was made.' });
    const email = emailOrNull(rawEmail);
    const errors: FieldErrors = {};
    if (email === null) errors.email = 'Enter an email address, like name@example.com.';
    if (!passwordFits(password)) errors.password = `Choose a password of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`;
    if (email === null || errors.password) return form(req, res, 'signup', 400, { email: rawEmail, next, errors, invitation: token });

    // Counted before the email is looked up, so that sign-up cannot test emails for accounts faster than it makes them.
    const { signupsPerHour } = await ctx.store.settings.limits();
    const allowance = await gate.rates.take(`signups:${gate.addressKey(req)}`, signupsPerHour, HOUR_MS, ctx.clock.now().getTime());
    if (!allowance.allowed) {
      setRetryAfter(res, allowance.resetSeconds);
      const alert = `Too many accounts were made from your network in the last hour. Try again in ${timeToWait(allowance.resetSeconds)}, or ask the operator of this service to add you.`;
      return form(req, res, 'signup', 429, { email, next, alert, invitation: token });
    }
    // After the count, so that asking which emails a team invited is as slow as making accounts.
    const verdict = await signupVerdict(ctx.store, mode, email, token, ctx.clock.now());
    if (!verdict.allowed) return form(req, res, 'signup', 403, { email, next, alert: `${verdict.reason} No account was made.`, invitation: token });
    const taken = { email: 'An account with this email already exists: sign in instead.' };
    if (await ctx.store.people.findByEmail(email)) return form(req, res, 'signup', 409, { email, next, errors: taken });
    let personId: string;
    try {
      const passwordHash = await hashPassword(password);
      personId = (await ctx.store.people.add({ email, passwordHash, agreedTerms: false }, ctx.clock.now())).id;
    } catch (error) {
      // Someone took the email between the check and the insert.
      if (!(error instanceof EmailTaken)) throw error;
      return form(req, res, 'signup', 409, { email, next, errors: taken });
    }
    // The email is unique, so the link could make only this one account anyway; spent, it makes none after it.
    if (verdict.spends !== null) await ctx.store.signupInvitations.spend(verdict.spends, ctx.clock.now());
    await devices.issue(res, email);
    await sessions.signIn(res, personId);
    res.redirect(303, next ? `/welcome?next=${encodeURIComponent(next)}` : '/welcome');
  });

  app.get('/signin', async (req, res) => {
    const next = safeNext(queryText(req, 'next'));
    if (await sessions.signedIn(req, res)) return res.redirect(303, next ?? '/app');
    return form(req, res, 'signin', 200, { next, password: queryText(req, 'password') === '1' });
  });

  app.post('/signin', async (req, res) => {
    await sessions.checkForm(req, res);
    const rawEmail = text(req, 'email');
    const password = text(req, 'password');
    const next = safeNext(text(req, 'next'));
    // What is not an email has no account: it is looked up nowhere and slows down only its address. A browser where
    // this email signed in before is slowed by its own failures, not the email's, which strangers can run up.
    const email = emailOrNull(rawEmail);
    const device = email === null ? null : await devices.idFor(req, email);
    const own = email === null ? [] : [device === null ? `email:${email}` : `device:${device}`];
    const keys = [...own, `address:${gate.addressKey(req)}`];
    const nowMs = () => ctx.clock.now().getTime();

    const wait = await throttle.begin(keys, nowMs());
    if (wait > 0) {
      setRetryAfter(res, wait);
      const alert = `Too many failed attempts. Wait ${timeToWait(wait)}, then try again.`;
      return form(req, res, 'signin', 429, { email: rawEmail, next, alert, password: true });
    }
    const found = email !== null && password.length <= MAX_PASSWORD ? await ctx.store.people.withPasswordHash(email) : null;
    const ok = await verifyPassword(password.slice(0, MAX_PASSWORD), found?.passwordHash ?? (await decoyHash()));
    if (!found || found.passwordHash === null || !ok) {
      return form(req, res, 'signin', 400, { email: rawEmail, next, alert: WRONG, password: true });
    }
    if (oidc?.only && !found.person.operator) {
      return form(req, res, 'signin', 403, { next, alert: `Here only operators sign in with a password: sign in with ${oidc.name}.` });
    }
    await throttle.succeeded(keys[0]!, keys.slice(1));
    await devices.issue(res, email!);
    await sessions.signIn(res, found.person.id);
    res.redirect(303, next ?? (found.person.agreedTermsAt === null ? '/welcome' : '/app'));
  });

  app.post('/signout', async (req, res) => {
    await sessions.checkForm(req, res);
    await sessions.signOut(req, res);
    res.redirect(303, '/');
  });
}
