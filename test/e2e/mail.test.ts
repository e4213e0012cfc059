/**
 * Email end to end (issue 22): the real server sends through a real SMTP server on loopback (test/helpers/
 * smtp-server.ts), which keeps every mail parsed. Invitations, "Forgot your password?", the CLI's person reset and
 * person invite, and changing one's email; a server that fails for a while; and all of it absent without SMTP_URL.
 * The server's clock is the real one: the CLI queues mail stamped with it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/support/password.js';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open.js';
import { CLI, runCliWith } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { databaseEnv, testDatabase } from '../helpers/database-env.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { freePort, startServer, type TestServer } from '../helpers/server.js';
import { startOidcProvider, type TestProvider } from '../helpers/oidc-provider.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.js';
import { memberWithTeam, WEB_PASSWORD, WebVisitor } from '../helpers/web-forms.js';

const FROM = 'links@example.test';
const NEW_PASSWORD = 'a fresh passphrase';

/** The real time, as a TestClock (which startServer takes): mail the CLI queues is due at once for the server. */
class RealClock extends TestClock {
  override now(): Date {
    return new Date();
  }
}

let mails = 0;
const newEmail = (what: string) => `${what}${++mails}@example.com`;
const pathOf = (server: TestServer, link: string) => link.slice(server.url.length);

async function signUp(server: TestServer, email: string): Promise<WebVisitor> {
  const visitor = new WebVisitor(server.url);
  expect((await visitor.signUp(email)).status).toBe(303);
  return visitor;
}

async function signIn(server: TestServer, email: string, password: string) {
  return new WebVisitor(server.url).submit('/signin', '/signin', { email, password });
}

