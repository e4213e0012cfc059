import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, type TestServer } from '../helpers/server.js';
import { startSharedPair } from '../helpers/shared-servers.js';
import { WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * The web app's team pages over real HTTP, as a browser without JavaScript uses them: renaming, making owners,
 * leaving, removing and deleting a team, each form with its CSRF field. Two server processes share one database,
 * so a deleted team's links must stop redirecting on the process that did not delete them too.
 */
let a: TestServer;
let b: TestServer;
let stop: () => Promise<void>;
let people = 0;

beforeAll(async () => {
  ({ a, b, stop } = await startSharedPair());
  await a.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
});
afterAll(() => stop());

interface Someone {
  visitor: WebVisitor;
  email: string;
  personId: string;
}

/** A signed-up person who agreed to the terms. */
async function someone(): Promise<Someone> {
  const visitor = new WebVisitor(a.url);
  const email = `team-pages${++people}@example.com`;
  expect((await visitor.signUp(email)).status).toBe(303);
  expect((await visitor.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);
  return { visitor, email, personId: (await a.app.ctx.store.people.findByEmail(email))!.id };
}

/** An owner's team with `count` other members. */
async function crew(count = 1): Promise<{ team: string; owner: Someone; members: Someone[] }> {
  const owner = await someone();
  const made = await owner.visitor.makeTeam('Crew');
  expect(made.status).toBe(303);
  const team = /^\/teams\/(team_[A-Za-z0-9]+)/.exec(made.location!)![1]!;
  const members: Someone[] = [];
  for (let i = 0; i < count; i++) {
    const member = await someone();
    // Invited, and they accept on their Teams page.
    expect((await post(owner, team, 'members', { email: member.email })).status).toBe(303);
    expect((await member.visitor.submit('/teams', `/teams/${team}/accept`, {})).location).toBe(`/teams/${team}?done=joined`);
    members.push(member);
  }
  return { team, owner, members };
}

/** A form of the team's page, posted as the browser would from that page. */
const post = (who: Someone, team: string, path: string, fields: Record<string, string> = {}) =>
  who.visitor.submit(`/teams/${team}`, `/teams/${team}/${path}`, fields);

const get = (who: Someone, path: string) => who.visitor.request('GET', path);

const alertOf = (page: WebPage) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(page.body)?.[1];
const noticeOf = (page: WebPage) => /<p class="notice" role="status">([^<]*)<\/p>/.exec(page.body)?.[1];

async function teamName(team: string): Promise<string | undefined> {
  return (await a.app.ctx.store.teams.get(team))?.name;
}

describe('renaming a team', () => {
  it('renames for an owner, shows it at once, and the API lists the new name', async () => {
    const { team, owner } = await crew(0);
    const renamed = await post(owner, team, 'name', { name: '  Renamed crew  ' });
    expect(renamed.status).toBe(303);
    expect(renamed.location).toBe(`/teams/${team}?done=renamed`);
    const page = await get(owner, renamed.location!);
    expect(page.body).toContain('<h1>Renamed crew</h1>');
    expect(noticeOf(page)).toBe('Team renamed.');
    const token = await a.token(owner.personId, team);
    expect((await call(b, 'listTeams', {}, token)).body.data).toEqual([{ id: team, name: 'Renamed crew' }]);
  });

  it('refuses a blank or control-character name beside the field, keeping what was typed', async () => {
    const { team, owner } = await crew(0);
    for (const name of ['   ', 'tab\there', 'x'.repeat(101)]) {
      const refused = await post(owner, team, 'name', { name });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('<p class="error" id="f-name-error">Give the team a name of 1 to 100 characters.</p>');
      expect(refused.body).toContain('aria-invalid="true" aria-describedby="f-name-error"');
    }
    expect(await teamName(team)).toBe('Crew');
  });

  it('refuses a member who is not an owner (403) and shows them no rename form; a stranger finds no team (404)', async () => {
    const { team, members: [ann] } = await crew(1);
    expect((await get(ann!, `/teams/${team}`)).body).not.toContain(`action="/teams/${team}/name"`);
    const refused = await post(ann!, team, 'name', { name: 'Taken over' });
    expect(refused.status).toBe(403);
    expect(alertOf(refused)).toBe('Only an owner of the team may rename it.');
    const stranger = await someone();
    const csrf = /name="_csrf" value="([^"]+)"/.exec((await get(stranger, '/teams')).body)![1]!;
    expect((await stranger.visitor.request('POST', `/teams/${team}/name`, { _csrf: csrf, name: 'Taken over' })).status).toBe(404);
    expect(await teamName(team)).toBe('Crew');
  });
});

