/**
 * The Account page end to end (docs/behaviour.md "Your account"): changing the password ends every other web
 * session, sessions are listed and ended one by one, and deleting the account is refused while the person is the
 * only owner of a team others use, and otherwise ends their tokens, assistant connections and sessions at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../helpers/server.js';
import { browserOf, mcpStatus, register, signIn as connectAssistant } from '../helpers/oauth.js';
import { memberWithTeam, startWebServer, WEB_PASSWORD, WebVisitor } from '../helpers/web-forms.js';

const NEW_PASSWORD = 'a different passphrase';

let server: TestServer;
beforeAll(async () => {
  server = await startWebServer();
});
afterAll(() => server.stop());

let people = 0;
const nextEmail = () => `account${++people}@example.com`;

/** A new browser signed in as `email` with `password`. */
async function signedIn(email: string, password = WEB_PASSWORD): Promise<WebVisitor> {
  const visitor = new WebVisitor(server.url);
  expect((await visitor.submit('/signin', '/signin', { email, password })).status).toBe(303);
  return visitor;
}

/** Whether the browser is still signed in: the Account page, or the way to the sign-in page. */
async function isSignedIn(visitor: WebVisitor): Promise<boolean> {
  const page = await visitor.request('GET', '/account');
  if (page.status === 303) expect(page.location).toBe('/signin?next=%2Faccount');
  else expect(page.status).toBe(200);
  return page.status === 200;
}

/** A person the operator added without a password (`person add`), signed in another way, with a token. */
async function withoutPassword(): Promise<{ visitor: WebVisitor; token: string }> {
  const person = await server.person();
  const [name, value] = (await browserOf(server, person.personId)).split('=') as [string, string];
  return { visitor: new WebVisitor(server.url, null, new Map([[name, value]])), token: person.token };
}

async function signInStatus(email: string, password: string): Promise<number> {
  return (await new WebVisitor(server.url).submit('/signin', '/signin', { email, password })).status;
}

describe('the Account page', () => {
  it('shows the email, links to changing it and to the assistants, and lists where the person is signed in', async () => {
    const email = nextEmail();
    const { visitor } = await memberWithTeam(server.url, email, 'Mine');
    const page = await visitor.request('GET', '/account');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<li><a href="/account" aria-current="page">Account</a></li>');
    expect(page.body).toContain(`<p>You sign in as <strong>${email}</strong>. <a href="/account/email">Change email</a></p>`);
    expect(page.body).toContain('<a href="/assistants">Assistants</a>');
    expect(page.body).toContain('action="/account/password"');
    expect(page.body).toContain('<a href="/account/delete">Delete your account…</a>');
    expect(page.body.match(/<tr><td data-label="Signed in">/g)).toHaveLength(1);
    expect(page.body).toContain('<td>This browser</td>');
  });
});

