import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SERVICE_SETTINGS } from '../../src/domain/service-settings.js';
import { SETTING_FLAGS } from '../../src/operator/setting-flags.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { authorizeUrl, pkce, register } from '../helpers/oauth.js';
import type { TestServer } from '../helpers/server.js';
import { startWebServer, WEB_PASSWORD, WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * Who may sign up (`shortlinks settings set --signup open|invite|closed`), over real HTTP: the web sign-up, the
 * sign-up an assistant's OAuth sign-in leads to, and `person invite`'s sign-up links. The CLI runs as a process of
 * its own, so every mode it sets is seen by the server on its very next request.
 */
let server: TestServer;
let count = 0;

beforeAll(async () => {
  server = await startWebServer();
});
afterAll(() => server.stop());
afterEach(() => server.app.ctx.store.settings.setServiceSettings({ signup: 'open' }));

const CLOSED = 'This service does not take sign-ups: its operator makes the accounts. Ask them for one.';
const INVITE =
  'Accounts here are by invitation: sign up with the email a team invited, or follow the sign-up link the operator gave you.';

const nextEmail = () => `signup-mode${++count}@example.com`;
const setMode = async (mode: string) => expect(await cliJson(server.dbPath, 'settings', 'set', '--signup', mode)).toMatchObject({ signup: mode });
const alertOf = (page: WebPage) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(page.body)?.[1];
const noticeOf = (page: WebPage) => /<p class="notice" role="status">([^<]*)<\/p>/.exec(page.body)?.[1];
const hasSignupForm = (page: WebPage) => page.body.includes('<form method="post" action="/signup"');
const personOf = (email: string) => server.app.ctx.store.people.findByEmail(email);

/** A sign-up POST, with the CSRF field of the sign-in page (a closed sign-up page has no form to take it from). */
const postSignup = (visitor: WebVisitor, fields: Record<string, string>) => visitor.submit('/signin', '/signup', { password: WEB_PASSWORD, ...fields });

/** Refused: the status, the alert, no session cookie and no account. */
async function expectRefused(page: WebPage, status: number, alert: string, email: string) {
  expect(page.status).toBe(status);
  expect(alertOf(page)).toBe(alert);
  expect(page.headers.getSetCookie().join()).not.toContain('sl_session=');
  expect(await personOf(email)).toBeNull();
}

/** Someone a team (of a person made in the store) invited. */
async function invitedByATeam(email: string) {
  const owner = await server.person();
  expect(await server.app.ctx.store.invitations.invite(owner.teamId, email, owner.personId, server.clock.now())).toBe('invited');
  return owner.teamId;
}

describe('settings show and set', () => {
  it('is open by default; set changes it, show prints it; a bad value is refused with exit 2 and changes nothing', async () => {
    expect(await cliJson(server.dbPath, 'settings', 'show')).toEqual(DEFAULT_SERVICE_SETTINGS);
    const text = await runCli(server.dbPath, 'settings', 'set', '--signup', 'invite');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('signup: invite\n');
    expect((await runCli(server.dbPath, 'settings', 'show')).stdout).toContain('signup: invite\n');
    const bad = await runCli(server.dbPath, 'settings', 'set', '--signup', 'sometimes');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('shortlinks: --signup must be one of open, invite, closed: "sometimes"\n');
    const none = await runCli(server.dbPath, 'settings', 'set');
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`shortlinks: settings set needs at least one of ${Object.keys(SETTING_FLAGS).map((flag) => `--${flag}`).join(', ')}\n`);
    expect(await cliJson(server.dbPath, 'settings', 'show')).toEqual({ ...DEFAULT_SERVICE_SETTINGS, signup: 'invite' });
  });
});

describe('open (the default)', () => {
  it('makes an account for anyone, as before', async () => {
    const email = nextEmail();
    const page = await new WebVisitor(server.url).request('GET', '/signup');
    expect(hasSignupForm(page)).toBe(true);
    expect(noticeOf(page)).toBeUndefined();
    expect((await new WebVisitor(server.url).signUp(email)).status).toBe(303);
    expect(await personOf(email)).not.toBeNull();
  });

  it('person invite still makes a link, and says that anyone may sign up without one', async () => {
    const run = await runCli(server.dbPath, 'person', 'invite', '--email', nextEmail());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\/signup\?invitation=[A-Za-z0-9_-]{43}\nsign-up is open: anyone may make an account without a link \(settings set --signup invite\)\n$/);
  });
});