describe('owners, leaving and removing', () => {
  it('keeps the only owner, alone or not, until they make another member an owner', async () => {
    const { team, owner, members: [ann] } = await crew(1);
    const refused = await post(owner, team, 'leave');
    expect(refused.status).toBe(409);
    expect(alertOf(refused)).toBe(
      'You are the only owner of this team, and a team keeps an owner while it exists: make another member an owner first, or delete the team.',
    );
    const made = await post(owner, team, 'members/owner', { person: ann!.personId });
    expect(made.status).toBe(303);
    expect(made.location).toBe(`/teams/${team}?done=promoted`);
    const page = await get(owner, made.location!);
    expect(noticeOf(page)).toBe('They are an owner of the team now.');
    expect(page.body).toContain(`<tr><td data-label="Email" class="wrap">${ann!.email}</td><td data-label="Role">owner</td>`);
    const left = await post(owner, team, 'leave');
    expect(left.status).toBe(303);
    expect(left.location).toBe('/teams?done=left');
    // Alone now, the new owner cannot leave either.
    expect((await post(ann!, team, 'leave')).status).toBe(409);
  });

  it('lets only owners make owners and remove others, and says when the person is not a member', async () => {
    const { team, owner, members: [ann, bob] } = await crew(2);
    const promote = await post(ann!, team, 'members/owner', { person: bob!.personId });
    expect(promote.status).toBe(403);
    expect(alertOf(promote)).toBe('Only an owner of the team may make others owners.');
    const remove = await post(ann!, team, 'members/remove', { person: bob!.personId });
    expect(remove.status).toBe(403);
    expect(alertOf(remove)).toBe('Only an owner of the team may remove others.');
    const stranger = await someone();
    const missing = await post(owner, team, 'members/remove', { person: stranger.personId });
    expect(missing.status).toBe(404);
    expect(alertOf(missing)).toBe('That person is not a member of this team.');
    expect((await post(owner, team, 'members/owner', { person: stranger.personId })).status).toBe(404);
    const removed = await post(owner, team, 'members/remove', { person: bob!.personId });
    expect(removed.status).toBe(303);
    expect(removed.location).toBe(`/teams/${team}?done=removed`);
    expect((await get(bob!, `/teams/${team}`)).status).toBe(404);
  });

  it('lets exactly one of two owners leaving at the same moment go', async () => {
    const { team, owner, members: [ann, bob] } = await crew(2);
    expect((await post(owner, team, 'members/owner', { person: ann!.personId })).status).toBe(303);
    // Both forms are on screen before either is sent; each is sent to a different process.
    const csrfOf = async (who: Someone) => /name="_csrf" value="([^"]+)"/.exec((await get(who, `/teams/${team}`)).body)![1]!;
    const [first, second] = [await csrfOf(owner), await csrfOf(ann!)];
    const answers = await Promise.all([
      owner.visitor.request('POST', `/teams/${team}/leave`, { _csrf: first }),
      ann!.visitor.at(b.url).request('POST', `/teams/${team}/leave`, { _csrf: second }),
    ]);
    expect(answers.map((page) => page.status).sort()).toEqual([303, 409]);
    const members = await a.app.ctx.store.teams.members(team);
    expect(members.filter((m) => m.role === 'owner')).toHaveLength(1);
    expect(members.map((m) => m.personId)).toContain(bob!.personId);
  });
});

