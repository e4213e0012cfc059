import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_PATH } from '../../src/auth/oidc/provider.js';
import { hashPassword } from '../../src/support/password.js';
import { authorizeUrl, pkce, register } from '../helpers/oauth.js';
import { OIDC_CLIENT, startOidcProvider, type TestProvider } from '../helpers/oidc-provider.js';
import type { LogLine } from '../helpers/server-process.js';
import { freePort, startServer, type TestServer } from '../helpers/server.js';
import { WEB_PASSWORD, WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * Single sign-on with a real OpenID provider (node-oidc-provider) on loopback, over real HTTP: the service discovers
 * it, sends the browser there with PKCE, state and nonce, and signs the person in (or refuses) at the callback.
 */
const NAME = 'Example ID';
let count = 0;
const nextId = () => `oidc${++count}`;

const alertOf = (page: WebPage) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(page.body)?.[1];
const hasPasswordForm = (page: WebPage) => page.body.includes('<form method="post" action="/signin"');
const button = (next = '') => `<a class="button" href="/signin/oidc${next}">Sign in with ${NAME}</a>`;

const CHECKED = `${NAME} did not sign you in, or its answer did not check out. No account was changed.`;
const EXPIRED = 'This sign-in expired or was already used. Start again.';

/** A service on a port chosen first, so the provider can know its redirect URI, and the provider it signs in with. */
async function serviceWithProvider(
  env: Record<string, string> = {},
  options: Parameters<typeof startOidcProvider>[1] = {},
): Promise<{ server: TestServer; provider: TestProvider }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider(url, options);
  const server = await startServer({ env: { PORT: String(port), PUBLIC_URL: url, OIDC_NAME: NAME, ...provider.env, ...env } });
  // startServer's url names the port it chose; the service listens on this one.
  return { server: Object.assign(server, { url }), provider };
}

/** Starts single sign-on from `start` and follows the browser through the provider back to the callback's answer. */
async function signInWith(provider: TestProvider, visitor: WebVisitor, start = '/signin/oidc'): Promise<WebPage> {
  const started = await visitor.request('GET', start);
  expect(started.status).toBe(303);
  const back = await provider.authorize(started.location!);
  return visitor.request('GET', `${back.pathname}${back.search}`);
}

/** A person with a password, made as the operator's `person add` would (agreed, with a team unless told not). */
async function personWithPassword(server: TestServer, email: string, options: { operator?: boolean } = {}) {
  const store = server.app.ctx.store;
  const person = await store.people.add({ email, passwordHash: await hashPassword(WEB_PASSWORD), agreedTerms: true }, server.clock.now());
  await store.teams.add({ name: 'Team', ownerId: person.id }, server.clock.now());
  if (options.operator) await store.people.setOperator(person.id, true);
  return person;
}

/** Refused at the callback: the status, the page's words, no session, and nothing linked. */
async function expectRefused(page: WebPage, status: number, alert: string) {
  expect(page.status).toBe(status);
  expect(alertOf(page)).toBe(alert);
  expect(page.body).toContain(`<h1>Sign-in with ${NAME} failed</h1>`);
  expect(page.headers.getSetCookie().join()).not.toContain('sl_session=');
}

