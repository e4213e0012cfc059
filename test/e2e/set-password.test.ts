/**
 * Set-password links end to end: the compiled operator CLI prints them (`person add` without --password,
 * `person reset`), and a browser without JavaScript uses them on the real server over HTTP, CSRF field included.
 * The server's clock starts at the real time, because the CLI stamps links with it.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCliWith } from '../helpers/cli.js';
import { call, expectProblem, startServer, TestClock, type TestServer } from '../helpers/server.js';
import { WebVisitor, type WebPage } from '../helpers/web-forms.js';

const PASSWORD = 'a brand new passphrase';
const HOUR = 3_600_000;

let server: TestServer;
let people = 0;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  server = await startServer({ clock: new TestClock(new Date()) });
});
afterAll(() => server.stop());

function cli(...args: string[]) {
  return runCliWith({ env: { DATABASE_PATH: server.dbPath, PUBLIC_URL: server.url } }, ...args);
}

/** `person add --email E --json` without a password: the person and the path of their link. */
async function addPerson(extra: string[] = []): Promise<{ email: string; id: string; path: string }> {
  const email = `setpw${++people}@example.com`;
  const run = await cli('person', 'add', '--email', email, ...extra, '--json');
  expect(run.code, run.stderr).toBe(0);
  const added = JSON.parse(run.stdout) as { id: string; setPasswordUrl: string };
  expect(added.setPasswordUrl.startsWith(`${server.url}/set-password/`)).toBe(true);
  return { email, id: added.id, path: added.setPasswordUrl.slice(server.url.length) };
}

/** Opens the link and sends its form, as the person would. */
async function setPassword(visitor: WebVisitor, path: string, password = PASSWORD): Promise<WebPage> {
  return visitor.submit(path, path, { password });
}

async function signIn(email: string, password: string): Promise<{ visitor: WebVisitor; page: WebPage }> {
  const visitor = new WebVisitor(server.url);
  return { visitor, page: await visitor.submit('/signin', '/signin', { email, password }) };
}

function expectBroken(page: WebPage, status: number, words: RegExp): void {
  expect(page.status).toBe(status);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.body).toContain('<h1>This link cannot be used</h1>');
  expect(page.body).toMatch(words);
  expect(page.body).not.toContain('name="password"');
}

