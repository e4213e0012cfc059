import type { Express, Request, Response } from 'express';
import { hashPassword } from '../../support/password.js';
import type { SignedIn } from '../../auth/web-sessions.js';
import { MAX_PASSWORD, MIN_PASSWORD, passwordFits } from '../../domain/account-rules.js';
import { count, timeToWait } from '../../shared/words.js';
import type { AccountRemoval, PersonSession } from '../../store/ports.js';
import { alertBox, buttonForm, csrfField, noticeBox, textField, type FieldErrors } from '../../views/forms.js';
import { html, when, type Html } from '../../views/html.js';
import { currentPassword } from '../current-password.js';
import { notFound, queryText, render, signedInOnly, text, type PageDeps } from '../request.js';

const WRONG_PASSWORD = 'The current password is wrong.';
const NEW_PASSWORD_RULE = `Choose a password of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`;

/** What the page says after a change, by its `done`. */
const NOTICES: Partial<Record<string, string>> = {
  password: 'Password changed. Every other browser signed in as you was signed out.',
  session: 'That browser was signed out.',
  sessions: 'Every other browser was signed out.',
};

/** What the password form is drawn with after a refused attempt. */
interface PasswordFix {
  errors?: FieldErrors;
  alert?: string;
}

/** A session as a form names it: its id hash in base64url (the hash of a secret, not the secret). */
const handleOf = (session: PersonSession) => Buffer.from(session.idHash).toString('base64url');

/**
 * `/account`: the signed-in person's own account. Their email (changed at /account/email), their password (the
 * current one required; every other web session ends), their web sessions (each other one can be ended), a link to
 * their connected assistants, and deleting the account, which asks first on /account/delete. The current password is
 * checked as current-password.ts says. Open before the first step too: deleting an account needs no agreement to the terms.
 */