/** The server's `shortlinks_mail_messages_total` series by outcome, from its /metrics. */
async function mailMetrics(server: TestServer): Promise<Record<string, number>> {
  const text = await (await fetch(`http://${server.app.metricsAddress()}/metrics`)).text();
  return Object.fromEntries([...text.matchAll(/^shortlinks_mail_messages_total\{outcome="(\w+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
}

describe('with SMTP_URL', () => {
  let smtp: TestSmtpServer;
  let server: TestServer;
  /** Every message the outbox holds, in any state. */
  const queued = async () => {
    const { pending, sent, failed } = await server.app.ctx.store.mailOutbox.counts();
    return pending + sent + failed;
  };
  const cli = (...args: string[]) =>
    runCliWith({ env: { ...databaseEnv(server.dbPath), PUBLIC_URL: server.url, SMTP_URL: smtp.url, MAIL_FROM: FROM } }, ...args);

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    smtp = await startSmtpServer();
    server = await startServer({
      clock: new RealClock(),
      env: { SMTP_URL: smtp.url, MAIL_FROM: `Short links <${FROM}>`, MAIL_RETRY_MS: '200', TRUST_PROXY: '127.0.0.1', METRICS_PORT: String(await freePort()) },
    });
    await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  describe('forgot your password', () => {
    it('is linked from the sign-in page', async () => {
      const page = await new WebVisitor(server.url).request('GET', '/signin');
      expect(page.body).toContain('<a href="/forgot">Forgot your password?</a>');
    });

    it('mails a one-time link that sets a new password, with which the person signs in', async () => {
      const email = newEmail('forgot');
      await signUp(server, email);
      const visitor = new WebVisitor(server.url, '10.1.0.1');
      const answer = await visitor.submit('/forgot', '/forgot', { email: email.toUpperCase() });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('<h1>Check your email</h1>');

      const mail = await smtp.waitFor(email, /^Set your password for 127\.0\.0\.1:\d+$/);
      expect(mail.from).toBe(FROM);
      const link = smtp.linkIn(mail, `${server.url}/set-password/`);
      expect(mail.html).toContain(`<a href="${link}">${link}</a>`);
      // The old password still works: a stranger may ask for anyone's link.
      expect((await signIn(server, email, WEB_PASSWORD)).status).toBe(303);

      const set = await new WebVisitor(server.url).submit(pathOf(server, link), pathOf(server, link), { password: NEW_PASSWORD });
      expect(set.status).toBe(303);
      expect((await signIn(server, email, NEW_PASSWORD)).status).toBe(303);
      expect((await signIn(server, email, WEB_PASSWORD)).status).toBe(400);
    });

    it('answers the same for an email without an account, and mails nothing', async () => {
      const known = newEmail('known');
      await signUp(server, known);
      const visitor = new WebVisitor(server.url, '10.1.0.2');
      const before = await queued();
      const unknownAnswer = await visitor.submit('/forgot', '/forgot', { email: newEmail('nobody') });
      expect(await queued()).toBe(before);
      const knownAnswer = await visitor.submit('/forgot', '/forgot', { email: known });
      expect(await queued()).toBe(before + 1);
      expect(unknownAnswer.status).toBe(200);
      expect(unknownAnswer.body).toBe(knownAnswer.body);
    });

    it('mails an address at most 3 times an hour, answering the 4th the same', async () => {
      const email = newEmail('often');
      await signUp(server, email);
      const visitor = new WebVisitor(server.url, '10.1.0.3');
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await visitor.submit('/forgot', '/forgot', { email }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      await smtp.waitFor(email);
      await expect.poll(() => smtp.mails.filter((m) => m.to === email).length, { timeout: 10_000 }).toBe(3);
      expect(await server.app.ctx.store.mailOutbox.counts()).toMatchObject({ pending: 0 });
      expect(smtp.mails.filter((m) => m.to === email)).toHaveLength(3);
    });

    it('refuses a network that asks 20 times in an hour, with 429 and Retry-After', async () => {
      const visitor = new WebVisitor(server.url, '10.1.0.4');
      for (let i = 0; i < 20; i++) expect((await visitor.submit('/forgot', '/forgot', { email: newEmail('many') })).status).toBe(200);
      const refused = await visitor.submit('/forgot', '/forgot', { email: newEmail('many') });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body).toContain('Too many links were asked for from your network in the last hour.');
    });

    it('answers 400 for what is not an email, mailing nothing', async () => {
      const before = await queued();
      const answer = await new WebVisitor(server.url, '10.1.0.5').submit('/forgot', '/forgot', { email: 'not an email' });
      expect(answer.status).toBe(400);
      expect(answer.body).toContain('Enter an email address, like name@example.com.');
      expect(await queued()).toBe(before);
    });
  });

  it('tries again when the SMTP server fails, delivering the message once, and the request never fails', async () => {
    const email = newEmail('retry');
    await signUp(server, email);
    const refusedBefore = smtp.refused();
    smtp.failNext(2);
    const answer = await new WebVisitor(server.url, '10.1.0.6').submit('/forgot', '/forgot', { email });
    expect(answer.status).toBe(200);
    await smtp.waitFor(email, /Set your password/, 15_000);
    expect(smtp.refused() - refusedBefore).toBe(2);
    await expect.poll(() => server.app.ctx.store.mailOutbox.counts(), { timeout: 5_000 }).toMatchObject({ pending: 0, failed: 0 });
    expect(smtp.mails.filter((m) => m.to === email)).toHaveLength(1);
    // Counted by outcome: the two refusals (the only ones in this file) and every message sent; none given up, so
    // that series is left out.
    const { sent } = await server.app.ctx.store.mailOutbox.counts();
    expect(await mailMetrics(server)).toEqual({ sent, retried: 2 });
  });

  it('mails a team invitation to the invitee, answering the same whether or not they have an account', async () => {
    const { visitor, team } = await memberWithTeam(server.url, newEmail('owner'), 'Crew & Co');
    const stranger = newEmail('stranger');
    const member = newEmail('member');
    await signUp(server, member);
    const first = await visitor.submit(`/teams/${team}`, `/teams/${team}/members`, { email: stranger });
    const second = await visitor.submit(`/teams/${team}`, `/teams/${team}/members`, { email: member });
    expect([first.status, first.location]).toEqual([303, `/teams/${team}?done=invited`]);
    expect([second.status, second.location]).toEqual([303, `/teams/${team}?done=invited`]);
    for (const to of [stranger, member]) {
      const mail = await smtp.waitFor(to);
      expect(mail.subject).toMatch(/^owner\d+@example\.com invited you to the team Crew & Co on 127\.0\.0\.1:\d+$/);
      expect(mail.text).toContain(`${server.url}/teams`);
      expect(mail.html).toContain('Crew &amp; Co');
    }
  });

  it('person reset mails the link instead of printing it', async () => {
    const email = newEmail('reset');
    await signUp(server, email);
    const run = await cli('person', 'reset', '--email', email);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`mailed to ${email}: a link to set their password`);
    expect(run.stdout).not.toContain('/set-password/');
    const link = smtp.linkIn(await smtp.waitFor(email, /Set your password/), `${server.url}/set-password/`);
    const set = await new WebVisitor(server.url).submit(pathOf(server, link), pathOf(server, link), { password: NEW_PASSWORD });
    expect(set.status).toBe(303);
    expect((await signIn(server, email, NEW_PASSWORD)).status).toBe(303);
  });

  it('person invite mails the sign-up link instead of printing it', async () => {
    const email = newEmail('invited');
    const run = await cli('person', 'invite', '--email', email, '--json');
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(answer).toMatchObject({ email, mailedTo: email, signup: 'open' });
    expect(answer).not.toHaveProperty('signupUrl');
    const mail = await smtp.waitFor(email, /^Your invitation to /);
    const link = smtp.linkIn(mail, `${server.url}/signup?invitation=`);
    const page = await new WebVisitor(server.url).request('GET', pathOf(server, link));
    expect(page.body).toContain(`You were invited as ${email}: choose a password.`);
  });

  describe('changing the email', () => {
    async function askToChange(visitor: WebVisitor, email: string, password = WEB_PASSWORD) {
      return visitor.submit('/account/email', '/account/email', { email, password });
    }

    it('needs the current password, and changes the email only when the mailed link is followed', async () => {
      const old = newEmail('old');
      const wanted = newEmail('new');
      const visitor = await signUp(server, old);
      await visitor.submit('/welcome', '/welcome', { agree: 'yes' });
      const wrong = await askToChange(visitor, wanted, 'not my password');
      expect(wrong.status).toBe(400);
      expect(wrong.body).toContain('This is not your current password.');

      const asked = await askToChange(visitor, wanted);
      expect(asked.status).toBe(200);
      expect(asked.body).toContain(`We mailed a link to ${wanted}. Your email stays ${old} until you follow it`);
      expect((await signIn(server, old, WEB_PASSWORD)).status).toBe(303);

      const link = smtp.linkIn(await smtp.waitFor(wanted, /^Confirm your new email address/), `${server.url}/account/email/confirm/`);
      // Opening the link changes nothing (a mail scanner may open it); its button does.
      const opened = await new WebVisitor(server.url).request('GET', pathOf(server, link));
      expect(opened.status).toBe(200);
      expect((await signIn(server, old, WEB_PASSWORD)).status).toBe(303);
      const confirmed = await new WebVisitor(server.url).submit(pathOf(server, link), pathOf(server, link), {});
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toContain(`You sign in as ${wanted} from now on.`);
      expect((await signIn(server, wanted, WEB_PASSWORD)).status).toBe(303);
      expect((await signIn(server, old, WEB_PASSWORD)).status).toBe(400);

      const again = await new WebVisitor(server.url).submit(pathOf(server, link), pathOf(server, link), {});
      expect(again.status).toBe(410);
      expect(again.body).toContain('This link was already used');
    });

    it('is refused with a clear page when someone took the address meanwhile', async () => {
      const me = newEmail('me');
      const wanted = newEmail('wanted');
      const visitor = await signUp(server, me);
      await visitor.submit('/welcome', '/welcome', { agree: 'yes' });
      expect((await askToChange(visitor, wanted)).status).toBe(200);
      const link = smtp.linkIn(await smtp.waitFor(wanted), `${server.url}/account/email/confirm/`);
      await signUp(server, wanted);
      const refused = await new WebVisitor(server.url).submit(pathOf(server, link), pathOf(server, link), {});
      expect(refused.status).toBe(409);
      expect(refused.body).toContain(`Someone made an account with ${wanted} meanwhile, so your email stays as it was.`);
      expect((await signIn(server, me, WEB_PASSWORD)).status).toBe(303);
    });

    it('refuses an address that already has an account, mailing nothing', async () => {
      const taken = newEmail('taken');
      await signUp(server, taken);
      const visitor = await signUp(server, newEmail('someone'));
      await visitor.submit('/welcome', '/welcome', { agree: 'yes' });
      const before = await queued();
      const refused = await askToChange(visitor, taken);
      expect(refused.status).toBe(409);
      expect(refused.body).toContain('An account with this email already exists.');
      expect(await queued()).toBe(before);
    });

    it('answers 404 for a link that is not one of ours', async () => {
      const path = `/account/email/confirm/${'x'.repeat(43)}`;
      const answer = await new WebVisitor(server.url).submit(path, path, {});
      expect(answer.status).toBe(404);
    });
  });
});

describe('with SMTP_URL and OIDC_ONLY=1', () => {
  let smtp: TestSmtpServer;
  let provider: TestProvider;
  let server: TestServer;
  const queued = async () => Object.values(await server.app.ctx.store.mailOutbox.counts()).reduce((a, b) => a + b, 0);

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    smtp = await startSmtpServer();
    // Started so the configuration is a real one; these tests never sign in with it.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider(url);
    server = await startServer({
      clock: new RealClock(),
      env: { PORT: String(port), PUBLIC_URL: url, OIDC_NAME: 'Example ID', OIDC_ONLY: '1', ...provider.env, SMTP_URL: smtp.url, MAIL_FROM: FROM },
    });
    server = Object.assign(server, { url });
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.close();
    await smtp?.close();
  });

  /** A person with WEB_PASSWORD, made as the operator's `person add` makes one (sign-up is closed to passwords). */
  async function person(email: string, operator: boolean) {
    const store = server.app.ctx.store;
    const added = await store.people.add({ email, passwordHash: await hashPassword(WEB_PASSWORD), agreedTerms: true }, new Date());
    if (operator) await store.people.setOperator(added.id, true);
  }
  /** The password form, which here only operators are shown by default. */
  const passwordSignIn = (email: string, password: string) =>
    new WebVisitor(server.url).submit('/signin?password=1', '/signin', { email, password });

  it('mails a set-password link to an operator only, answering everyone the same', async () => {
    const operator = newEmail('operator');
    const member = newEmail('member');
    await person(operator, true);
    await person(member, false);
    const visitor = new WebVisitor(server.url, '10.2.0.1');
    const before = await queued();
    const memberAnswer = await visitor.submit('/forgot', '/forgot', { email: member });
    expect(await queued()).toBe(before);
    const operatorAnswer = await visitor.submit('/forgot', '/forgot', { email: operator });
    expect(await queued()).toBe(before + 1);
    const nobodyAnswer = await visitor.submit('/forgot', '/forgot', { email: newEmail('nobody') });
    expect([memberAnswer.status, operatorAnswer.status, nobodyAnswer.status]).toEqual([200, 200, 200]);
    expect(memberAnswer.body).toContain('<h1>Check your email</h1>');
    expect(memberAnswer.body).toBe(operatorAnswer.body);
    expect(nobodyAnswer.body).toBe(operatorAnswer.body);

    const link = smtp.linkIn(await smtp.waitFor(operator, /Set your password/), `${server.url}/set-password/`);
    const set = await new WebVisitor(server.url).submit(pathOf(server, link), pathOf(server, link), { password: NEW_PASSWORD });
    expect([set.status, set.location]).toEqual([303, '/app']);
    await expect.poll(() => server.app.ctx.store.mailOutbox.counts()).toMatchObject({ pending: 0 });
    expect(smtp.mails.filter((m) => m.to === member)).toEqual([]);
  });

  it("sets a non-operator's password from the operator's person reset link, but signs them in only with single sign-on", async () => {
    const member = newEmail('member');
    await person(member, false);
    const run = await runCliWith({ env: { ...databaseEnv(server.dbPath), PUBLIC_URL: server.url, SMTP_URL: smtp.url, MAIL_FROM: FROM } }, 'person', 'reset', '--email', member);
    expect(run.code, run.stderr).toBe(0);
    const link = smtp.linkIn(await smtp.waitFor(member, /Set your password/), `${server.url}/set-password/`);
    const set = await new WebVisitor(server.url).submit(pathOf(server, link), pathOf(server, link), { password: NEW_PASSWORD });
    expect(set.status).toBe(200);
    expect(set.body).toContain('<p role="status">Your password is set, but here only operators sign in with a password: sign in with Example ID.</p>');
    expect(set.body).toContain('<a class="button" href="/signin/oidc">Sign in with Example ID</a>');
    expect(set.headers.getSetCookie().join()).not.toContain('sl_session=');
    // The password is the new one (right, so refused as a non-operator's: 403), and the link is spent.
    expect((await passwordSignIn(member, NEW_PASSWORD)).status).toBe(403);
    expect((await passwordSignIn(member, WEB_PASSWORD)).status).toBe(400);
    expect((await new WebVisitor(server.url).request('GET', pathOf(server, link))).status).toBe(410);
  });
});

describe('without SMTP_URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it('shows no forgot link, answers 404 at /forgot, and leaves email changes to the operator', async () => {
    const visitor = new WebVisitor(server.url);
    expect((await visitor.request('GET', '/signin')).body).not.toContain('/forgot');
    expect((await visitor.request('GET', '/forgot')).status).toBe(404);
    expect((await visitor.request('POST', '/forgot', { email: 'a@example.com' })).status).toBe(404);
    const email = newEmail('plain');
    expect((await visitor.signUp(email)).status).toBe(303);
    await visitor.submit('/welcome', '/welcome', { agree: 'yes' });
    const page = await visitor.request('GET', '/account/email');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Here the operator of this service changes emails: ask them.');
    expect(page.body).not.toContain('name="password"');
    expect(await server.app.ctx.store.mailOutbox.counts()).toEqual({ pending: 0, sent: 0, failed: 0 });
  });
});

describe('WORKERS=2', () => {
  let dir: string;
  let smtp: TestSmtpServer;
  let server: ServerProcess;
  let database: { DATABASE_PATH: string; DATABASE_URL?: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shortlinks-mail-'));
    database = await testDatabase(join(dir, 'mail.db'));
    smtp = await startSmtpServer();
    server = await startServerProcess({ dbPath: database.DATABASE_PATH, env: { ...database, WORKERS: '2', SMTP_URL: smtp.url, MAIL_FROM: FROM } });
  });
  afterAll(async () => {
    if (server?.exitCode() === null) await server.stop();
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends each queued message once, though both worker processes look at the outbox', async () => {
    const store = await openStore(loadConfig(database));
    const recipients = Array.from({ length: 30 }, (_, i) => `worker${i}@example.com`);
    try {
      for (const to of recipients) await store.mailOutbox.enqueue({ to, subject: 'Once', text: 'Once', html: '<p>Once</p>' }, new Date());
    } finally {
      await store.close();
    }
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(30);
    // Two more rounds of both senders: nothing goes out again.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(smtp.mails.map((m) => m.to).sort()).toEqual([...recipients].sort());
  });
});