describe('set-password link', () => {
  it('shows a form naming the person, sends no Referer, and works once: the person is signed in', async () => {
    const person = await addPerson();
    const visitor = new WebVisitor(server.url);
    const form = await visitor.request('GET', person.path);
    expect(form.status).toBe(200);
    expect(form.headers.get('referrer-policy')).toBe('no-referrer');
    expect(form.body).toContain(`<strong>${person.email}</strong>`);
    expect(form.body).toContain(`action="${person.path}"`);
    expect(form.body).toContain('autocomplete="new-password"');

    const set = await setPassword(visitor, person.path);
    expect(set.status).toBe(303);
    // This browser knows the password now: it gets the device cookie a sign-in gives (device-cookie.ts).
    expect(set.headers.getSetCookie().some((line) => /^sl_device=[\w-]+\.[\w-]+; /.test(line))).toBe(true);
    // Not agreed to the terms yet (added without --agree-terms): the first step comes next.
    expect(set.location).toBe('/welcome');
    const welcome = await visitor.request('GET', '/welcome');
    expect(welcome.status).toBe(200);
    expect(welcome.body).toContain(person.email);
  });

  it('sets a password the person can then sign in with; a person who agreed goes to /app', async () => {
    const person = await addPerson(['--agree-terms']);
    const set = await setPassword(new WebVisitor(server.url), person.path);
    expect(set.status).toBe(303);
    expect(set.location).toBe('/app');
    const { visitor, page } = await signIn(person.email, PASSWORD);
    expect(page.status).toBe(303);
    expect(page.location).toBe('/app');
    expect((await visitor.request('GET', '/app')).status).toBe(200);
    expect((await signIn(person.email, 'not the password')).page.status).toBe(400);
  });

  it('answers 410 the second time, on GET and POST, and the first password stays', async () => {
    const person = await addPerson();
    expect((await setPassword(new WebVisitor(server.url), person.path)).status).toBe(303);
    const again = new WebVisitor(server.url);
    expectBroken(await again.request('GET', person.path), 410, /already used/);
    const form = await again.submit('/signin', person.path, { password: 'someone else’s password' });
    expectBroken(form, 410, /already used/);
    expect((await signIn(person.email, PASSWORD)).page.status).toBe(303);
    expect((await signIn(person.email, 'someone else’s password')).page.status).toBe(400);
  });

  it('answers 410 once 24 hours have passed', async () => {
    // The CLI stamps the link with the real time, which has moved on since the server started.
    const before = Date.now();
    const person = await addPerson();
    const visitor = new WebVisitor(server.url);
    server.clock.current = new Date(before + 23 * HOUR);
    expect((await visitor.request('GET', person.path)).status).toBe(200);
    server.clock.current = new Date(Date.now() + 24 * HOUR + 1000);
    try {
      expectBroken(await visitor.request('GET', person.path), 410, /expired/);
      // The dead link's page has no form: the CSRF field comes from another page of the site.
      expectBroken(await visitor.submit('/signin', person.path, { password: PASSWORD }), 410, /expired/);
    } finally {
      server.clock.current = new Date();
    }
    expect((await signIn(person.email, PASSWORD)).page.status).toBe(400);
  });

  it('answers 404 for an unknown token and for anything that cannot be one', async () => {
    const visitor = new WebVisitor(server.url);
    expectBroken(await visitor.request('GET', `/set-password/${'A'.repeat(43)}`), 404, /does not work/);
    expectBroken(await visitor.request('GET', '/set-password/short'), 404, /does not work/);
    expectBroken(await visitor.submit('/signin', `/set-password/${'B'.repeat(43)}`, { password: PASSWORD }), 404, /does not work/);
  });

  it('refuses a short password beside the field, and the link still works', async () => {
    const person = await addPerson();
    const visitor = new WebVisitor(server.url);
    const short = await setPassword(visitor, person.path, 'short');
    expect(short.status).toBe(400);
    expect(short.body).toContain('Choose a password of 8 to 1024 characters.');
    expect(short.body).toContain('aria-invalid="true"');
    expect((await setPassword(visitor, person.path)).status).toBe(303);
  });

  it('refuses a form without its CSRF field (403) and spends nothing', async () => {
    const person = await addPerson();
    const visitor = new WebVisitor(server.url);
    await visitor.request('GET', person.path);
    const forged = await visitor.request('POST', person.path, { password: PASSWORD });
    expect(forged.status).toBe(403);
    expect((await setPassword(visitor, person.path)).status).toBe(303);
  });

  it('is reserved from short link names', async () => {
    const actor = await server.person();
    const made = await call(server, 'createLink', { team: actor.teamId, destination: 'https://example.com/x', name: 'set-password' }, actor.token);
    expectProblem(server, made, 400, 'reserved_name', 'name');
  });
});

describe('person reset', () => {
  it("ends the person's web sessions, their password and earlier link; the fresh link works", async () => {
    const person = await addPerson(['--agree-terms']);
    const first = new WebVisitor(server.url);
    expect((await setPassword(first, person.path)).status).toBe(303);
    const { visitor: second } = await signIn(person.email, PASSWORD);
    expect((await first.request('GET', '/app')).status).toBe(200);
    expect((await second.request('GET', '/app')).status).toBe(200);

    const other = await addPerson(['--agree-terms']);
    const untouched = new WebVisitor(server.url);
    expect((await setPassword(untouched, other.path)).status).toBe(303);

    const run = await cli('person', 'reset', '--email', person.email, '--json');
    expect(run.code, run.stderr).toBe(0);
    const reset = JSON.parse(run.stdout) as { sessionsEnded: number; setPasswordUrl: string };
    expect(reset.sessionsEnded).toBe(2);

    for (const visitor of [first, second]) {
      const app = await visitor.request('GET', '/app');
      expect(app.status).toBe(303);
      expect(app.location).toBe('/signin?next=%2Fapp');
    }
    expect((await untouched.request('GET', '/app')).status).toBe(200);
    expect((await signIn(person.email, PASSWORD)).page.status).toBe(400);

    const fresh = reset.setPasswordUrl.slice(server.url.length);
    expect(fresh).not.toBe(person.path);
    const anyone = new WebVisitor(server.url);
    expectBroken(await anyone.request('GET', person.path), 404, /newer link replaced it/);
    expect((await setPassword(anyone, fresh, 'the password after the reset')).status).toBe(303);
    expect((await signIn(person.email, 'the password after the reset')).page.status).toBe(303);
  });

  it('makes earlier unused links stop working', async () => {
    const person = await addPerson();
    const run = await cli('person', 'reset', '--email', person.email, '--json');
    expect(run.code, run.stderr).toBe(0);
    const visitor = new WebVisitor(server.url);
    expectBroken(await visitor.request('GET', person.path), 404, /does not work/);
    expectBroken(await visitor.submit('/signin', person.path, { password: PASSWORD }), 404, /does not work/);
  });
});