describe('deleting a team', () => {
  it('asks an owner to confirm, naming the team and what goes with it', async () => {
    const { team, owner } = await crew(1);
    await makeLink(owner, team, 'confirm-me');
    await makeLink(owner, team);
    const page = await get(owner, `/teams/${team}`);
    expect(page.body).toContain(`<a href="/teams/${team}/delete">Delete this team…</a>`);
    const confirm = await get(owner, `/teams/${team}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('<h1>Delete the team “Crew”?</h1>');
    expect(confirm.body).toContain('Deleting it also deletes <strong>2 short links</strong>. Deleted links stop redirecting at once, and their codes and names are never issued again.');
    expect(confirm.body).toContain('Its 1 other member loses access to it.');
    expect(confirm.body).toContain(`<form method="post" action="/teams/${team}/delete">`);
    expect(confirm.body).toContain('<button type="submit" class="danger">Delete the team and its 2 links</button>');
    expect(confirm.body).toContain(`<a href="/teams/${team}" style="margin-left:1rem">Keep the team</a>`);
  });

  it('refuses a member who is not an owner (403), on the page and the form, deleting nothing', async () => {
    const { team, owner, members: [ann] } = await crew(1);
    const code = await makeLink(owner, team);
    expect((await get(ann!, `/teams/${team}`)).body).not.toContain(`/teams/${team}/delete`);
    const page = await get(ann!, `/teams/${team}/delete`);
    expect(page.status).toBe(403);
    expect(alertOf(page)).toBe('Only an owner of the team may delete it.');
    const form = await ann!.visitor.submit(`/teams/${team}`, `/teams/${team}/delete`, {});
    expect(form.status).toBe(403);
    expect(alertOf(form)).toBe('Only an owner of the team may delete it.');
    expect(await teamName(team)).toBe('Crew');
    expect((await fetch(`${b.url}/${code}`, { redirect: 'manual' })).status).toBe(302);
  });

  it('deletes the team with its links: every process stops redirecting them at once, codes and names stay taken', async () => {
    const { team, owner, members: [ann] } = await crew(1);
    const code = await makeLink(owner, team, 'doomed-name');
    const token = await a.token(ann!.personId, team);
    // Each process has the link in its redirect cache before the deletion.
    for (const server of [a, b]) {
      for (const key of [code, 'doomed-name']) {
        const before = await fetch(`${server.url}/${key}`, { redirect: 'manual' });
        expect(before.status).toBe(302);
        expect(before.headers.get('location')).toBe('https://example.com/doomed');
      }
    }
    const deleted = await owner.visitor.submit(`/teams/${team}/delete`, `/teams/${team}/delete`, {});
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe('/teams?done=deleted');
    const teams = await get(owner, deleted.location!);
    expect(noticeOf(teams)).toBe('Team deleted, with its links.');
    expect(teams.body).toContain('You are in no team yet.');

    for (const server of [a, b]) {
      for (const key of [code, 'doomed-name']) expect((await fetch(`${server.url}/${key}`, { redirect: 'manual' })).status).toBe(404);
    }
    for (const who of [owner, ann!]) expect((await get(who, `/teams/${team}`)).status).toBe(404);
    expectProblem(b, await call(b, 'listTeams', {}, token), 403, 'token_record_left');
    const other = await crew(0);
    const otherToken = await a.token(other.owner.personId, other.team);
    const reuse = await call(b, 'createLink', { team: other.team, destination: 'https://example.com/', name: 'doomed-name' }, otherToken);
    expectProblem(b, reuse, 400, 'reserved_name', 'name');
    expectProblem(b, await call(b, 'getLink', { code }, otherToken), 404, 'not_found', 'code');
  });
});

/** A link made on the dashboard; its code. */
async function makeLink(owner: Someone, team: string, name = ''): Promise<string> {
  const made = await owner.visitor.submit('/app', '/app/links', { team, destination: 'https://example.com/doomed', name, note: '' });
  expect(made.status).toBe(303);
  return /^\/app\?made=([A-Za-z0-9]{7})$/.exec(made.location!)![1]!;
}
