import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startServer, type TestServer } from '../helpers/server.js';
import { WEB_PASSWORD, WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * Tokens on the Developers page: a label, and post/redirect/get: the form's answer is a redirect to the page that
 * shows the new token once, so reloading that page neither shows it again nor makes another.
 */
let server: TestServer;
let people = 0;

beforeAll(async () => {
  server = await startServer();
  await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
});
afterAll(() => server.stop());

/** A signed-up person who agreed to the terms, with a team. */
async function someone(): Promise<{ visitor: WebVisitor; email: string; team: string }> {
  const visitor = new WebVisitor(server.url);
  const email = `tokens${++people}@example.com`;
  expect((await visitor.signUp(email)).status).toBe(303);
  expect((await visitor.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);
  const made = await visitor.makeTeam('Tokens team');
  return { visitor, email, team: /^\/teams\/(team_[A-Za-z0-9]+)/.exec(made.location!)![1]! };
}

const NEW_TOKEN = /id="new-token"[^>]*value="(sl_[A-Za-z0-9_]+)"/;
const shownToken = (page: WebPage) => NEW_TOKEN.exec(page.body)?.[1];
const setCookie = (page: WebPage, name: string) => page.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));

async function tokensOf(email: string) {
  const person = await server.app.ctx.store.people.findByEmail(email);
  return server.app.ctx.store.tokens.listForPerson(person!.id);
}

describe('making a token on the Developers page', () => {
  it('redirects (303) to the page that shows it once, with its label; a reload shows it no more and makes no other', async () => {
    const { visitor, email, team } = await someone();
    const made = await visitor.submit('/developers', '/developers/tokens', { team, label: '  Deploy script  ' });
    expect(made.status).toBe(303);
    expect(made.location).toBe('/developers');
    expect(made.body).not.toContain('sl_');
    const sealed = setCookie(made, 'sl_new_token')!;
    expect(sealed).toMatch(/^sl_new_token=[A-Za-z0-9_-]+; Max-Age=300; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);

    const shown = await visitor.request('GET', '/developers');
    expect(shown.status).toBe(200);
    const token = shownToken(shown)!;
    expect(token).toMatch(/^sl_[A-Za-z0-9]{16}_[A-Za-z0-9]{40}$/);
    expect(sealed).not.toContain(token.slice(20));
    expect(shown.body).toContain(`<h2 id="made-title" style="margin-top:0">Your new token “Deploy script” for <a href="/teams/${team}">Tokens team</a></h2>`);
    // A Copy button for the token, named without it (its label is read out); the page script it needs is allowed.
    expect(shown.body).toContain(`<button type="button" class="quiet" data-copy="${token}" data-copied="the token" aria-label="Copy the token" hidden>Copy</button>`);
    expect(shown.body).toContain('<script src="/app/scripts/page.js" defer></script>');
    expect(shown.headers.get('content-security-policy')).toMatch(/; script-src 'self'$/);
    expect(shown.body).toMatch(/<tr><td data-label="Label" class="wrap">Deploy script<\/td><td data-label="Team"><a href="\/teams\/team_[A-Za-z0-9]+">Tokens team<\/a><\/td>/);
    expect(setCookie(shown, 'sl_new_token')).toMatch(/^sl_new_token=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);

    const reloaded = await visitor.request('GET', '/developers');
    expect(reloaded.status).toBe(200);
    expect(reloaded.body).not.toContain('id="new-token"');
    expect(reloaded.body).not.toContain(token.slice(20));
    expect(reloaded.body).toContain('Deploy script');
    expect((await tokensOf(email)).map((t) => t.label)).toEqual(['Deploy script']);
    expect((await call(server, 'listTeams', {}, token)).status).toBe(200);
  });

  it('without a label: the list says none, and the title names the team alone', async () => {
    const { visitor, email, team } = await someone();
    expect((await visitor.submit('/developers', '/developers/tokens', { team, label: '   ' })).status).toBe(303);
    const shown = await visitor.request('GET', '/developers');
    expect(shown.body).toContain(`Your new token for <a href="/teams/${team}">Tokens team</a></h2>`);
    expect(shown.body).toContain('<tr><td data-label="Label" class="wrap"><span class="muted">none</span></td>');
    expect((await tokensOf(email)).map((t) => t.label)).toEqual([null]);
  });

  it('refuses a label over 100 characters or with a control character beside the field, making nothing', async () => {
    const { visitor, email, team } = await someone();
    for (const label of ['x'.repeat(101), 'bell\u0007', 'right\u202eto left']) {
      const refused = await visitor.submit('/developers', '/developers/tokens', { team, label });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('<p class="error" id="f-label-error">A label is at most 100 characters, without control characters.</p>');
      expect(refused.body).toContain('aria-invalid="true" aria-describedby="f-label-hint f-label-error"');
      expect(setCookie(refused, 'sl_new_token')).toBeUndefined();
    }
    expect(await tokensOf(email)).toEqual([]);
    expect((await visitor.submit('/developers', '/developers/tokens', { team, label: 'y'.repeat(100) })).status).toBe(303);
    expect((await tokensOf(email)).map((t) => t.label)).toEqual(['y'.repeat(100)]);
  });

  it('shows the token only in the session that made it: a copied or altered cookie shows nothing', async () => {
    const { visitor, email, team } = await someone();
    expect((await visitor.submit('/developers', '/developers/tokens', { team })).status).toBe(303);
    const sealed = visitor.cookies.get('sl_new_token')!;

    // The same person signed in elsewhere (another session), and someone else, each handed the sealed cookie.
    const again = new WebVisitor(server.url);
    expect((await again.submit('/signin', '/signin', { email, password: WEB_PASSWORD })).status).toBe(303);
    const other = (await someone()).visitor;
    for (const elsewhere of [again, other]) {
      elsewhere.cookies.set('sl_new_token', sealed);
      const page = await elsewhere.request('GET', '/developers');
      expect(page.status).toBe(200);
      expect(page.body).not.toContain('id="new-token"');
      expect(elsewhere.cookies.has('sl_new_token')).toBe(false);
    }
    const altered = new WebVisitor(server.url, null, new Map(visitor.cookies));
    altered.cookies.set('sl_new_token', `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`);
    expect((await altered.request('GET', '/developers')).body).not.toContain('id="new-token"');
    altered.cookies.set('sl_new_token', 'not-base64!');
    expect((await altered.request('GET', '/developers')).status).toBe(200);

    // The session that made it still sees it, once.
    expect(shownToken(await visitor.request('GET', '/developers'))).toMatch(/^sl_/);
  });
});