describe('single sign-on', () => {
  let server: TestServer;
  let provider: TestProvider;
  const store = () => server.app.ctx.store;

  beforeAll(async () => {
    // Loopback is the proxy, so a test can be another network (X-Forwarded-For) for the per-network limits.
    ({ server, provider } = await serviceWithProvider({ OIDC_ALLOWED_DOMAINS: 'example.com', TRUST_PROXY: '127.0.0.1' }));
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.close();
  });

  /** The account `sub` at the provider, who signs in next. */
  function atProvider(email: string, verified = true): string {
    const sub = nextId();
    provider.account(sub, { email, verified });
    provider.signInAs({ accountId: sub });
    return sub;
  }

  it('shows the button above the password form, carrying next', async () => {
    const page = await new WebVisitor(server.url).request('GET', '/signin?next=%2Fapp%2Fteams');
    expect(page.status).toBe(200);
    expect(page.body).toContain(button('?next=%2Fapp%2Fteams'));
    expect(page.body.indexOf(button('?next=%2Fapp%2Fteams'))).toBeLessThan(page.body.indexOf('<form method="post" action="/signin"'));
    expect(page.body).toContain('>Make an account</a>');
  });

  it('makes an account without a password for a new verified email, signs in, and starts at the first step', async () => {
    const email = `${nextId()}@example.com`;
    const sub = atProvider(email);
    const visitor = new WebVisitor(server.url);
    const done = await signInWith(provider, visitor);
    expect(done.status).toBe(303);
    expect(done.location).toBe('/welcome');
    const person = await store().people.withPasswordHash(email);
    expect(person).toMatchObject({ passwordHash: null, person: { email, agreedTermsAt: null } });
    expect(await store().oidcIdentities.personOf(provider.issuer, sub)).toBe(person!.person.id);
    const welcome = await visitor.request('GET', '/welcome');
    expect(welcome.status).toBe(200);
    expect(welcome.body).toContain('<h1>Welcome to shortlinks</h1>');
  });

  it('signs in to the existing account of a verified email, and keeps it when the email changes at the provider', async () => {
    const email = `${nextId()}@other.example.org`;
    const person = await personWithPassword(server, email);
    const sub = atProvider(email);
    const visitor = new WebVisitor(server.url);
    const done = await signInWith(provider, visitor);
    expect(done.status).toBe(303);
    expect(done.location).toBe('/app');
    expect(await store().oidcIdentities.personOf(provider.issuer, sub)).toBe(person.id);
    expect((await visitor.request('GET', '/app')).status).toBe(200);

    provider.account(sub, { email: `renamed-${email}`, verified: false });
    const again = await signInWith(provider, new WebVisitor(server.url));
    expect(again.location).toBe('/app');
    expect(await store().people.findByEmail(`renamed-${email}`)).toBeNull();
  });

  it('refuses an unverified email that matches an account, and links nothing', async () => {
    const email = `${nextId()}@example.com`;
    const person = await personWithPassword(server, email);
    const sub = atProvider(email, false);
    const page = await signInWith(provider, new WebVisitor(server.url));
    await expectRefused(page, 403, `${NAME} has not verified your email address ${email}. Verify it there, then try again.`);
    expect(await store().oidcIdentities.personOf(provider.issuer, sub)).toBeNull();
    expect((await store().people.findByEmail(email))?.id).toBe(person.id);
  });

  it('makes no account for an unverified email, nor for a domain OIDC_ALLOWED_DOMAINS leaves out', async () => {
    const unverified = `${nextId()}@example.com`;
    atProvider(unverified, false);
    await expectRefused(await signInWith(provider, new WebVisitor(server.url)), 403, `${NAME} has not verified your email address ${unverified}. Verify it there, then try again.`);
    expect(await store().people.findByEmail(unverified)).toBeNull();

    const outsider = `${nextId()}@elsewhere.org`;
    const sub = atProvider(outsider);
    await expectRefused(await signInWith(provider, new WebVisitor(server.url)), 403, 'Accounts here are made only for addresses at example.com. No account was made.');
    expect(await store().people.findByEmail(outsider)).toBeNull();
    expect(await store().oidcIdentities.personOf(provider.issuer, sub)).toBeNull();
  });

  /** A browser back from the provider with its answer for a new verified email, not yet at the callback. */
  async function backFromProvider() {
    const email = `${nextId()}@example.com`;
    atProvider(email);
    const visitor = new WebVisitor(server.url);
    const started = await visitor.request('GET', '/signin/oidc');
    return { email, visitor, back: await provider.authorize(started.location!) };
  }

  it('refuses a tampered state, a replayed callback, one without its sign-in, and a refusal at the provider', async () => {
    const { email, visitor, back } = await backFromProvider();
    const flow = visitor.cookies.get('sl_oidc')!;
    back.searchParams.set('state', 'not-the-state');
    await expectRefused(await visitor.request('GET', `${back.pathname}${back.search}`), 400, CHECKED);
    // The sign-in is spent: its cookie went with the first answer, and a browser that kept it is refused again.
    await expectRefused(await visitor.request('GET', `${back.pathname}${back.search}`), 400, EXPIRED);
    visitor.cookies.set('sl_oidc', flow);
    await expectRefused(await visitor.request('GET', `${back.pathname}${back.search}`), 400, CHECKED);
    // A changed cookie is no sign-in at all.
    visitor.cookies.set('sl_oidc', `${flow.slice(0, -2)}AA`);
    await expectRefused(await visitor.request('GET', `${back.pathname}${back.search}`), 400, EXPIRED);
    expect(await store().people.findByEmail(email)).toBeNull();

    // The right state, replayed after it signed in: its code was spent at the provider.
    const fresh = new WebVisitor(server.url);
    const first = await fresh.request('GET', '/signin/oidc');
    const answer = await provider.authorize(first.location!);
    const kept = fresh.cookies.get('sl_oidc')!;
    expect((await fresh.request('GET', `${answer.pathname}${answer.search}`)).status).toBe(303);
    const replay = new WebVisitor(server.url);
    replay.cookies.set('sl_oidc', kept);
    await expectRefused(await replay.request('GET', `${answer.pathname}${answer.search}`), 400, CHECKED);

    provider.signInAs({ deny: true });
    await expectRefused(await signInWith(provider, new WebVisitor(server.url)), 400, CHECKED);
  });

  it('refuses a sign-in that waited more than 10 minutes at the provider', async () => {
    const { email, visitor, back } = await backFromProvider();
    server.clock.advance(10 * 60_000 + 1000);
    await expectRefused(await visitor.request('GET', `${back.pathname}${back.search}`), 400, 'This sign-in expired or was already used. Start again.');
    expect(await store().people.findByEmail(email)).toBeNull();
  });

  it("keeps an assistant's sign-in going: from /authorize through the provider to the consent page", async () => {
    const email = `${nextId()}@example.com`;
    await personWithPassword(server, email);
    atProvider(email);
    const { body: client } = await register(server, { client_name: 'Assistant', redirect_uris: ['http://127.0.0.1:33418/callback'] });
    const url = authorizeUrl(server, {
      response_type: 'code', client_id: client.client_id, redirect_uri: 'http://127.0.0.1:33418/callback',
      code_challenge: pkce().challenge, code_challenge_method: 'S256',
    });
    const visitor = new WebVisitor(server.url);
    const first = await visitor.request('GET', `${url.pathname}${url.search}`);
    const next = new URL(first.location!, server.url).searchParams.get('next')!;
    const signin = await visitor.request('GET', first.location!);
    const href = `?next=${encodeURIComponent(next)}`;
    expect(signin.body).toContain(button(href.replaceAll('&', '&amp;')));
    const done = await signInWith(provider, visitor, `/signin/oidc${href}`);
    expect(done.status).toBe(303);
    expect(done.location).toBe(next);
    const consent = await visitor.request('GET', next);
    expect(consent.status).toBe(200);
    expect(consent.body).toContain(`asks to act as <strong>${email}</strong>`);
  });

  it('refuses a next that leaves the site, and goes to /app instead', async () => {
    const email = `${nextId()}@example.com`;
    await personWithPassword(server, email);
    atProvider(email);
    const done = await signInWith(provider, new WebVisitor(server.url), `/signin/oidc?next=${encodeURIComponent('//evil.example/x')}`);
    expect(done.location).toBe('/app');
  });

  it('answers 429 past 30 starts, or 30 callbacks, a minute from one network, and counts each network alone', async () => {
    const TOO_MANY = `Too many sign-ins with ${NAME} came from your network in the last minute. Try again in 60 seconds.`;
    const expectTooMany = (page: WebPage) => {
      expect(page.status).toBe(429);
      expect(page.headers.get('retry-after')).toBe('60');
      expect(page.body).toContain(`<h1>Sign-in with ${NAME} failed</h1>`);
      expect(alertOf(page)).toBe(TOO_MANY);
    };
    const starter = new WebVisitor(server.url, '203.0.113.7');
    for (let i = 0; i < 30; i++) expect((await starter.request('GET', '/signin/oidc')).status).toBe(303);
    expectTooMany(await starter.request('GET', '/signin/oidc'));

    const returner = new WebVisitor(server.url, '203.0.113.7');
    for (let i = 0; i < 30; i++) expect((await returner.request('GET', `${CALLBACK_PATH}?code=x&state=y`)).status).toBe(400);
    expectTooMany(await returner.request('GET', `${CALLBACK_PATH}?code=x&state=y`));

    expect((await new WebVisitor(server.url, '203.0.113.8').request('GET', '/signin/oidc')).status).toBe(303);
    server.clock.advance(60_000);
    expect((await starter.request('GET', '/signin/oidc')).status).toBe(303);
    await expectRefused(await returner.request('GET', `${CALLBACK_PATH}?code=x&state=y`), 400, EXPIRED);
  });

  it('makes accounts while sign-up is closed', async () => {
    await store().settings.setServiceSettings({ signup: 'closed' });
    try {
      const email = `${nextId()}@example.com`;
      atProvider(email);
      const done = await signInWith(provider, new WebVisitor(server.url));
      expect(done.status).toBe(303);
      expect(done.location).toBe('/welcome');
      expect(await store().people.findByEmail(email)).not.toBeNull();
    } finally {
      await store().settings.setServiceSettings({ signup: 'open' });
    }
  });
});