describe('closed', () => {
  it('says so on the sign-up and sign-in pages, and a sign-up sent anyway is refused with 403, making nothing', async () => {
    await setMode('closed');
    const visitor = new WebVisitor(server.url);
    const page = await visitor.request('GET', '/signup');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Sign-up is closed</h1>');
    expect(page.body).toContain(CLOSED);
    expect(hasSignupForm(page)).toBe(false);
    const signin = await visitor.request('GET', '/signin');
    expect(signin.body).toContain(`<p>New here? ${CLOSED}</p>`);
    expect(signin.body).not.toContain('>Make an account</a>');

    const email = nextEmail();
    await expectRefused(await postSignup(visitor, { email }), 403, 'No account was made.', email);
    // Not even a team invitation or a sign-up link opens it.
    await invitedByATeam(email);
    await expectRefused(await postSignup(visitor, { email }), 403, 'No account was made.', email);
  });

  it('leaves the operator\'s person add working, and refuses person invite (its link would not work)', async () => {
    await setMode('closed');
    const email = nextEmail();
    const invite = await runCli(server.dbPath, 'person', 'invite', '--email', email);
    expect(invite.code).toBe(1);
    expect(invite.stderr).toMatch(
      /^shortlinks: sign-up is closed, so a sign-up link would not work: make the account with person add, or first run settings set --signup invite \(database: .*\)\n$/,
    );
    expect((await runCli(server.dbPath, 'person', 'add', '--email', email, '--password', WEB_PASSWORD)).code).toBe(0);
    expect(await personOf(email)).not.toBeNull();
  });
});

describe('invite', () => {
  it('refuses an email no one invited with 403 and the reason, making nothing', async () => {
    await setMode('invite');
    const visitor = new WebVisitor(server.url);
    const page = await visitor.request('GET', '/signup');
    expect(hasSignupForm(page)).toBe(true);
    expect(noticeOf(page)).toBe(INVITE);
    expect((await visitor.request('GET', '/signin')).body).toContain('<p>New here? Accounts here are by invitation. <a href="/signup">Make an account</a>.</p>');
    const email = nextEmail();
    await expectRefused(await postSignup(visitor, { email }), 403, `No team invited this email. ${INVITE} No account was made.`, email);
  });

  it('makes the account of an email a team invited, which then sees the invitation', async () => {
    await setMode('invite');
    const email = nextEmail();
    const teamId = await invitedByATeam(email);
    const visitor = new WebVisitor(server.url);
    const made = await visitor.signUp(email);
    expect(made.status).toBe(303);
    expect(made.location).toBe('/welcome');
    expect(await personOf(email)).not.toBeNull();
    expect((await visitor.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);
    expect((await visitor.request('GET', '/teams')).body).toContain(`action="/teams/${teamId}/accept"`);
  });

  it("makes the account of person invite's link once, for its email only", async () => {
    await setMode('invite');
    const email = nextEmail();
    const invited = await cliJson(server.dbPath, 'person', 'invite', '--email', email);
    expect(invited).toEqual({ email, signupUrl: expect.stringMatching(/\/signup\?invitation=[A-Za-z0-9_-]{43}$/), signupExpiresAt: expect.any(String), signup: 'invite' });
    const link = new URL(invited.signupUrl);
    expect(link.origin).toBe(server.url);
    const path = `${link.pathname}${link.search}`;
    const token = link.searchParams.get('invitation')!;

    const visitor = new WebVisitor(server.url);
    const page = await visitor.request('GET', path);
    expect(noticeOf(page)).toBe(`You were invited as ${email}: choose a password.`);
    expect(page.body).toContain(`value="${email}"`);
    expect(page.body).toContain(`<input type="hidden" name="invitation" value="${token}">`);

    // Another email with the link is refused, and the link still stands.
    const other = nextEmail();
    await expectRefused(await visitor.submit(path, '/signup', { email: other, password: WEB_PASSWORD, invitation: token }), 403,
      `This sign-up link is for ${email}: sign up with that email. No account was made.`, other);
    const made = await visitor.submit(path, '/signup', { email, password: WEB_PASSWORD, invitation: token });
    expect(made.status).toBe(303);
    expect(await personOf(email)).not.toBeNull();

    // Spent: it makes nothing more, even for its own email once that account is gone.
    expect(noticeOf(await new WebVisitor(server.url).request('GET', path))).toBe('This sign-up link was used, has expired or is not one of ours.');
    const again = nextEmail();
    await expectRefused(await new WebVisitor(server.url).submit(path, '/signup', { email: again, password: WEB_PASSWORD, invitation: token }), 403,
      'This sign-up link was used, has expired or is not one of ours, and no team invited this email. Ask the operator for a new link. No account was made.', again);
  });

  it('person invite prints the link, and refuses an email that has an account', async () => {
    await setMode('invite');
    const email = nextEmail();
    const run = await runCli(server.dbPath, 'person', 'invite', '--email', email);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`\n${email} makes their account at this link \\(one use, within 7 days, until [0-9T:.Z-]+\\):\n${server.url}/signup\\?invitation=[A-Za-z0-9_-]{43}\n`));
    const taken = await runCli(server.dbPath, 'person', 'invite', '--email', (await server.person()).email);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/^shortlinks: a person with the email person\d+@example\.com already exists \(database: .*\)\n$/);
  });
});

