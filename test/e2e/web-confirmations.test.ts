/**
 * Revoking a token, leaving a team and removing a member ask first, as deleting a link does (docs/behaviour.md
 * "The first hour of a private instance"): the lists link to a page that says what goes, and only its form does it.
 * Disconnecting an assistant is test/e2e/oauth-assistants.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../helpers/server.js';
import { memberWithTeam, startWebServer, WebVisitor } from '../helpers/web-forms.js';

let server: TestServer;
beforeAll(async () => {
  server = await startWebServer();
});
afterAll(() => server.stop());

let people = 0;
const nextEmail = () => `confirm${++people}@example.com`;

describe('revoking a token', () => {
  it('the list links to a page that asks; the token works until its form is sent', async () => {
    const visitor = new WebVisitor(server.url);
    const token = await visitor.newAccountWithToken(nextEmail());
    const id = `tok_${token.slice(3, 19)}`;
    const list = await visitor.request('GET', '/developers');
    expect(list.body).toContain(`<a href="/developers/tokens/${id}/revoke" aria-label="Revoke token ${id}…">Revoke…</a>`);
    expect(list.body).not.toContain('action="/developers/tokens/revoke"');

    const asks = await visitor.request('GET', `/developers/tokens/${id}/revoke`);
    expect(asks.status).toBe(200);
    expect(asks.body).toContain(`<h1>Revoke the token “${id}”?</h1>`);
    expect(asks.body).toContain(`<input type="hidden" name="id" value="${id}">`);
    expect(asks.body).toContain('<button type="submit" class="danger">Revoke the token</button>');
    expect(asks.body).toContain('<a href="/developers" style="margin-left:1rem">Keep the token</a>');
    expect((await call(server, 'listTeams', {}, token)).status).toBe(200);

    const revoked = await visitor.submit(`/developers/tokens/${id}/revoke`, '/developers/tokens/revoke', { id });
    expect([revoked.status, revoked.location]).toEqual([303, '/developers?done=revoked']);
    expect((await call(server, 'listTeams', {}, token)).status).toBe(401);
  });

  it("asks about none but the person's own tokens: the not-found page", async () => {
    const owner = new WebVisitor(server.url);
    const token = await owner.newAccountWithToken(nextEmail());
    const stranger = new WebVisitor(server.url);
    await stranger.newAccountWithToken(nextEmail());
    expect((await stranger.request('GET', `/developers/tokens/tok_${token.slice(3, 19)}/revoke`)).status).toBe(404);
    expect((await stranger.request('GET', '/developers/tokens/tok_nothing/revoke')).status).toBe(404);
  });
});

describe('leaving a team and removing a member', () => {
  it('leaving: the team page links to a page that asks; its form leaves', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, nextEmail(), 'Owners');
    const { visitor: stranger } = await memberWithTeam(server.url, nextEmail(), 'Theirs');
    const email = nextEmail();
    const joiner = await memberWithTeam(server.url, email, 'Joiner');
    expect((await owner.submit(`/teams/${team}`, `/teams/${team}/members`, { email })).status).toBe(303);
    expect((await joiner.visitor.submit('/teams', `/teams/${team}/accept`, {})).status).toBe(303);

    const page = await joiner.visitor.request('GET', `/teams/${team}`);
    expect(page.body).toContain(`<a href="/teams/${team}/leave">Leave team…</a>`);
    expect(page.body).not.toContain(`action="/teams/${team}/leave"`);
    const asks = await joiner.visitor.request('GET', `/teams/${team}/leave`);
    expect(asks.status).toBe(200);
    expect(asks.body).toContain('<h1>Leave the team “Owners”?</h1>');
    expect(asks.body).toContain('<button type="submit" class="danger">Leave the team</button>');
    expect(asks.body).toContain(`<a href="/teams/${team}" style="margin-left:1rem">Stay in the team</a>`);
    expect(await memberEmails(team)).toContain(email);
    const left = await joiner.visitor.submit(`/teams/${team}/leave`, `/teams/${team}/leave`, {});
    expect([left.status, left.location]).toEqual([303, '/teams?done=left']);
    expect(await memberEmails(team)).not.toContain(email);
    // Not a member: no page that asks.
    expect((await stranger.request('GET', `/teams/${team}/leave`)).status).toBe(404);
  });

  it('removing: the owner sees a link per member to a page that names them; its form removes', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, nextEmail(), 'Crew');
    const email = nextEmail();
    const joiner = await memberWithTeam(server.url, email, 'Elsewhere');
    expect((await owner.submit(`/teams/${team}`, `/teams/${team}/members`, { email })).status).toBe(303);
    expect((await joiner.visitor.submit('/teams', `/teams/${team}/accept`, {})).status).toBe(303);
    const personId = (await server.app.ctx.store.people.findByEmail(email))!.id;

    const page = await owner.request('GET', `/teams/${team}`);
    expect(page.body).toContain(`<a href="/teams/${team}/members/remove?person=${personId}" aria-label="Remove: ${email}…">Remove…</a>`);
    expect(page.body).not.toContain(`action="/teams/${team}/members/remove"`);
    const asks = await owner.request('GET', `/teams/${team}/members/remove?person=${personId}`);
    expect(asks.status).toBe(200);
    expect(asks.body).toContain(`<h1>Remove ${email} from “Crew”?</h1>`);
    expect(asks.body).toContain(`<input type="hidden" name="person" value="${personId}">`);
    expect(asks.body).toContain('<button type="submit" class="danger">Remove them</button>');
    expect(await memberEmails(team)).toContain(email);
    const removed = await owner.submit(`/teams/${team}/members/remove?person=${personId}`, `/teams/${team}/members/remove`, { person: personId });
    expect([removed.status, removed.location]).toEqual([303, `/teams/${team}?done=removed`]);
    expect(await memberEmails(team)).not.toContain(email);
    // Someone not in the team: no page that asks.
    expect((await owner.request('GET', `/teams/${team}/members/remove?person=${personId}`)).status).toBe(404);
  });
});

async function memberEmails(team: string): Promise<string[]> {
  return (await server.app.ctx.store.teams.members(team)).map((m) => m.email);
}
