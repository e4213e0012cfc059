import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, startServer, type TestServer } from '../helpers/server.js';

/**
 * The web app over real HTTP, as a browser without JavaScript would use it: forms, redirects and cookies, the
 * cookies kept by hand in a tiny jar.
 */

/** Cookies by name, as a browser would keep them for one site. */
class Jar {
  readonly cookies = new Map<string, string>();
  /** The raw Set-Cookie lines of the last answer, to check their attributes. */
  lastSetCookie: string[] = [];

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  take(res: Response): void {
    this.lastSetCookie = res.headers.getSetCookie();
    for (const line of this.lastSetCookie) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const expired = attributes.some(
        (a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now()),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

interface Page {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
}

let server: TestServer;
let people = 0;
const PASSWORD = 'correct horse battery';

async function request(jar: Jar, method: string, path: string, form?: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<Page> {
  const body = form ? new URLSearchParams() : undefined;
  for (const [name, value] of Object.entries(form ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) body!.append(name, item);
  }
  const res = await fetch(`${server.url}${path}`, {
    method,
    redirect: 'manual',
    headers: { cookie: jar.header(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers },
    ...(body ? { body: body.toString() } : {}),
  });
  jar.take(res);
  return { status: res.status, headers: res.headers, body: await res.text(), location: res.headers.get('location') };
}

const get = (jar: Jar, path: string) => request(jar, 'GET', path);

function csrfOf(page: Page): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page.body);
  if (!match) throw new Error(`no _csrf field on the page (status ${page.status})`);
  return match[1]!;
}

/** GETs `formPath`, then POSTs its form with the page's CSRF token, as a browser would. */
async function submit(jar: Jar, formPath: string, action: string, fields: Record<string, string | string[]>): Promise<Page> {
  const csrf = csrfOf(await get(jar, formPath));
  return request(jar, 'POST', action, { _csrf: csrf, ...fields });
}

async function signUp(email = `web${++people}@example.com`): Promise<{ jar: Jar; email: string; page: Page }> {
  const jar = new Jar();
  const page = await submit(jar, '/signup', '/signup', { email, password: PASSWORD });
  return { jar, email, page };
}

async function agree(jar: Jar): Promise<Page> {
  return submit(jar, '/welcome', '/welcome', { agree: 'yes' });
}

/** A signed-up person who agreed to the terms. */
async function member(): Promise<{ jar: Jar; email: string }> {
  const person = await signUp();
  expect((await agree(person.jar)).status).toBe(303);
  return person;
}

async function makeTeam(jar: Jar, name = 'Web team'): Promise<string> {
  const page = await submit(jar, '/teams', '/teams', { name });
  expect(page.status).toBe(303);
  return /^\/teams\/(team_[A-Za-z0-9]+)/.exec(page.location ?? '')![1]!;
}

/** Makes a token on /developers and reads it off the page the form redirects to. */
async function makeToken(jar: Jar, team: string, extra: Record<string, string | string[]> = {}): Promise<string> {
  const page = await submit(jar, '/developers', '/developers/tokens', { team, ...extra });
  expect(page.status).toBe(303);
  expect(page.location).toBe('/developers');
  const shown = await get(jar, '/developers');
  return /id="new-token"[^>]*value="(sl_[A-Za-z0-9_]+)"/.exec(shown.body)![1]!;
}

const link = (team: string) => ({ team, destination: 'https://example.com/web' });

beforeAll(async () => {
  server = await startServer();
  // Everyone here signs up and makes teams from loopback within one hour of the test clock; the per-address limits
  // have tests of their own (test/e2e/signup-limits.test.ts).
  await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
});
afterAll(() => server.stop());

describe('sign up and the first step', () => {
  it('signs a new person in and sends them to /welcome; other pages lead there until they agree', async () => {
    const { jar, page } = await signUp();
    expect(page.status).toBe(303);
    expect(page.location).toBe('/welcome');
    for (const path of ['/app', '/teams', '/developers']) {
      const redirected = await get(jar, path);
      expect(redirected.status).toBe(303);
      expect(redirected.location).toBe(`/welcome?next=${encodeURIComponent(path)}`);
    }
    const welcome = await get(jar, '/welcome');
    expect(welcome.status).toBe(200);
    expect(welcome.body).toMatch(/<label class="check" for="f-agree"><input type="checkbox" id="f-agree" name="agree"/);
  });

  it('answers first_step on the API before agreeing and 200 after, also for a token made on /developers', async () => {
    const { jar, email } = await signUp();
    const person = (await server.app.ctx.store.people.findByEmail(email))!;
    const team = await server.app.ctx.store.teams.add({ name: 'Before', ownerId: person.id }, new Date());
    const early = await server.token(person.id, team.id);
    const reply = await call(server, 'listTeams', {}, early);
    expectProblem(server, reply, 403, 'first_step');
    expect(reply.body.detail).toContain(`${server.url}/welcome`);

    const unticked = await submit(jar, '/welcome', '/welcome', {});
    expect(unticked.status).toBe(400);
    expect(unticked.body).toContain('Tick “I agree to the terms”');
    expect((await call(server, 'listTeams', {}, early)).status).toBe(403);

    const agreed = await agree(jar);
    expect(agreed.status).toBe(303);
    expect(agreed.location).toBe('/app');
    expect((await call(server, 'listTeams', {}, early)).status).toBe(200);
    const made = await makeToken(jar, team.id);
    const teams = await call(server, 'listTeams', {}, made);
    expect(teams.status).toBe(200);
    expect(teams.body.data).toEqual([{ id: team.id, name: 'Before' }]);
  });

  it('refuses a bad email and a short password beside their fields, and a taken email', async () => {
    const jar = new Jar();
    const bad = await submit(jar, '/signup', '/signup', { email: 'not-an-email', password: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/id="f-email-error">Enter an email address/);
    expect(bad.body).toMatch(/id="f-password-error">Choose a password of 8/);
    const { email } = await signUp();
    const taken = await submit(new Jar(), '/signup', '/signup', { email: email.toUpperCase(), password: PASSWORD });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatch(/id="f-email-error">An account with this email already exists/);
    expect(taken.body).not.toContain(PASSWORD);
  });

  it('stores the password only as a scrypt hash', async () => {
    const { email } = await signUp();
    const db = new Database(server.dbPath, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('SELECT password_hash AS hash FROM people WHERE email = ?').get(email) as { hash: string };
      expect(row.hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
      expect(row.hash).not.toContain(PASSWORD);
    } finally {
      db.close();
    }
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/ and, over http, without Secure', async () => {
    const { jar } = await signUp();
    const line = jar.lastSetCookie.find((c) => c.startsWith('sl_session='))!;
    expect(line).toBeDefined();
    const attributes = line.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');
    expect(attributes.some((a) => a.startsWith('expires='))).toBe(true);
    expect(attributes).not.toContain('secure');
  });
});

describe('sign in and sign out', () => {
  it('gives the same answer for a wrong password and an unknown email', async () => {
    const { email } = await signUp();
    const wrong = await submit(new Jar(), '/signin', '/signin', { email, password: 'wrong password' });
    const unknown = await submit(new Jar(), '/signin', '/signin', { email: 'nobody@example.com', password: PASSWORD });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(wrong.status);
    const message = (page: Page) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(page.body)?.[1];
    expect(message(wrong)).toBe('The email or the password is wrong.');
    expect(message(unknown)).toBe(message(wrong));
    expect(wrong.headers.get('set-cookie') ?? '').not.toContain('sl_session=');
  });

  it('signs in, honours a same-site next, and signs out for good', async () => {
    const { email } = await member();
    const jar = new Jar();
    const page = await submit(jar, '/signin?next=/teams%3Fa%3D1', '/signin', { email, password: PASSWORD, next: '/teams?a=1' });
    expect(page.status).toBe(303);
    expect(page.location).toBe('/teams?a=1');
    expect((await get(jar, '/app')).status).toBe(200);
    const session = jar.cookies.get('sl_session')!;

    const out = await submit(jar, '/app', '/signout', {});
    expect(out.status).toBe(303);
    expect(jar.cookies.has('sl_session')).toBe(false);
    const after = await get(jar, '/app');
    expect(after.status).toBe(303);
    expect(after.location).toBe('/signin?next=%2Fapp');
    // The old cookie is dead on the server too, not just forgotten by the browser.
    const stolen = new Jar();
    stolen.cookies.set('sl_session', session);
    expect((await get(stolen, '/app')).status).toBe(303);
  });

  it('ends the session a browser held when it signs in again', async () => {
    const first = await member();
    const second = await member();
    const old = first.jar.cookies.get('sl_session')!;
    // A sign-in form left open in another tab, sent while signed in.
    const csrf = csrfOf(await get(first.jar, '/app'));
    const page = await request(first.jar, 'POST', '/signin', { _csrf: csrf, email: second.email, password: PASSWORD });
    expect(page.status).toBe(303);
    expect(first.jar.cookies.get('sl_session')).not.toBe(old);
    expect((await get(first.jar, '/app')).body).toContain(second.email);
    const stale = new Jar();
    stale.cookies.set('sl_session', old);
    expect((await get(stale, '/app')).status).toBe(303);
  });

  it.each(['//evil.example', 'https://evil.example', '/\\evil.example', '/\t/evil.example', 'javascript:alert(1)'])(
    'ignores next=%j',
    async (next) => {
      const { email } = await member();
      const form = await get(new Jar(), `/signin?next=${encodeURIComponent(next)}`);
      expect(form.body).not.toContain('name="next"');
      const jar = new Jar();
      const page = await submit(jar, '/signin', '/signin', { email, password: PASSWORD, next });
      expect(page.status).toBe(303);
      expect(page.location).toBe('/app');
    },
  );
});

describe('CSRF', () => {
  it('refuses a POST without _csrf, with a wrong one, or from another origin, and changes nothing', async () => {
    const { jar } = await member();
    const csrf = csrfOf(await get(jar, '/teams'));
    const attempts: Array<[Record<string, string>, Record<string, string>]> = [
      [{ name: 'No token' }, {}],
      [{ name: 'Wrong token', _csrf: 'x'.repeat(43) }, {}],
      [{ name: 'Other origin', _csrf: csrf }, { origin: 'http://evil.example' }],
    ];
    for (const [form, headers] of attempts) {
      const page = await request(jar, 'POST', '/teams', form, headers);
      expect(page.status).toBe(403);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    }
    const teams = await get(jar, '/teams');
    expect(teams.body).toContain('You are in no team yet.');
    // The same token from our own origin works.
    const ok = await request(jar, 'POST', '/teams', { name: 'Real', _csrf: csrf }, { origin: server.url });
    expect(ok.status).toBe(303);
  });

  it('refuses a sign-up without the form cookie it was given', async () => {
    const jar = new Jar();
    const csrf = csrfOf(await get(jar, '/signup'));
    const email = `csrf${++people}@example.com`;
    const page = await request(new Jar(), 'POST', '/signup', { _csrf: csrf, email, password: PASSWORD });
    expect(page.status).toBe(403);
    expect(await server.app.ctx.store.people.findByEmail(email)).toBeNull();
  });
});

/** `owner` invites `joiner` to the team, and `joiner` accepts on their Teams page. */
async function join(owner: { jar: Jar }, joiner: { jar: Jar; email: string }, team: string): Promise<void> {
  expect((await submit(owner.jar, `/teams/${team}`, `/teams/${team}/members`, { email: joiner.email })).status).toBe(303);
  const accepted = await submit(joiner.jar, '/teams', `/teams/${team}/accept`, {});
  expect(accepted.status).toBe(303);
  expect(accepted.location).toBe(`/teams/${team}?done=joined`);
}

describe('teams', () => {
  it('makes a team, invites a member who accepts, hides it from others; leaving stops the token until rejoining', async () => {
    const owner = await member();
    const joiner = await member();
    const stranger = await member();
    const team = await makeTeam(owner.jar, 'Crew');

    await join(owner, joiner, team);
    const again = await submit(owner.jar, `/teams/${team}`, `/teams/${team}/members`, { email: joiner.email });
    expect(again.status).toBe(409);
    expect(again.body).toMatch(/id="f-email-error">They already are a member/);

    const hidden = await get(stranger.jar, `/teams/${team}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).not.toContain('Crew');
    const strangerPost = await submit(stranger.jar, '/teams', `/teams/${team}/members`, { email: stranger.email });
    expect(strangerPost.status).toBe(404);

    const token = await makeToken(joiner.jar, team);
    expect((await call(server, 'createLink', link(team), token)).status).toBe(200);
    // A member who is not an owner may not remove the owner.
    const ownerId = (await server.app.ctx.store.people.findByEmail(owner.email))!.id;
    const refused = await submit(joiner.jar, `/teams/${team}`, `/teams/${team}/members/remove`, { person: ownerId });
    expect(refused.status).toBe(403);

    const left = await submit(joiner.jar, `/teams/${team}`, `/teams/${team}/leave`, {});
    expect(left.status).toBe(303);
    expect(left.location).toBe('/teams?done=left');
    expect((await get(joiner.jar, `/teams/${team}`)).status).toBe(404);
    expectProblem(server, await call(server, 'listTeams', {}, token), 403, 'token_record_left');

    await join(owner, joiner, team);
    expect((await call(server, 'listTeams', {}, token)).status).toBe(200);

    const joinerId = (await server.app.ctx.store.people.findByEmail(joiner.email))!.id;
    const removed = await submit(owner.jar, `/teams/${team}`, `/teams/${team}/members/remove`, { person: joinerId });
    expect(removed.status).toBe(303);
    expectProblem(server, await call(server, 'listTeams', {}, token), 403, 'token_record_left');
  });

  it('keeps the only owner while others remain, and refuses a bad team name', async () => {
    const owner = await member();
    const other = await member();
    const team = await makeTeam(owner.jar);
    await join(owner, other, team);
    const refused = await submit(owner.jar, `/teams/${team}`, `/teams/${team}/leave`, {});
    expect(refused.status).toBe(409);
    expect(refused.body).toContain(
      '<p class="alert" role="alert">You are the only owner of this team, and a team keeps an owner while it exists: make another member an owner first, or delete the team.</p>',
    );
    const blank = await submit(owner.jar, '/teams', '/teams', { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatch(/id="f-name-error">Give the team a name/);
  });

  it('escapes what people type', async () => {
    const { jar } = await member();
    const team = await makeTeam(jar, '<script>alert("x")</script> & co');
    const page = await get(jar, `/teams/${team}`);
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
  });
});

describe('developers', () => {
  it('shows a token once, respects its scopes and its team limit, and revokes it', async () => {
    const { jar } = await member();
    const team = await makeTeam(jar, 'Main');
    const otherTeam = await makeTeam(jar, 'Side');

    const token = await makeToken(jar, team);
    const list = await get(jar, '/developers');
    expect(list.body).not.toContain(token);
    expect(list.body).not.toContain(token.slice(20));

    const readOnly = await makeToken(jar, team, { scopes: ['listTeams', 'listLinks'] });
    expect((await call(server, 'listLinks', { team }, readOnly)).status).toBe(200);
    expectProblem(server, await call(server, 'createLink', link(team), readOnly), 403, 'insufficient_scope');

    const limited = await makeToken(jar, team, { limited: 'yes' });
    expect((await call(server, 'createLink', link(team), limited)).status).toBe(200);
    expectProblem(server, await call(server, 'createLink', link(otherTeam), limited), 403, 'outside_token_record');
    expect((await call(server, 'createLink', link(otherTeam), token)).status).toBe(200);

    const page = await get(jar, '/developers');
    expect(page.body).toContain('listTeams, listLinks');
    const id = `tok_${token.slice(3, 19)}`;
    const revoked = await request(jar, 'POST', '/developers/tokens/revoke', { _csrf: csrfOf(page), id });
    expect(revoked.status).toBe(303);
    expectProblem(server, await call(server, 'listTeams', {}, token), 401, 'invalid_token');
    expect((await call(server, 'listTeams', {}, limited)).status).toBe(200);
  });

  it('a token revoked on the page is refused on its very next call, however often it was just used', async () => {
    const { jar } = await member();
    const team = await makeTeam(jar);
    const token = await makeToken(jar, team);
    const made = await call(server, 'createLink', link(team), token);
    for (let i = 0; i < 3; i++) expect((await call(server, 'getLink', { code: made.body.code }, token)).status).toBe(200);
    const page = await get(jar, '/developers');
    const revoked = await request(jar, 'POST', '/developers/tokens/revoke', { _csrf: csrfOf(page), id: `tok_${token.slice(3, 19)}` });
    expect(revoked.status).toBe(303);
    expectProblem(server, await call(server, 'getLink', { code: made.body.code }, token), 401, 'invalid_token');
  });

  it("refuses another person's token, a team one is not in and an unknown scope", async () => {
    const alice = await member();
    const bob = await member();
    const aliceTeam = await makeTeam(alice.jar);
    const bobTeam = await makeTeam(bob.jar);
    const aliceToken = await makeToken(alice.jar, aliceTeam);

    const other = await submit(bob.jar, '/developers', '/developers/tokens/revoke', { id: `tok_${aliceToken.slice(3, 19)}` });
    expect(other.status).toBe(404);
    expect((await call(server, 'listTeams', {}, aliceToken)).status).toBe(200);

    const notMine = await submit(bob.jar, '/developers', '/developers/tokens', { team: aliceTeam });
    expect(notMine.status).toBe(400);
    expect(notMine.body).toMatch(/id="f-team-error">Choose one of your teams/);
    const badScope = await submit(bob.jar, '/developers', '/developers/tokens', { team: bobTeam, scopes: ['createLink', 'makeToken'] });
    expect(badScope.status).toBe(400);
    expect(badScope.body).toContain('Not an operation: makeToken.');
    expect(badScope.body).not.toContain('id="new-token"');
    expect(await server.app.ctx.store.tokens.listForPerson((await server.app.ctx.store.people.findByEmail(bob.email))!.id)).toEqual([]);
  });
});

describe('dashboard', () => {
  it('makes links with the tool and shows its errors beside the field', async () => {
    const { jar } = await member();
    const team = await makeTeam(jar, 'Links');
    const made = await submit(jar, '/app', '/app/links', { team, destination: 'https://example.com/a', name: 'web-made', note: 'from the web' });
    expect(made.status).toBe(303);
    const code = /^\/app\?made=([A-Za-z0-9]{7})$/.exec(made.location ?? '')![1]!;
    const app = await get(jar, made.location!);
    expect(app.body).toContain(`Made <a href="${server.url}/${code}">${server.url}/${code}</a>`);
    expect(app.body).toContain(`${server.url}/web-made`);
    expect(app.body).toContain('from the web');
    // Each row leads to the link's page (with its QR code), its edit page and its delete confirmation.
    expect(app.body).toContain(`href="/app/links/${code}"`);
    expect(app.body).toContain(`href="/app/links/${code}/edit"`);
    expect(app.body).toContain(`href="/app/links/${code}/delete"`);

    const insecure = await submit(jar, '/app', '/app/links', { team, destination: 'http://example.com/' });
    expect(insecure.status).toBe(400);
    expect(insecure.body).toMatch(/id="f-destination-error">[^<]+</);
    expect(insecure.body).toContain('value="http://example.com/"');
    const taken = await submit(jar, '/app', '/app/links', { team, destination: 'https://example.com/b', name: 'web-made' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatch(/id="f-name-error">[^<]*taken/);
    const listed = await call(server, 'listLinks', { team }, await makeToken(jar, team));
    expect(listed.body.data.map((l: { code: string }) => l.code)).toEqual([code]);
  });

  it('shows a person with no team where to start', async () => {
    const { jar } = await member();
    const page = await get(jar, '/app');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<a href="/teams">Make a team</a>');
  });
});

describe('pages and bad input', () => {
  it('sends the security headers and no-store on pages', async () => {
    const { jar } = await member();
    const policy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    for (const path of ['/', '/signin', '/app', '/no/where']) {
      const page = await get(jar, path);
      // Pages with Copy buttons (the dashboard) allow our own script file, and still nothing inline.
      expect(page.headers.get('content-security-policy')).toBe(path === '/app' ? `${policy}; script-src 'self'` : policy);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('sends signed-out people to sign in, coming back afterwards', async () => {
    const page = await get(new Jar(), '/developers');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/signin?next=%2Fdevelopers');
    const home = await get(new Jar(), '/');
    expect(home.body).toContain('<a href="/signin">Sign in</a>');
    expect(home.body).toContain('<a href="/signup">');
  });

  it('answers bad input with a 4xx page and never a 500', async () => {
    const { jar } = await member();
    const csrf = csrfOf(await get(jar, '/teams'));
    const cases: Array<[string, string, string, string?]> = [
      ['POST', '/teams', `_csrf=${csrf}&name=${'x'.repeat(70_000)}`],
      ['POST', '/developers/tokens', `_csrf=${csrf}&team=%E0%A4%A`],
      ['POST', '/teams', `_csrf=${csrf}&name=%00`],
      ['POST', '/teams', `_csrf=${csrf}&name=a&name=b`],
      ['POST', '/teams', JSON.stringify({ _csrf: csrf, name: 'json' }), 'application/json'],
      ['POST', '/app/links', `_csrf=${csrf}&team=nope&destination=https://example.com/`],
      ['POST', '/app/links/bulk', `_csrf=${csrf}&team=nope&destinations=${'x'.repeat(3000)}`],
      ['POST', '/developers/tokens', `_csrf=${csrf}&team[]=x&scopes=__proto__`],
      ['GET', '/teams/%E0%A4%A', ''],
      ['GET', '/teams/team_nope/delete', ''],
      ['POST', '/teams/team_nope/delete', `_csrf=${csrf}`],
      ['POST', '/teams/team_nope/name', `_csrf=${csrf}&name=%00`],
      ['POST', '/teams/team_nope/members/owner', `_csrf=${csrf}&person[]=x`],
      ['POST', '/developers/tokens', `_csrf=${csrf}&team=x&label=%00`],
      ['POST', '/developers/tokens', `_csrf=${csrf}&team=x&label[]=a`],
    ];
    for (const [method, path, body, type] of cases) {
      const res = await fetch(`${server.url}${path}`, {
        method,
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': type ?? 'application/x-www-form-urlencoded' },
        ...(method === 'POST' ? { body } : {}),
      });
      const text = await res.text();
      const what = `${method} ${path} ${body.slice(0, 60)}`;
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      expect(res.headers.get('content-type'), what).toMatch(/^text\/html/);
      expect(text).not.toMatch(/at .*\.ts:\d+/);
    }
    expect((await get(jar, '/teams')).body).toContain('You are in no team yet.');
  });
});

describe('sign-in slowdown', () => {
  let throttled: TestServer;
  beforeAll(async () => {
    throttled = await startServer();
  });
  afterAll(() => throttled.stop());

  it('answers 429 with Retry-After after 5 failures, even for the right password, until the wait is over', async () => {
    const previous = server;
    server = throttled;
    try {
      const { email } = await member();
      for (let i = 0; i < 5; i++) {
        expect((await submit(new Jar(), '/signin', '/signin', { email, password: `wrong ${i}` })).status).toBe(400);
      }
      const slowed = await submit(new Jar(), '/signin', '/signin', { email, password: PASSWORD });
      expect(slowed.status).toBe(429);
      expect(slowed.headers.get('retry-after')).toBe('1');
      expect(slowed.body).toContain('Wait 1 second, then try again.');
      expect(slowed.headers.get('set-cookie') ?? '').not.toContain('sl_session=');

      throttled.clock.advance(1_000);
      const jar = new Jar();
      const ok = await submit(jar, '/signin', '/signin', { email, password: PASSWORD });
      expect(ok.status).toBe(303);
      expect((await get(jar, '/app')).status).toBe(200);

      // Pages share the person's calls-per-minute budget with the API.
      throttled.clock.advance(60_000);
      await throttled.setLimits({ callsPerMinute: 2 });
      const pages = [await get(jar, '/app'), await get(jar, '/teams'), await get(jar, '/developers')];
      expect(pages.map((p) => p.status)).toEqual([200, 200, 429]);
      expect(Number(pages[2]!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(pages[2]!.body).toContain('Too many calls');
    } finally {
      server = previous;
    }
  });

  it('counts a burst of parallel guesses before checking any, so at most 5 are checked', async () => {
    const previous = server;
    // A server of its own: the address's count must start at zero.
    server = await startServer();
    try {
      const { email } = await member();
      // Each guess needs its form page first; fetch them all, then send the guesses at once.
      const jars = Array.from({ length: 30 }, () => new Jar());
      const tokens = await Promise.all(jars.map(async (jar) => csrfOf(await get(jar, '/signin'))));
      const answers = await Promise.all(
        jars.map((jar, i) => request(jar, 'POST', '/signin', { _csrf: tokens[i]!, email, password: `guess ${i}` })),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 400).length).toBe(5);
      expect(statuses.filter((s) => s === 429).length).toBe(25);
    } finally {
      await server.stop();
      server = previous;
    }
  });
});