describe("an assistant's OAuth sign-in", () => {
  /** Opens an authorization request signed out: answers the sign-in page it leads to, and the request's path. */
  async function signInPage(visitor: WebVisitor) {
    const { body: client } = await register(server, { client_name: 'Assistant', redirect_uris: ['http://127.0.0.1:33418/callback'] });
    const url = authorizeUrl(server, {
      response_type: 'code', client_id: client.client_id, redirect_uri: 'http://127.0.0.1:33418/callback',
      code_challenge: pkce().challenge, code_challenge_method: 'S256',
    });
    const first = await visitor.request('GET', `${url.pathname}${url.search}`);
    expect(first.status).toBe(303);
    const next = new URL(first.location!, server.url).searchParams.get('next')!;
    return { page: await visitor.request('GET', first.location!), next };
  }

  it('closed: the sign-in page and the sign-up it would lead to say so, and a sign-up sent anyway makes nothing', async () => {
    await setMode('closed');
    const visitor = new WebVisitor(server.url);
    const { page, next } = await signInPage(visitor);
    expect(page.body).toContain(`<p>New here? ${CLOSED}</p>`);
    expect(page.body).not.toContain('>Make an account</a>');
    const signup = await visitor.request('GET', `/signup?next=${encodeURIComponent(next)}`);
    expect(signup.body).toContain(CLOSED);
    expect(hasSignupForm(signup)).toBe(false);
    const email = nextEmail();
    await expectRefused(await postSignup(visitor, { email, next }), 403, 'No account was made.', email);
  });

  it('invite: someone a team invited makes the account there and comes back to the consent page', async () => {
    await setMode('invite');
    const visitor = new WebVisitor(server.url);
    const { page, next } = await signInPage(visitor);
    expect(page.body).toContain(`Accounts here are by invitation. <a href="/signup?next=${encodeURIComponent(next).replaceAll('&', '&amp;')}">Make an account</a>`);
    const stranger = nextEmail();
    await expectRefused(await postSignup(visitor, { email: stranger, next }), 403, `No team invited this email. ${INVITE} No account was made.`, stranger);

    const email = nextEmail();
    await invitedByATeam(email);
    const made = await postSignup(visitor, { email, next });
    expect(made.status).toBe(303);
    expect(made.location).toBe(`/welcome?next=${encodeURIComponent(next)}`);
    expect((await visitor.submit(made.location!, '/welcome', { agree: 'yes', next })).status).toBe(303);
    const consent = await visitor.request('GET', next);
    expect(consent.status).toBe(200);
    expect(consent.body).toContain(`asks to act as <strong>${email}</strong>`);
  });

  it('open: makes the account as before', async () => {
    const visitor = new WebVisitor(server.url);
    const { page, next } = await signInPage(visitor);
    expect(page.body).toContain(`<p>New here? <a href="/signup?next=`);
    const email = nextEmail();
    expect((await postSignup(visitor, { email, next })).status).toBe(303);
    expect(await personOf(email)).not.toBeNull();
  });
});

describe("the header's Sign up", () => {
  /** A signed-out visitor's page at `path`: its status, whether its header links to /signup, and its body. */
  async function signedOut(path: string) {
    const page = await new WebVisitor(server.url).request('GET', path);
    const header = /<header>.*?<\/header>/s.exec(page.body)?.[0] ?? '';
    expect(header).toContain('<a href="/signin"');
    return { status: page.status, offered: header.includes('<a href="/signup"'), body: page.body };
  }
  // The home and sign-in pages, the web app's not-found page and an OAuth error page (drawn by the OAuth routes).
  const paths: Array<[string, number]> = [['/', 200], ['/signin', 200], ['/docs/no-such-page', 404], ['/authorize', 400]];

  it('is offered under open and invite, not under closed, from the very next request after settings set', async () => {
    for (const mode of ['closed', 'invite', 'closed', 'open']) {
      await setMode(mode);
      for (const [path, status] of paths) expect(await signedOut(path)).toMatchObject({ status, offered: mode !== 'closed' });
    }
  });

  it('leaves the home page without "make an account" under closed; the sign-up page still says it is closed', async () => {
    await setMode('closed');
    const home = await signedOut('/');
    expect(home.body).toContain('<p><a href="/signin">Sign in</a> to start.</p>');
    expect(home.body).not.toContain('href="/signup"');
    const signup = await signedOut('/signup');
    expect(signup).toMatchObject({ status: 200, offered: false });
    expect(signup.body).toContain(`<h1>Sign-up is closed</h1>`);
    await setMode('open');
    expect((await signedOut('/')).body).toContain('<p><a href="/signin">Sign in</a> or <a href="/signup">make an account</a> to start.</p>');
  });
});
