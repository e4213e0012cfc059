/**
 * The first hour of a private instance (docs/behaviour.md "The first hour of a private instance"): the operator
 * lifts the creation limits with one command, the CLI prints the addresses the server serves, and a person in no
 * team is led to make or join one. The real server on SQLite, and on PostgreSQL in e2e-postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliWith, type Run } from '../helpers/cli.js';
import { databaseEnv } from '../helpers/database-env.js';
import { call, problem, startServer, type TestServer } from '../helpers/server.js';
import { memberWithTeam, WebVisitor } from '../helpers/web-forms.js';

const LIFTED = 1_000_000_000;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
});
afterAll(() => server.stop());

/** `shortlinks <args> --json` on the server's database, with PUBLIC_URL as given (undefined: not set). */
async function cli(publicUrl: string | undefined, ...args: string[]): Promise<any> {
  const run: Run = await runCliWith({ env: { ...databaseEnv(server.dbPath), PUBLIC_URL: publicUrl } }, ...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

const createLink = (token: string, team: string) => call(server, 'createLink', { team, destination: 'https://example.com/first-hour' }, token);

describe('the CLI prints the address the server serves', () => {
  it('without PUBLIC_URL of its own: the one the server recorded as it started, not localhost', async () => {
    const added = await cli(undefined, 'person', 'add', '--email', 'cli-address@example.com');
    expect(added.setPasswordUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/set-password\/[A-Za-z0-9_-]{43}$/);
    expect(added.setPasswordUrl.startsWith(`${server.url}/set-password/`)).toBe(true);
  });

  it('with PUBLIC_URL set: that one', async () => {
    const reset = await cli('https://links.example.com', 'person', 'reset', '--email', 'cli-address@example.com');
    expect(reset.setPasswordUrl).toMatch(/^https:\/\/links\.example\.com\/set-password\/[A-Za-z0-9_-]{43}$/);
  });
});

describe('limits', () => {
  it('a 429 limit_reached names the limit and says the operator sets it', async () => {
    const actor = await server.person();
    await cli(undefined, 'limits', 'set', '--per-hour', '1');
    expect((await createLink(actor.token, actor.teamId)).status).toBe(200);
    const refused = await createLink(actor.token, actor.teamId);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(refused.body).toEqual({
      ...problem(server, 429, 'limit_reached'),
      title: expect.any(String),
      detail: "The team made 1 link in the last hour. That is the operator's limit of new links per team per hour. Try again in 60 minutes.",
    });
  });

  it('--preset private lifts every creation and change limit and keeps the calls a minute', async () => {
    const before = await cli(undefined, 'limits', 'show');
    const set = await cli(undefined, 'limits', 'set', '--preset', 'private');
    expect(set).toEqual({
      ...before,
      maxLinksPerTeam: LIFTED,
      perHour: LIFTED,
      perDay: LIFTED,
      firstWeekPerDay: LIFTED,
      changesPerHour: LIFTED,
      callsPerMinute: 600,
    });
    // Past the defaults' 25 a team, 20 an hour and 10 a day in the first week, in a new team's first hour.
    const actor = await server.person();
    const made = [];
    for (let i = 0; i < 30; i++) made.push((await createLink(actor.token, actor.teamId)).status);
    expect(made).toEqual(Array(30).fill(200));
    const page = await call(server, 'listTeams', {}, actor.token);
    expect(page.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60');
  });
});

describe('the first step of a person in no team', () => {
  const assistantSignIn = '/authorize?client_id=first-hour&state=s';

  it('goes on from the terms to Teams, which offers to make one; making it shows the team', async () => {
    const visitor = new WebVisitor(server.url);
    expect((await visitor.signUp('first-step@example.com')).location).toBe('/welcome');
    const agreed = await visitor.submit('/welcome', '/welcome', { agree: 'yes' });
    expect([agreed.status, agreed.location]).toEqual([303, '/teams']);
    const teams = await visitor.request('GET', '/teams');
    expect(teams.status).toBe(200);
    expect(teams.body).toContain('<p>You are in no team yet. Make one to start making short links.</p>');
    const made = await visitor.makeTeam('Mine');
    expect(made.location).toMatch(/^\/teams\/team_[A-Za-z0-9]+\?done=made$/);
  });

  it("keeps where an assistant's sign-in was going through making a team, and offers to go on without one", async () => {
    const visitor = new WebVisitor(server.url);
    await visitor.signUp('first-step-assistant@example.com');
    const agreed = await visitor.submit(`/welcome?next=${encodeURIComponent(assistantSignIn)}`, '/welcome', { agree: 'yes', next: assistantSignIn });
    expect(agreed.location).toBe(`/teams?next=${encodeURIComponent(assistantSignIn)}`);
    const teams = await visitor.request('GET', agreed.location!);
    expect(teams.body).toContain(
      '<p>You are in no team yet. Make one to start making short links. Or <a href="/authorize?client_id=first-hour&amp;state=s">go on without a team</a>.</p>',
    );
    expect(teams.body).toContain('<input type="hidden" name="next" value="/authorize?client_id=first-hour&amp;state=s">');
    const made = await visitor.submit(agreed.location!, '/teams', { name: 'For the assistant', next: assistantSignIn });
    expect([made.status, made.location]).toEqual([303, assistantSignIn]);
    // Somewhere else than this site is never where it goes.
    const elsewhere = await visitor.submit('/teams', '/teams', { name: 'Another', next: '//evil.example/' });
    expect(elsewhere.location).toMatch(/^\/teams\/team_[A-Za-z0-9]+\?done=made$/);
  });

  it('shows the invitations waiting; accepting one goes on where the sign-in was going', async () => {
    const { visitor: owner, team } = await memberWithTeam(server.url, 'first-step-owner@example.com', 'Waiting');
    expect((await owner.submit(`/teams/${team}`, `/teams/${team}/members`, { email: 'first-step-invited@example.com' })).status).toBe(303);
    const invited = new WebVisitor(server.url);
    await invited.signUp('first-step-invited@example.com');
    const agreed = await invited.submit('/welcome', '/welcome', { agree: 'yes', next: assistantSignIn });
    const teams = await invited.request('GET', agreed.location!);
    expect(teams.body).toContain('<h2 id="invitations-heading" style="margin-top:0">Invitations</h2>');
    expect(teams.body).toContain('You are in no team yet. Make one, or accept an invitation above, to start making short links.');
    const accepted = await invited.submit(agreed.location!, `/teams/${team}/accept`, { next: assistantSignIn });
    expect([accepted.status, accepted.location]).toEqual([303, assistantSignIn]);
    expect((await server.app.ctx.store.teams.members(team)).map((m) => m.email)).toContain('first-step-invited@example.com');
  });
});