export function accountSettingsPages(app: Express, deps: PageDeps): void {
  const { ctx, sessions } = deps;
  const { store } = ctx;
  const { hashOf: passwordHashOf, check: checkPassword } = currentPassword(deps);
  // Every page here is for signed-in people, before the first step too.
  const route = (method: 'get' | 'post', path: string, handler: Parameters<typeof signedInOnly>[1]) =>
    app[method](path, signedInOnly(deps, handler, { firstStep: true }));

  const tooMany = (wait: number) => `Too many wrong passwords. Wait ${timeToWait(wait)}, then try again.`;

  async function show(req: Request, res: Response, me: SignedIn, status = 200, fix: PasswordFix = {}) {
    const hasPassword = (await passwordHashOf(me)) !== null;
    const list = await store.webSessions.ofPerson(me.person.id, ctx.clock.now());
    const rows = list.map((session) => sessionRow(session, me));
    render(
      res,
      status,
      'Your account',
      html`<h1>Your account</h1>${noticeBox(NOTICES[queryText(req, 'done')])}
<h2>Email</h2>
<p>You sign in as <strong>${me.person.email}</strong>. <a href="/account/email">Change email</a></p>
<h2>Password</h2>
${hasPassword ? passwordForm(me, fix) : html`<p>You sign in without a password. To set one, use a set-password link: ask whoever runs this service for one.</p>`}
<h2>Where you are signed in</h2>
<table class="stack"><thead><tr><th scope="col">Signed in</th><th scope="col">Until</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table>
${list.length > 1 ? buttonForm({ action: '/account/sessions/end-others', csrf: me.csrf, label: 'Sign out every other browser', className: 'quiet' }) : html``}
<h2>Connected assistants</h2>
<p>See the assistants you connected to your account, and disconnect them, on <a href="/assistants">Assistants</a>.</p>
<h2>Delete your account</h2>
<p>Deletes your account, your tokens and your connections. You are asked to confirm first.</p>
<p><a href="/account/delete">Delete your account…</a></p>`,
      'account',
    );
  }

  function passwordForm(me: SignedIn, fix: PasswordFix): Html {
    return html`<form method="post" action="/account/password" class="card" novalidate>${csrfField(me.csrf)}${alertBox(fix.alert)}
<input type="hidden" name="username" value="${me.person.email}" autocomplete="username">
${textField({ name: 'current', label: 'Current password', type: 'password', error: fix.errors?.current, required: true, autocomplete: 'current-password' })}
${textField({ name: 'password', label: 'New password', type: 'password', error: fix.errors?.password, required: true, autocomplete: 'new-password', hint: `At least ${MIN_PASSWORD} characters.` })}
<button type="submit">Change password</button>
</form>`;
  }

  function sessionRow(session: PersonSession, me: SignedIn): Html {
    const current = Buffer.from(session.idHash).equals(me.idHash);
    const action = current
      ? html`This browser`
      : buttonForm({ action: '/account/sessions/end', csrf: me.csrf, label: 'Sign out', className: 'quiet', hidden: { session: handleOf(session) }, ariaLabel: `Sign out the browser signed in ${session.createdAt.slice(0, 16).replace('T', ' ')} UTC` });
    return html`<tr><td data-label="Signed in">${when(session.createdAt)}</td><td data-label="Until">${when(session.expiresAt)}</td><td>${action}</td></tr>`;
  }

  route('get', '/account', async (req, res, me) => show(req, res, me));

  route('post', '/account/password', async (req, res, me) => {
    const hash = await passwordHashOf(me);
    if (hash === null) return show(req, res, me, 409);
    const password = text(req, 'password');
    // Told before the current password is checked, so a mistyped new one costs no attempt.
    if (!passwordFits(password)) return show(req, res, me, 400, { errors: { password: NEW_PASSWORD_RULE } });
    const checked = await checkPassword(res, me, hash, text(req, 'current'));
    if (typeof checked === 'number') return show(req, res, me, 429, { alert: tooMany(checked) });
    if (checked === 'wrong') return show(req, res, me, 400, { errors: { current: WRONG_PASSWORD } });
    await store.accounts.changePassword(me.person.id, await hashPassword(password), me.idHash);
    res.redirect(303, '/account?done=password');
  });

  route('post', '/account/sessions/end', async (req, res, me) => {
    const idHash = Buffer.from(text(req, 'session'), 'base64url');
    // This browser signs out with the header's button; a session that is not theirs (or gone) is not found.
    const ended = idHash.length === 32 && !idHash.equals(me.idHash) && (await store.webSessions.removeOfPerson(me.person.id, idHash));
    if (!ended) return notFound(res);
    res.redirect(303, '/account?done=session');
  });

  route('post', '/account/sessions/end-others', async (_req, res, me) => {
    await store.webSessions.removeOthers(me.person.id, me.idHash);
    res.redirect(303, '/account?done=sessions');
  });

  async function confirmDelete(res: Response, me: SignedIn, status = 200, fix: { error?: string; alert?: Html } = {}) {
    const hasPassword = (await passwordHashOf(me)) !== null;
    render(
      res,
      status,
      'Delete your account?',
      html`<h1>Delete your account?</h1>
<div class="card">${fix.alert ?? html``}
<p>Your account <strong>${me.person.email}</strong> goes, with your tokens (scripts using them get 401), your
connected assistants and every browser signed in as you. You leave your teams; a team where you are the only
member and that holds no links goes too.</p>
<p>You cannot delete it while you are the only owner of a team that has other members or links: make another member
an owner, or delete the team, first.</p>
<p>This cannot be undone. The email can make a new account later.</p>
<form method="post" action="/account/delete" novalidate>${csrfField(me.csrf)}
${hasPassword
  ? html`<input type="hidden" name="username" value="${me.person.email}" autocomplete="username">
${textField({ name: 'password', label: 'Your password', type: 'password', error: fix.error, required: true, autocomplete: 'current-password' })}`
  : html``}
<button type="submit" class="danger">Delete my account</button>
<a href="/account" style="margin-left:1rem">Keep my account</a>
</form>
</div>`,
      'account',
    );
  }

  route('get', '/account/delete', async (_req, res, me) => confirmDelete(res, me));

  route('post', '/account/delete', async (req, res, me) => {
    const hash = await passwordHashOf(me);
    if (hash !== null) {
      const checked = await checkPassword(res, me, hash, text(req, 'password'));
      if (typeof checked === 'number') return confirmDelete(res, me, 429, { alert: alertBox(tooMany(checked)) });
      if (checked === 'wrong') return confirmDelete(res, me, 400, { error: 'The password is wrong.' });
    }
    const removal = await store.accounts.remove(me.person.id);
    if (removal.kind === 'last_owner') return confirmDelete(res, me, 409, { alert: lastOwner(removal) });
    // Their sessions went with them; this browser's cookie goes too.
    await sessions.signOut(req, res);
    render(
      res,
      200,
      'Account deleted',
      html`<h1>Your account is deleted</h1>
<p>Your tokens, connected assistants and sessions have ended. Goodbye, and thank you for using this service.</p>
<p><a href="/">Home</a></p>`,
    );
  });
}

/** Why the account stays: which team would be left without an owner, and what to do about it. */
function lastOwner(removal: Extract<AccountRemoval, { kind: 'last_owner' }>): Html {
  const { team, otherMembers, links } = removal;
  const holds = [otherMembers > 0 ? count(otherMembers, 'other member') : '', links > 0 ? count(links, 'short link') : ''].filter(Boolean).join(' and ');
  const todo = otherMembers > 0 ? 'Make another member an owner of it, or delete the team' : 'Delete the team';
  return html`<p class="alert" role="alert">Your account was not deleted: you are the only owner of the team <a href="/teams/${team.id}">${team.name}</a>, which has ${holds}. ${todo}, then delete your account.</p>`;
}
