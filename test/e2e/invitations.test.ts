import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_MS } from '../../src/domain/invitations.js';
import { INVITATIONS_PER_HOUR } from '../../src/web/pages/team-invitations.js';
import type { TestServer } from '../helpers/server.js';
import { memberWithTeam, startWebServer, WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * Joining a team takes the person's yes: a member invites an email, the person accepts or declines on their Teams
 * page. No one is put in a team by someone else, and the form tells no one which emails have accounts.
 */

let server: TestServer;
let people = 0;
beforeAll(async () => {
  server = await startWebServer();
});
afterAll(() => server.stop());

const nextEmail = () => `invite${++people}@example.com`;

/** A new person who agreed to the terms, in no team. */
async function person(email = nextEmail()): Promise<{ visitor: WebVisitor; email: string }> {
  const visitor = new WebVisitor(server.url);
  expect((await visitor.signUp(email)).status).toBe(303);
  expect((await visitor.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);
  return { visitor, email };
}

const invite = (from: WebVisitor, team: string, email: string): Promise<WebPage> =>
  from.submit(`/teams/${team}`, `/teams/${team}/members`, { email });
const answer = (who: WebVisitor, team: string, verb: 'accept' | 'decline'): Promise<WebPage> => who.submit('/teams', `/teams/${team}/${verb}`, {});
const memberEmails = async (team: string) => (await server.app.ctx.store.teams.members(team)).map((m) => m.email);

describe('inviting', () => {
  it('answers the same for an email with an account and one without: no one learns which emails have accounts', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, nextEmail(), 'Crew');
    const known = await person();
    const answers = [await invite(owner, team, known.email), await invite(owner, team, 'nobody-here@example.com')];
    expect(answers.map((page) => [page.status, page.location])).toEqual([
      [303, `/teams/${team}?done=invited`],
      [303, `/teams/${team}?done=invited`],
    ]);
    const page = await owner.request('GET', `/teams/${team}?done=invited`);
    expect(page.body).toContain('Invitation made. They join once they accept it on their Teams page, within a week.');
    expect(page.body).toContain('<h2>Invitations not yet accepted</h2>');
    expect(page.body).toContain(known.email);
    expect(page.body).toContain('nobody-here@example.com');
    // An invitation is not a membership.
    expect(await memberEmails(team)).toHaveLength(1);
    expect((await known.visitor.request('GET', `/teams/${team}`)).status).toBe(404);
  });

  it('refuses what is not an email (400 beside the field), and someone in the team already (409)', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, 'owner-409@example.com', 'Crew');
    const bad = await invite(owner, team, 'not an email');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/id="f-email-error">Enter an email address, like name@example.com/);
    const self = await invite(owner, team, 'OWNER-409@example.com');
    expect(self.status).toBe(409);
    expect(self.body).toMatch(/id="f-email-error">They already are a member/);
    expect(await server.app.ctx.store.invitations.ofTeam(team, server.clock.now())).toEqual([]);
  });

  it('is for members only: anyone else gets 404 and invites no one', async () => {
    const { team } = await memberWithTeam(server.url, nextEmail(), 'Crew');
    const stranger = await person();
    expect((await stranger.visitor.submit('/teams', `/teams/${team}/members`, { email: stranger.email })).status).toBe(404);
    expect(await server.app.ctx.store.invitations.forEmail(stranger.email, server.clock.now())).toEqual([]);
  });

  it(`allows ${INVITATIONS_PER_HOUR} invitations a person an hour, then 429 with Retry-After, inviting no one`, async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, nextEmail(), 'Busy');
    for (let i = 0; i < INVITATIONS_PER_HOUR; i++) expect((await invite(owner, team, `many${i}@example.com`)).status).toBe(303);
    const refused = await invite(owner, team, 'one-more@example.com');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(refused.body).toContain(`You made ${INVITATIONS_PER_HOUR} invitations in the last hour, as many as an hour allows. Try again in 60 minutes.`);
    expect(await server.app.ctx.store.invitations.forEmail('one-more@example.com', server.clock.now())).toEqual([]);
  });
});