describe('OIDC_ONLY, with a provider that takes only client_secret_post', () => {
  let server: TestServer;
  let provider: TestProvider;

  beforeAll(async () => {
    ({ server, provider } = await serviceWithProvider({ OIDC_ONLY: '1' }, { tokenAuthMethod: 'client_secret_post' }));
  });

  it('sends the client secret in the token request body when the provider lists only client_secret_post', async () => {
    const metadata = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(['client_secret_post']);
    const email = `${nextId()}@example.com`;
    const person = await personWithPassword(server, email);
    const sub = nextId();
    provider.account(sub, { email, verified: true });
    provider.signInAs({ accountId: sub });
    const done = await signInWith(provider, new WebVisitor(server.url));
    expect(done.status).toBe(303);
    expect(done.location).toBe('/app');
    expect(await server.app.ctx.store.oidcIdentities.personOf(provider.issuer, sub)).toBe(person.id);
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.close();
  });

  it('hides the password form and "Make an account"; /signin?password=1 shows the form', async () => {
    const page = await new WebVisitor(server.url).request('GET', '/signin');
    expect(page.status).toBe(200);
    expect(page.body).toContain(button());
    expect(hasPasswordForm(page)).toBe(false);
    expect(page.body).not.toContain('Make an account');
    expect(page.body).not.toContain('New here?');
    expect(hasPasswordForm(await new WebVisitor(server.url).request('GET', '/signin?password=1'))).toBe(true);
  });

  it("refuses a person's right password but lets an operator in", async () => {
    const person = await personWithPassword(server, `${nextId()}@example.com`);
    const refused = await new WebVisitor(server.url).submit('/signin?password=1', '/signin', { email: person.email, password: WEB_PASSWORD });
    expect(refused.status).toBe(403);
    expect(alertOf(refused)).toBe(`Here only operators sign in with a password: sign in with ${NAME}.`);
    expect(refused.headers.getSetCookie().join()).not.toContain('sl_session=');
    const wrong = await new WebVisitor(server.url).submit('/signin?password=1', '/signin', { email: person.email, password: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(alertOf(wrong)).toBe('The email or the password is wrong.');

    const operator = await personWithPassword(server, `${nextId()}@example.com`, { operator: true });
    const visitor = new WebVisitor(server.url);
    const in_ = await visitor.submit('/signin?password=1', '/signin', { email: operator.email, password: WEB_PASSWORD });
    expect(in_.status).toBe(303);
    expect(in_.location).toBe('/app');
    expect((await visitor.request('GET', '/admin')).status).toBe(200);
  });

  it('makes accounts only by single sign-on: /signup points there and a sign-up sent anyway makes nothing', async () => {
    const visitor = new WebVisitor(server.url);
    const signup = await visitor.request('GET', '/signup');
    expect(signup.status).toBe(200);
    expect(signup.body).toContain(`<p>Accounts here are made by signing in with ${NAME}.</p>`);
    expect(signup.body).not.toContain('<form method="post" action="/signup"');
    const email = `${nextId()}@example.com`;
    const sent = await visitor.submit('/signin?password=1', '/signup', { email, password: WEB_PASSWORD });
    expect(sent.status).toBe(403);
    expect(alertOf(sent)).toBe('No account was made.');
    expect(await server.app.ctx.store.people.findByEmail(email)).toBeNull();

    const sub = nextId();
    provider.account(sub, { email, verified: true });
    provider.signInAs({ accountId: sub });
    expect((await signInWith(provider, visitor)).location).toBe('/welcome');
    expect(await server.app.ctx.store.people.findByEmail(email)).not.toBeNull();
  });
});

/** A logger whose warnings a test reads, handed to the service as its log. */
function capturedLog(): { logger: pino.Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

describe('a provider that is down, or that this service cannot use', () => {
  let server: TestServer;
  let provider: TestProvider | undefined;
  let providerPort: number;
  let issuer: string;
  const log = capturedLog();
  // The right client, with a wrong secret: discovery and the authorization work, the token request does not.
  const WRONG_SECRET = 'not-the-client-secret-of-32-chars';
  const ssoLines = () => log.lines.filter((line) => line.msg.startsWith('Single sign-on'));

  beforeAll(async () => {
    const port = await freePort();
    providerPort = await freePort();
    issuer = `http://127.0.0.1:${providerPort}`;
    const env = { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: OIDC_CLIENT.id, OIDC_CLIENT_SECRET: WRONG_SECRET };
    const url = `http://127.0.0.1:${port}`;
    server = Object.assign(await startServer({ env: { PORT: String(port), PUBLIC_URL: url, OIDC_NAME: NAME, ...env }, logger: log.logger }), { url });
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.close();
  });

  it('starts, signs in with a password, answers the button with 503, and tells the log once a minute', async () => {
    const person = await personWithPassword(server, `${nextId()}@example.com`);
    const visitor = new WebVisitor(server.url);
    const signin = await visitor.request('GET', '/signin');
    expect(signin.body).toContain(button());
    expect((await visitor.submit('/signin', '/signin', { email: person.email, password: WEB_PASSWORD })).location).toBe('/app');

    for (let i = 0; i < 3; i++) {
      const down = await new WebVisitor(server.url).request('GET', '/signin/oidc');
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('30');
      expect(alertOf(down)).toBe(`${NAME} cannot be reached right now. Try again in a minute.`);
    }
    const reason = 'TypeError, caused by Error ECONNREFUSED';
    expect(ssoLines()).toEqual([
      expect.objectContaining({ level: 40, issuer, step: 'discovery', reason, leftOut: 0, msg: `Single sign-on with ${issuer} failed at discovery: ${reason}` }),
    ]);
    server.clock.advance(60_000);
    expect((await new WebVisitor(server.url).request('GET', '/signin/oidc')).status).toBe(503);
    expect(ssoLines()).toHaveLength(2);
    expect(ssoLines()[1]).toMatchObject({ reason, leftOut: 2, msg: `Single sign-on with ${issuer} failed at discovery: ${reason} (and 2 more since the last line)` });
  });

  it('refuses to start with a provider that takes neither client_secret_basic nor client_secret_post', async () => {
    provider = await startOidcProvider(server.url, { port: providerPort, tokenAuthMethod: 'client_secret_jwt' });
    try {
      const page = await new WebVisitor(server.url).request('GET', '/signin/oidc');
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBeNull();
      expect(alertOf(page)).toBe(`Sign-in with ${NAME} is not set up correctly here, so it cannot be used. The operator of this service can see why in its log.`);
      const reason = 'its token endpoint takes neither client_secret_basic nor client_secret_post (it lists: client_secret_jwt)';
      expect(ssoLines().at(-1)).toMatchObject({ level: 40, issuer, step: 'discovery', reason, msg: `Single sign-on with ${issuer} failed at discovery: ${reason}` });
    } finally {
      await provider.close();
    }
  });

  it('discovers the provider once it is up, and tells the log a refused token request without the secret or the code', async () => {
    provider = await startOidcProvider(server.url, { port: providerPort });
    const visitor = new WebVisitor(server.url);
    const up = await visitor.request('GET', '/signin/oidc');
    expect(up.status).toBe(303);
    expect(up.location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${providerPort}/auth\\?`));
    const sent = new URL(up.location!);
    expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['code_challenge', 'state', 'nonce']) expect(sent.searchParams.get(name)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const sub = nextId();
    provider.account(sub, { email: `${sub}@example.com`, verified: true });
    provider.signInAs({ accountId: sub });
    const back = await provider.authorize(up.location!);
    await expectRefused(await visitor.request('GET', `${back.pathname}${back.search}`), 400, CHECKED);
    const reason = 'WWWAuthenticateChallengeError OAUTH_WWW_AUTHENTICATE_CHALLENGE invalid_client (HTTP 401)';
    expect(ssoLines().at(-1)).toMatchObject({ level: 40, issuer, step: 'the token exchange', reason, msg: `Single sign-on with ${issuer} failed at the token exchange: ${reason}` });
    const written = JSON.stringify(log.lines);
    for (const secret of [WRONG_SECRET, back.searchParams.get('code')!, back.searchParams.get('state')!]) expect(written).not.toContain(secret);
  });
});