describe('changing the password', () => {
  it('refuses a wrong current password with the field message, changing nothing', async () => {
    const email = nextEmail();
    const { visitor } = await memberWithTeam(server.url, email, 'Team');
    const other = await signedIn(email);
    const wrong = await visitor.submit('/account', '/account/password', { current: 'not my password', password: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('<p class="error" id="f-current-error">The current password is wrong.</p>');
    const short = await visitor.submit('/account', '/account/password', { current: WEB_PASSWORD, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toContain('<p class="error" id="f-password-error">Choose a password of 8 to 1024 characters.</p>');
    expect(await isSignedIn(other)).toBe(true);
    expect(await signInStatus(email, WEB_PASSWORD)).toBe(303);
    expect(await signInStatus(email, NEW_PASSWORD)).toBe(400);
  });

  it('slows down after 5 wrong current passwords, as signing in does: 429, even for the right one', async () => {
    const email = nextEmail();
    const { visitor } = await memberWithTeam(server.url, email, 'Team');
    for (let i = 0; i < 5; i++) {
      expect((await visitor.submit('/account', '/account/password', { current: `guess ${i}`, password: NEW_PASSWORD })).status).toBe(400);
    }
    const slowed = await visitor.submit('/account', '/account/password', { current: WEB_PASSWORD, password: NEW_PASSWORD });
    expect(slowed.status).toBe(429);
    expect(slowed.headers.get('retry-after')).toBe('1');
    expect(slowed.body).toContain('<p class="alert" role="alert">Too many wrong passwords. Wait 1 second, then try again.</p>');
    expect(await signInStatus(email, WEB_PASSWORD)).toBe(303);
  });

  it('is not offered to a person without a password: they use a set-password link', async () => {
    const { visitor } = await withoutPassword();
    const page = await visitor.request('GET', '/account');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<p>You sign in without a password. To set one, use a set-password link: ask whoever runs this service for one.</p>');
    expect(page.body).not.toContain('action="/account/password"');
    expect((await visitor.submit('/account', '/account/password', { current: '', password: NEW_PASSWORD })).status).toBe(409);
  });

  it('changes it and signs out every other browser, keeping this one', async () => {
    const email = nextEmail();
    const { visitor } = await memberWithTeam(server.url, email, 'Team');
    const other = await signedIn(email);
    const stranger = await memberWithTeam(server.url, nextEmail(), 'Theirs');
    const changed = await visitor.submit('/account', '/account/password', { current: WEB_PASSWORD, password: NEW_PASSWORD });
    expect([changed.status, changed.location]).toEqual([303, '/account?done=password']);
    const page = await visitor.request('GET', '/account?done=password');
    expect(page.body).toContain('<p class="notice" role="status">Password changed. Every other browser signed in as you was signed out.</p>');
    expect(await isSignedIn(other)).toBe(false);
    expect(await isSignedIn(stranger.visitor)).toBe(true);
    expect(await signInStatus(email, WEB_PASSWORD)).toBe(400);
    expect(await signInStatus(email, NEW_PASSWORD)).toBe(303);
  });
});

describe('web sessions', () => {
  it('lists both sessions; signing one out ends it at once, and only the person’s own can be', async () => {
    const email = nextEmail();
    const { visitor } = await memberWithTeam(server.url, email, 'Team');
    const other = await signedIn(email);
    const stranger = await memberWithTeam(server.url, nextEmail(), 'Theirs');
    const page = await visitor.request('GET', '/account');
    expect(page.body.match(/<tr><td data-label="Signed in">/g)).toHaveLength(2);
    const handles = [...page.body.matchAll(/name="session" value="([\w-]+)"/g)].map((m) => m[1]!);
    expect(handles).toHaveLength(1);
    const theirs = /name="session" value="([\w-]+)"/.exec((await stranger.visitor.request('GET', '/account')).body);
    expect(theirs).toBeNull();

    const strangers = await stranger.visitor.submit('/account', '/account/sessions/end', { session: handles[0]! });
    expect(strangers.status).toBe(404);
    expect(await isSignedIn(other)).toBe(true);
    expect((await visitor.submit('/account', '/account/sessions/end', { session: 'not-a-session' })).status).toBe(404);

    const ended = await visitor.submit('/account', '/account/sessions/end', { session: handles[0]! });
    expect([ended.status, ended.location]).toEqual([303, '/account?done=session']);
    expect(await isSignedIn(other)).toBe(false);
    expect(await isSignedIn(visitor)).toBe(true);
  });

  it('signs out every other browser at once', async () => {
    const email = nextEmail();
    const { visitor } = await memberWithTeam(server.url, email, 'Team');
    const others = [await signedIn(email), await signedIn(email)];
    const ended = await visitor.submit('/account', '/account/sessions/end-others', {});
    expect([ended.status, ended.location]).toEqual([303, '/account?done=sessions']);
    expect([await isSignedIn(others[0]!), await isSignedIn(others[1]!), await isSignedIn(visitor)]).toEqual([false, false, true]);
  });
});

describe('deleting the account', () => {
  const deleteAccount = (visitor: WebVisitor, password = WEB_PASSWORD) =>
    visitor.submit('/account/delete', '/account/delete', { password });

  it('asks first, and is refused while the person is the only owner of a team with other members', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, nextEmail(), 'Owners');
    const email = nextEmail();
    const joiner = await memberWithTeam(server.url, email, 'Joiner');
    expect((await owner.submit(`/teams/${team}`, `/teams/${team}/members`, { email })).status).toBe(303);
    expect((await joiner.visitor.submit('/teams', `/teams/${team}/accept`, {})).status).toBe(303);

    const asks = await owner.request('GET', '/account/delete');
    expect(asks.status).toBe(200);
    expect(asks.body).toContain('<h1>Delete your account?</h1>');
    expect(asks.body).toContain('<button type="submit" class="danger">Delete my account</button>');
    expect(asks.body).toContain('autocomplete="current-password"');

    const wrong = await deleteAccount(owner, 'not my password');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('<p class="error" id="f-password-error">The password is wrong.</p>');

    const refused = await deleteAccount(owner);
    expect(refused.status).toBe(409);
    expect(refused.body).toContain(
      `<p class="alert" role="alert">Your account was not deleted: you are the only owner of the team <a href="/teams/${team}">Owners</a>, which has 1 other member. Make another member an owner of it, or delete the team, then delete your account.</p>`,
    );
    expect(await isSignedIn(owner)).toBe(true);
    expect((await joiner.visitor.request('GET', `/teams/${team}`)).status).toBe(200);
  });

  it('is refused while the person is the only owner of a team with links', async () => {
    const visitor = new WebVisitor(server.url);
    const token = await visitor.newAccountWithToken(nextEmail());
    const teams = await call(server, 'listTeams', {}, token);
    const team = (teams.body as { data: Array<{ id: string }> }).data[0]!.id;
    expect((await call(server, 'createLink', { team, destination: 'https://example.com/kept' }, token)).status).toBe(200);
    const refused = await deleteAccount(visitor);
    expect(refused.status).toBe(409);
    expect(refused.body).toContain(
      `<p class="alert" role="alert">Your account was not deleted: you are the only owner of the team <a href="/teams/${team}">Team</a>, which has 1 short link. Delete the team, then delete your account.</p>`,
    );
    expect((await call(server, 'listTeams', {}, token)).status).toBe(200);
  });

  it('otherwise ends tokens, assistant connections and sessions; the email can sign up again', async () => {
    const email = nextEmail();
    const visitor = new WebVisitor(server.url);
    const token = await visitor.newAccountWithToken(email);
    const other = await signedIn(email);
    const { body: client } = await register(server, { client_name: 'Desk', redirect_uris: ['http://127.0.0.1:33418/callback'] });
    const { body: tokens } = await connectAssistant(server, visitor.cookieHeader(), client.client_id as string);
    const access = tokens.access_token as string;
    expect(await mcpStatus(server, access)).toBe(200);

    const gone = await deleteAccount(visitor);
    expect(gone.status).toBe(200);
    expect(gone.body).toContain('<h1>Your account is deleted</h1>');
    expect(gone.body).toContain('<a href="/signin">Sign in</a>');
    expect((await call(server, 'listTeams', {}, token)).status).toBe(401);
    expect(await mcpStatus(server, access)).toBe(401);
    expect([await isSignedIn(visitor), await isSignedIn(other)]).toEqual([false, false]);
    expect(await signInStatus(email, WEB_PASSWORD)).toBe(400);
    expect((await new WebVisitor(server.url).signUp(email)).status).toBe(303);
  });

  it('asks no password of a person without one; their team of their own goes with them', async () => {
    const { visitor, token } = await withoutPassword();
    const asks = await visitor.request('GET', '/account/delete');
    expect(asks.status).toBe(200);
    expect(asks.body).not.toContain('name="password"');
    const gone = await visitor.submit('/account/delete', '/account/delete', {});
    expect(gone.status).toBe(200);
    expect(gone.body).toContain('<h1>Your account is deleted</h1>');
    expect((await call(server, 'listTeams', {}, token)).status).toBe(401);
  });
});