describe('answering', () => {
  it('shows the invitation on the Teams page with who sent it; accepting joins the team, and its links are theirs to work on', async () => {
    const ownerEmail = nextEmail();
    const { visitor: owner, team } = await memberWithTeam(server.url, ownerEmail, 'Night shift');
    const joiner = await person();
    await invite(owner, team, joiner.email);
    const teams = await joiner.visitor.request('GET', '/teams');
    expect(teams.body).toContain('<h2 id="invitations-heading" style="margin-top:0">Invitations</h2>');
    expect(teams.body).toContain(`<strong>Night shift</strong> <span class="muted">invited you by ${ownerEmail}`);
    expect(teams.body).toContain(`aria-label="Accept: Night shift"`);

    const accepted = await answer(joiner.visitor, team, 'accept');
    expect([accepted.status, accepted.location]).toEqual([303, `/teams/${team}?done=joined`]);
    expect(await memberEmails(team)).toContain(joiner.email);
    expect((await joiner.visitor.request('GET', `/teams/${team}?done=joined`)).body).toContain('You joined the team.');
    // Answered: it is gone from both pages, and accepting again opens nothing.
    expect((await joiner.visitor.request('GET', '/teams')).body).not.toContain('invitations-heading');
    expect((await owner.request('GET', `/teams/${team}`)).body).not.toContain('Invitations not yet accepted');
    expect((await answer(joiner.visitor, team, 'accept')).location).toBe('/teams?done=not_open');

    const token = await joiner.visitor.submit('/developers', '/developers/tokens', { team });
    expect(token.status).toBe(303);
  });

  it('declining leaves the person out and the invitation gone', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, nextEmail(), 'Crew');
    const invitee = await person();
    await invite(owner, team, invitee.email);
    const declined = await answer(invitee.visitor, team, 'decline');
    expect([declined.status, declined.location]).toEqual([303, '/teams?done=declined']);
    expect(await memberEmails(team)).not.toContain(invitee.email);
    expect(await server.app.ctx.store.invitations.ofTeam(team, server.clock.now())).toEqual([]);
    expect((await answer(invitee.visitor, team, 'accept')).location).toBe('/teams?done=not_open');
    expect(await memberEmails(team)).not.toContain(invitee.email);
  });

  it('a taken back invitation, or one for someone else, opens nothing', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, nextEmail(), 'Crew');
    const invitee = await person();
    const other = await person();
    await invite(owner, team, invitee.email);
    expect((await answer(other.visitor, team, 'accept')).location).toBe('/teams?done=not_open');
    const takenBack = await owner.submit(`/teams/${team}`, `/teams/${team}/invitations/remove`, { email: invitee.email });
    expect([takenBack.status, takenBack.location]).toEqual([303, `/teams/${team}?done=taken_back`]);
    expect((await answer(invitee.visitor, team, 'accept')).location).toBe('/teams?done=not_open');
    expect(await memberEmails(team)).toHaveLength(1);
  });

  it('someone who signs up later with the invited email finds it waiting', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, nextEmail(), 'Early');
    const email = nextEmail();
    await invite(owner, team, email);
    const newcomer = await person(email);
    expect((await newcomer.visitor.request('GET', '/teams')).body).toContain('<strong>Early</strong>');
    expect((await answer(newcomer.visitor, team, 'accept')).location).toBe(`/teams/${team}?done=joined`);
  });

  it('stands for a week', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, nextEmail(), 'Brief');
    const invitee = await person();
    await invite(owner, team, invitee.email);
    server.clock.advance(INVITATION_MS);
    expect((await invitee.visitor.request('GET', '/teams')).body).not.toContain('invitations-heading');
    expect((await answer(invitee.visitor, team, 'accept')).location).toBe('/teams?done=not_open');
    expect(await memberEmails(team)).not.toContain(invitee.email);
  });

  it('takes the form token: a forged accept changes nothing (403)', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, nextEmail(), 'Crew');
    const invitee = await person();
    await invite(owner, team, invitee.email);
    const forged = await invitee.visitor.request('POST', `/teams/${team}/accept`, { _csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(await memberEmails(team)).not.toContain(invitee.email);
  });
});
