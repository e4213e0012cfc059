/**
 * createLink and createLinks over the real HTTP API (spec sections 2, 4, 7, 8; docs/behaviour.md "Codes and
 * names", "Links", "Limits", "createLinks"). One server for the file; every test makes its own person and team, and
 * the operator limits are put back to the defaults before each test.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { call, problem, startServer, type Actor, type Reply, type TestServer, expectProblem } from '../helpers/server.js';
import { LINK_FIELDS, NO_OPTIONS } from '../helpers/api-links.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());
beforeEach(async () => {
  await server.setLimits({ ...DEFAULT_LIMITS });
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MANY = { perHour: 1000, perDay: 1000, firstWeekPerDay: 1000, maxLinksPerTeam: 1000 };

/** A name no other test uses (names are one namespace for the whole service). */
function freshName(prefix = 'n'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

/** A domain no other test uses, for the blocklist. */
function freshDomain(): string {
  return `blocked-${randomBytes(5).toString('hex')}.com`;
}

function expectLink(link: any, expected: { destination: string; name?: string | null; note?: string | null }): void {
  expect(Object.keys(link)).toEqual(LINK_FIELDS);
  expect(link).toMatchObject({ ...NO_OPTIONS, shortUrl: `${server.url}/${link.code}`, nameUrl: expected.name ? `${server.url}/${expected.name}` : null });
  expect(link.id).toMatch(/^link_/);
  expect(link.code).toMatch(/^[A-Za-z0-9]{7}$/);
  expect(link.code).toMatch(/[A-Z]/);
  expect(link.destination).toBe(expected.destination);
  expect(link.name).toBe(expected.name ?? null);
  expect(link.note).toBe(expected.note ?? null);
  expect(link.state).toBe('active');
  expect(new Date(link.createdAt).toISOString()).toBe(link.createdAt);
  expect(link.changedAt).toBeNull();
}

function create(actor: Actor, fields: Record<string, unknown>, team = actor.teamId): Promise<Reply> {
  return call(server, 'createLink', { team, ...fields }, actor.token);
}

function createMany(actor: Actor, links: unknown[], team = actor.teamId): Promise<Reply> {
  return call(server, 'createLinks', { team, links }, actor.token);
}

/** The codes of a team's live links, newest first. */
async function linksOf(actor: Actor, team = actor.teamId): Promise<any[]> {
  const reply = await call(server, 'listLinks', { team, limit: 100 }, actor.token);
  expect(reply.status).toBe(200);
  return reply.body.data;
}

/** Makes `count` links in the actor's team with one createLinks call (limits must allow them). */
async function fill(actor: Actor, count: number): Promise<any[]> {
  const items = Array.from({ length: count }, (_, i) => ({ destination: `https://example.com/fill/${i}` }));
  const reply = await createMany(actor, items);
  expect(reply.status).toBe(200);
  for (const result of reply.body.results) expect(result.status).toBe(200);
  return reply.body.results.map((r: any) => r.link);
}

describe('createLink', () => {
  it('returns the full new link with a random code, no name, no note, active', async () => {
    const alice = await server.person();
    const destination = 'https://example.com/path?q=1#top';
    const reply = await create(alice, { destination });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expectLink(reply.body, { destination });
    expect(reply.body.createdAt).toBe(server.clock.now().toISOString());
    const read = await call(server, 'getLink', { code: reply.body.code }, alice.token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(reply.body);
  });

  it('stores the destination as the parser serializes it, the address the redirect goes to', async () => {
    const alice = await server.person();
    const reply = await create(alice, { destination: 'https://Example.COM:443/a/../b?x=%41' });
    expect(reply.status).toBe(200);
    expect(reply.body.destination).toBe('https://example.com/b?x=%41');
  });

  it('makes codes of 7 letters and digits, each with an uppercase letter, never twice', async () => {
    const alice = await server.person();
    await server.setLimits(MANY);
    const links = await fill(alice, 40);
    for (const link of links) {
      expect(link.code).toMatch(/^[A-Za-z0-9]{7}$/);
      expect(link.code).toMatch(/[A-Z]/);
    }
    expect(new Set(links.map((l) => l.code)).size).toBe(40);
    expect(new Set(links.map((l) => l.id)).size).toBe(40);
  });

  it('takes a name and a note', async () => {
    const alice = await server.person();
    const name = freshName('my_link');
    const note = "Spring sale: shoes & bags (half off!) - Anna's list_2, ok? Thanks.";
    const reply = await create(alice, { destination: 'https://example.com/sale', name, note });
    expect(reply.status).toBe(200);
    expectLink(reply.body, { destination: 'https://example.com/sale', name, note });
  });

  it('takes explicit nulls for name and note', async () => {
    const alice = await server.person();
    const reply = await create(alice, { destination: 'https://example.com/', name: null, note: null });
    expect(reply.status).toBe(200);
    expectLink(reply.body, { destination: 'https://example.com/' });
  });

  it('reads back an empty note as "" (not null)', async () => {
    const alice = await server.person();
    const reply = await create(alice, { destination: 'https://example.com/', note: '' });
    expect(reply.status).toBe(200);
    expect(reply.body.note).toBe('');
  });

  it('takes a note of 100 characters, counting code points, of letters of any script', async () => {
    const alice = await server.person();
    const astral = '𝒜'.repeat(100); // 100 letters, 200 UTF-16 units
    const made = await create(alice, { destination: 'https://example.com/', note: astral });
    expect(made.status).toBe(200);
    expect(made.body.note).toBe(astral);
    const cjk = await create(alice, { destination: 'https://example.com/', note: '日本語 Ärger ñ 123' });
    expect(cjk.status).toBe(200);
    expect(cjk.body.note).toBe('日本語 Ärger ñ 123');
  });

  it('takes names of 3 and of 50 characters of a-z 0-9 - _', async () => {
    const alice = await server.person();
    const short = `${randomBytes(1).toString('hex')}_`; // 3 characters
    const long = `${randomBytes(6).toString('hex')}-${'a'.repeat(50 - 13)}`;
    expect(long).toHaveLength(50);
    const a = await create(alice, { destination: 'https://example.com/', name: short });
    expect(a.status).toBe(200);
    expect(a.body.name).toBe(short);
    const b = await create(alice, { destination: 'https://example.com/', name: long });
    expect(b.status).toBe(200);
    expect(b.body.name).toBe(long);
  });

  describe('invalid_destination', () => {
    it.each([
      ['an http address', 'http://example.com/'],
      ['not a URL', 'not a url'],
      ['an empty string', ''],
      ['no host', 'https://'],
      ['leading white space', ' https://example.com/'],
      ['a control character', 'https://exa\tmple.com/'],
      ['user credentials', 'https://user@example.com/'],
      ['a user and password', 'https://user:secret@example.com/'],
      ['an empty user part', 'https://@example.com/'],
      ['trailing white space', 'https://example.com/ '],
      ['a line break', 'https://example.com/\nx'],
      ['a javascript: address', 'javascript:alert(1)'],
    ])('refuses %s', async (_, destination) => {
      const alice = await server.person();
      expectProblem(server, await create(alice, { destination }), 400, 'invalid_destination', 'destination');
    });

    it('refuses 2,049 characters and takes 2,048', async () => {
      const alice = await server.person();
      const base = 'https://example.com/';
      const exact = base + 'a'.repeat(2048 - base.length);
      expect(exact).toHaveLength(2048);
      const tooLong = exact + 'a';
      expectProblem(server, await create(alice, { destination: tooLong }), 400, 'invalid_destination', 'destination');
      const ok = await create(alice, { destination: exact });
      expect(ok.status).toBe(200);
      expect(ok.body.destination).toBe(exact);
    });
  });

  describe('private_destination', () => {
    it.each([
      ['IPv4 loopback', 'https://127.0.0.1/'],
      ['localhost', 'https://localhost/'],
      ['IPv6 loopback', 'https://[::1]/'],
      ['a public IP literal', 'https://8.8.8.8/'],
      ['a decimal IP spelling', 'https://2130706433/'],
      ['a .local name', 'https://printer.local/'],
      ['a .internal name', 'https://db.internal/'],
      ['a single-label name', 'https://intranet/'],
      ['an octal IP spelling', 'https://0177.0.0.1/'],
      ['a hex IP spelling', 'https://0x7f000001/'],
      ['an IPv4-mapped IPv6 address', 'https://[::ffff:127.0.0.1]/'],
      ['a subdomain of localhost', 'https://app.localhost/'],
      ['localhost in capitals with a trailing dot', 'https://LOCALHOST./'],
    ])('refuses %s', async (_, destination) => {
      const alice = await server.person();
      expectProblem(server, await create(alice, { destination }), 400, 'private_destination', 'destination');
    });
  });

  describe('shortener_destination', () => {
    it.each([
      ['bit.ly', 'https://bit.ly/x'],
      ['a subdomain of a shortener', 'https://www.bit.ly/x'],
      ['a shortener in another case with a trailing dot', 'https://TinyURL.com./abc'],
    ])('refuses %s', async (_, destination) => {
      const alice = await server.person();
      expectProblem(server, await create(alice, { destination }), 400, 'shortener_destination', 'destination');
    });

    it('allows first-party shorteners such as youtu.be', async () => {
      const alice = await server.person();
      const reply = await create(alice, { destination: 'https://youtu.be/dQw4w9WgXcQ' });
      expect(reply.status).toBe(200);
    });
  });

  describe('blocked_destination', () => {
    it('refuses a domain the operator blocked, and its subdomains', async () => {
      const alice = await server.person();
      const domain = freshDomain();
      const before = await create(alice, { destination: `https://www.${domain}/` });
      expect(before.status).toBe(200);
      await server.app.ctx.store.settings.block(domain, new Date());
      expectProblem(server, await create(alice, { destination: `https://www.${domain}/` }), 400, 'blocked_destination', 'destination');
      expectProblem(server, await create(alice, { destination: `https://${domain}/x` }), 400, 'blocked_destination', 'destination');
      const other = await create(alice, { destination: `https://not${domain}/` });
      expect(other.status).toBe(200);
    });

    it('compares hosts after normalising case and a trailing dot', async () => {
      const alice = await server.person();
      const domain = freshDomain();
      await server.app.ctx.store.settings.block(domain, new Date());
      const shouted = `https://WWW.${domain.toUpperCase()}./page`;
      expectProblem(server, await create(alice, { destination: shouted }), 400, 'blocked_destination', 'destination');
    });
  });

  describe('invalid_name', () => {
    it.each([
      ['too short', 'ab'],
      ['uppercase', 'Hello'],
      ['51 characters', 'a'.repeat(51)],
      ['a space', 'my name'],
      ['an empty string', ''],
      ['a dot', 'my.name'],
    ])('refuses a name with %s', async (_, name) => {
      const alice = await server.person();
      expectProblem(server, await create(alice, { destination: 'https://example.com/', name }), 400, 'invalid_name', 'name');
    });
  });

  describe('reserved_name', () => {
    it.each(['api', 'admin', 'mcp', 'welcome', 'docs', 'well-known', 'dashboard', 'v10', 'v123'])(
      'refuses the service word %s',
      async (name) => {
        const alice = await server.person();
        expectProblem(server, await create(alice, { destination: 'https://example.com/', name }), 400, 'reserved_name', 'name');
      },
    );

    // behaviour.md lists v1, v2 and qr among the reserved words, but they are 2 characters: the spec's own rule
    // (section 7: invalid_name = "name not 3 to 50 of ...") already refuses them, and the spec is the contract.
    it.each(['v1', 'v2', 'qr'])('refuses the 2-character word %s as invalid_name (the spec rule comes first)', async (name) => {
      const alice = await server.person();
      expectProblem(server, await create(alice, { destination: 'https://example.com/', name }), 400, 'invalid_name', 'name');
    });

    it('takes names that only contain a service word', async () => {
      const alice = await server.person();
      const name = `api-${randomBytes(4).toString('hex')}`;
      const reply = await create(alice, { destination: 'https://example.com/', name });
      expect(reply.status).toBe(200);
      expect(reply.body.name).toBe(name);
    });
  });

  describe('invalid_note', () => {
    it.each([
      ['101 characters', 'a'.repeat(101)],
      ['markup', '<script>'],
      ['a newline', 'line one\nline two'],
      ['a tab', 'a\tb'],
      ['an emoji', 'party 🎉'],
      ['101 letters outside the BMP', '𝒜'.repeat(101)],
      ['a slash', 'a/b'],
      ['a double quote', 'say "hi"'],
    ])('refuses a note with %s', async (_, note) => {
      const alice = await server.person();
      expectProblem(server, await create(alice, { destination: 'https://example.com/', note }), 400, 'invalid_note', 'note');
    });

    it('takes exactly 100 characters', async () => {
      const alice = await server.person();
      const reply = await create(alice, { destination: 'https://example.com/', note: 'a'.repeat(100) });
      expect(reply.status).toBe(200);
      expect(reply.body.note).toBe('a'.repeat(100));
    });
  });

  describe('name_taken', () => {
    it('refuses a name another team holds', async () => {
      const alice = await server.person();
      const bob = await server.person();
      const name = freshName();
      expect((await create(alice, { destination: 'https://example.com/a', name })).status).toBe(200);
      expectProblem(server, await create(bob, { destination: 'https://example.com/b', name }), 409, 'name_taken', 'name');
      expect(await linksOf(bob)).toHaveLength(0);
    });

    it('refuses a name the same team holds', async () => {
      const alice = await server.person();
      const name = freshName();
      expect((await create(alice, { destination: 'https://example.com/a', name })).status).toBe(200);
      expectProblem(server, await create(alice, { destination: 'https://example.com/b', name }), 409, 'name_taken', 'name');
      expect(await linksOf(alice)).toHaveLength(1);
    });
  });

  describe('team_full', () => {
    it('refuses the 26th link of a team, and takes one again after a delete', async () => {
      const alice = await server.person();
      await server.setLimits({ perHour: 1000, perDay: 1000, firstWeekPerDay: 1000 });
      const made = await fill(alice, 24);
      const last = await create(alice, { destination: 'https://example.com/25' });
      expect(last.status).toBe(200);
      expect(await linksOf(alice)).toHaveLength(25);

      const full = await create(alice, { destination: 'https://example.com/26' });
      expectProblem(server, full, 409, 'team_full');
      expect(await linksOf(alice)).toHaveLength(25);

      const gone = await call(server, 'deleteLink', { code: made[0].code }, alice.token);
      expect(gone.status).toBe(200);
      expect(gone.body).toBeNull();
      const again = await create(alice, { destination: 'https://example.com/26' });
      expect(again.status).toBe(200);
      expect(await linksOf(alice)).toHaveLength(25);
    });

    it('counts each team on its own', async () => {
      const alice = await server.person();
      const bob = await server.person();
      await server.setLimits({ perHour: 1000, perDay: 1000, firstWeekPerDay: 1000 });
      await fill(alice, 25);
      expectProblem(server, await create(alice, { destination: 'https://example.com/' }), 409, 'team_full');
      expect((await create(bob, { destination: 'https://example.com/' })).status).toBe(200);
    });
  });

  describe('limit_reached', () => {
    it('refuses the 4th link in an hour when the hourly limit is 3, with Retry-After, and frees up after the hour', async () => {
      const alice = await server.person();
      await server.setLimits({ perHour: 3 });
      for (let i = 0; i < 3; i++) expect((await create(alice, { destination: `https://example.com/${i}` })).status).toBe(200);

      const limited = await create(alice, { destination: 'https://example.com/4' });
      expectProblem(server, limited, 429, 'limit_reached');
      const retryAfter = limited.headers.get('retry-after');
      expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
      // The seconds until the oldest counted creation leaves the hour.
      expect(Number(retryAfter)).toBe(3600);

      server.clock.advance(10 * 60_000);
      const later = await create(alice, { destination: 'https://example.com/4' });
      expectProblem(server, later, 429, 'limit_reached');
      expect(Number(later.headers.get('retry-after'))).toBe(3000);

      server.clock.advance(HOUR - 10 * 60_000 + 1);
      const freed = await create(alice, { destination: 'https://example.com/4' });
      expect(freed.status).toBe(200);
      expect(await linksOf(alice)).toHaveLength(4);
    });

    it('does not give back a creation when a link is deleted', async () => {
      const alice = await server.person();
      await server.setLimits({ perHour: 2 });
      const first = await create(alice, { destination: 'https://example.com/1' });
      expect((await create(alice, { destination: 'https://example.com/2' })).status).toBe(200);
      expect((await call(server, 'deleteLink', { code: first.body.code }, alice.token)).status).toBe(200);
      expectProblem(server, await create(alice, { destination: 'https://example.com/3' }), 429, 'limit_reached');
    });

    it('refuses past the daily limit (after the first week) until the day has passed', async () => {
      const alice = await server.person();
      server.clock.advance(8 * DAY); // the team is out of its first week
      await server.setLimits({ perHour: 1000, perDay: 3, firstWeekPerDay: 1000 });
      for (let i = 0; i < 3; i++) expect((await create(alice, { destination: `https://example.com/${i}` })).status).toBe(200);

      const limited = await create(alice, { destination: 'https://example.com/x' });
      expectProblem(server, limited, 429, 'limit_reached');
      expect(Number(limited.headers.get('retry-after'))).toBe(86_400);

      server.clock.advance(HOUR + 1); // the hour window has passed, the day window has not
      const stillLimited = await create(alice, { destination: 'https://example.com/x' });
      expectProblem(server, stillLimited, 429, 'limit_reached');
      expect(Number(stillLimited.headers.get('retry-after'))).toBe(82_800);

      server.clock.advance(DAY - HOUR);
      expect((await create(alice, { destination: 'https://example.com/x' })).status).toBe(200);
    });

    it('holds a team to the first-week daily limit for its first 7 days only', async () => {
      const alice = await server.person(); // the team is made now
      await server.setLimits({ perHour: 1000, perDay: 1000, firstWeekPerDay: 2 });
      for (let i = 0; i < 2; i++) expect((await create(alice, { destination: `https://example.com/${i}` })).status).toBe(200);
      const limited = await create(alice, { destination: 'https://example.com/x' });
      expectProblem(server, limited, 429, 'limit_reached');
      expect(Number(limited.headers.get('retry-after'))).toBe(86_400);

      // Day 2, still in the first week: 2 more, then refused.
      server.clock.advance(DAY + 1);
      for (let i = 0; i < 2; i++) expect((await create(alice, { destination: `https://example.com/d2/${i}` })).status).toBe(200);
      expectProblem(server, await create(alice, { destination: 'https://example.com/d2/x' }), 429, 'limit_reached');

      // Day 9: out of the first week, the ordinary daily limit applies.
      server.clock.advance(7 * DAY);
      for (let i = 0; i < 3; i++) expect((await create(alice, { destination: `https://example.com/d9/${i}` })).status).toBe(200);
      expect(await linksOf(alice)).toHaveLength(7);
    });

    it('applies the default of 10 a day in the first week', async () => {
      const alice = await server.person();
      for (let i = 0; i < 10; i++) expect((await create(alice, { destination: `https://example.com/${i}` })).status).toBe(200);
      expectProblem(server, await create(alice, { destination: 'https://example.com/11' }), 429, 'limit_reached');
    });
  });

  it('lets any member of the team create, not only its owner', async () => {
    const alice = await server.person();
    const bob = await server.person();
    await server.app.ctx.store.teams.addMember(alice.teamId, bob.personId, server.clock.now());
    const reply = await create(bob, { destination: 'https://example.com/' }, alice.teamId);
    expect(reply.status).toBe(200);
    expect((await linksOf(alice)).map((l) => l.code)).toEqual([reply.body.code]);
    expect(await linksOf(bob)).toHaveLength(0);
  });

  it('answers 403 outside_token_record for a token limited to another of the person\'s teams', async () => {
    const alice = await server.person({ limited: true });
    const second = await server.app.ctx.store.teams.add({ name: 'Second', ownerId: alice.personId }, server.clock.now());
    expectProblem(server, await create(alice, { destination: 'https://example.com/' }, second.id), 403, 'outside_token_record');
    expect((await create(alice, { destination: 'https://example.com/' })).status).toBe(200);
    const free = await server.token(alice.personId, alice.teamId);
    const other = await call(server, 'createLink', { team: second.id, destination: 'https://example.com/' }, free);
    expect(other.status).toBe(200);
  });

  it('carries the RateLimit headers on successes and errors', async () => {
    const alice = await server.person();
    const ok = await create(alice, { destination: 'https://example.com/' });
    const bad = await create(alice, { destination: 'http://example.com/' });
    for (const reply of [ok, bad]) {
      expect(reply.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60');
      expect(reply.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
    }
  });

  describe('not_found', () => {
    it("answers 404 for another person's team", async () => {
      const alice = await server.person();
      const bob = await server.person();
      expectProblem(server, await create(alice, { destination: 'https://example.com/' }, bob.teamId), 404, 'not_found', 'team');
      expect(await linksOf(bob)).toHaveLength(0);
    });

    it('answers the same 404 for a team that does not exist', async () => {
      const alice = await server.person();
      expectProblem(server, await create(alice, { destination: 'https://example.com/' }, 'team_doesnotexist00'), 404, 'not_found', 'team');
    });
  });

  describe('bad_request', () => {
    it('refuses an unknown param, naming it', async () => {
      const alice = await server.person();
      const reply = await create(alice, { destination: 'https://example.com/', colour: 'red' });
      expectProblem(server, reply, 400, 'bad_request', 'colour');
      expect(await linksOf(alice)).toHaveLength(0);
    });

    it('refuses a destination of the wrong type', async () => {
      const alice = await server.person();
      expectProblem(server, await create(alice, { destination: 5 }), 400, 'bad_request', 'destination');
    });

    it('refuses a name or note of the wrong type', async () => {
      const alice = await server.person();
      expectProblem(server, await create(alice, { destination: 'https://example.com/', name: 5 }), 400, 'bad_request', 'name');
      expectProblem(server, await create(alice, { destination: 'https://example.com/', note: ['x'] }), 400, 'bad_request', 'note');
    });

    it('refuses a missing destination', async () => {
      const alice = await server.person();
      expectProblem(server, await create(alice, {}), 400, 'bad_request', 'destination');
    });

    it('refuses a missing team', async () => {
      const alice = await server.person();
      const reply = await call(server, 'createLink', { destination: 'https://example.com/' }, alice.token);
      expectProblem(server, reply, 400, 'bad_request', 'team');
    });

    it('refuses a team that does not start with team_', async () => {
      const alice = await server.person();
      const wrong = alice.teamId.replace(/^team_/, 'crew_');
      expectProblem(server, await create(alice, { destination: 'https://example.com/' }, wrong), 400, 'bad_request', 'team');
    });

    it('refuses a body that is not a JSON object', async () => {
      const alice = await server.person();
      expectProblem(server, await call(server, 'createLink', '[1,2]', alice.token), 400, 'bad_request');
      expectProblem(server, await call(server, 'createLink', '{"team":', alice.token), 400, 'bad_request');
    });
  });

  it('changes nothing when it fails', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const name = freshName();
    expect((await create(alice, { destination: 'https://example.com/kept' })).status).toBe(200);
    const before = await linksOf(alice);

    // Each failure below carries `name`: a failed create must not claim it.
    expectProblem(server, await create(alice, { destination: 'http://example.com/', name }), 400, 'invalid_destination', 'destination');
    expectProblem(server, await create(alice, { destination: 'https://bit.ly/x', name }), 400, 'shortener_destination', 'destination');
    expectProblem(server, await create(alice, { destination: 'https://example.com/', name, note: '<b>' }), 400, 'invalid_note', 'note');
    expectProblem(server, await create(alice, { destination: 'https://example.com/', name, extra: 1 }), 400, 'bad_request', 'extra');
    expect(await linksOf(alice)).toEqual(before);

    await server.setLimits({ perHour: 1 });
    expectProblem(server, await create(alice, { destination: 'https://example.com/', name }), 429, 'limit_reached');
    expect(await linksOf(alice)).toEqual(before);
    await server.setLimits({ perHour: DEFAULT_LIMITS.perHour });

    // The name is still free for anyone.
    const taken = await create(bob, { destination: 'https://example.com/', name });
    expect(taken.status).toBe(200);
    expect(taken.body.name).toBe(name);
  });
});


describe('names (behaviour.md "Codes and names")', () => {
  it('keeps a name released by renameLink with its team: name_taken for another team', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const name = freshName();
    const first = await create(alice, { destination: 'https://example.com/1', name });
    expect(first.status).toBe(200);
    const renamed = await call(server, 'renameLink', { code: first.body.code, name: null }, alice.token);
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBeNull();

    expectProblem(server, await create(bob, { destination: 'https://example.com/b', name }), 409, 'name_taken', 'name');
    const bobs = await create(bob, { destination: 'https://example.com/b' });
    expect(bobs.status).toBe(200);
    expectProblem(server, await call(server, 'renameLink', { code: bobs.body.code, name }, bob.token), 409, 'name_taken', 'name');
  });

  it("lets the same team's new link take a name it released by renameLink", async () => {
    const alice = await server.person();
    const name = freshName();
    const first = await create(alice, { destination: 'https://example.com/1', name });
    expect((await call(server, 'renameLink', { code: first.body.code, name: freshName() }, alice.token)).status).toBe(200);

    const second = await create(alice, { destination: 'https://example.com/2', name });
    expect(second.status).toBe(200);
    expect(second.body.name).toBe(name);
  });

  it('lets the same team move a released name to another of its links, or back', async () => {
    const alice = await server.person();
    const name = freshName();
    const first = await create(alice, { destination: 'https://example.com/1', name });
    const other = await create(alice, { destination: 'https://example.com/2' });
    expect((await call(server, 'renameLink', { code: first.body.code, name: null }, alice.token)).status).toBe(200);
    const moved = await call(server, 'renameLink', { code: other.body.code, name }, alice.token);
    expect(moved.status).toBe(200);
    expect(moved.body.name).toBe(name);
    // Now held by a live link: name_taken, even within the team.
    expectProblem(server, await call(server, 'renameLink', { code: first.body.code, name }, alice.token), 409, 'name_taken', 'name');
  });

  it('answers reserved_name for the name of a deleted link, for everyone including its own team', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const name = freshName();
    const made = await create(alice, { destination: 'https://example.com/1', name });
    expect(made.status).toBe(200);
    expect((await call(server, 'deleteLink', { code: made.body.code }, alice.token)).status).toBe(200);

    expectProblem(server, await create(alice, { destination: 'https://example.com/2', name }), 400, 'reserved_name', 'name');
    expectProblem(server, await create(bob, { destination: 'https://example.com/3', name }), 400, 'reserved_name', 'name');
    const other = await create(alice, { destination: 'https://example.com/4' });
    expectProblem(server, await call(server, 'renameLink', { code: other.body.code, name }, alice.token), 400, 'reserved_name', 'name');
  });

  it('answers reserved_name for a name released by rename and later retired by deleting the link holding it', async () => {
    const alice = await server.person();
    const name = freshName();
    const first = await create(alice, { destination: 'https://example.com/1', name });
    expect((await call(server, 'renameLink', { code: first.body.code, name: null }, alice.token)).status).toBe(200);
    const second = await create(alice, { destination: 'https://example.com/2', name });
    expect(second.status).toBe(200);
    expect((await call(server, 'deleteLink', { code: second.body.code }, alice.token)).status).toBe(200);
    expectProblem(server, await create(alice, { destination: 'https://example.com/3', name }), 400, 'reserved_name', 'name');
  });

  it('treats renaming to the same name as a no-op that does not count against the change limit', async () => {
    const alice = await server.person();
    const name = freshName();
    const made = await create(alice, { destination: 'https://example.com/1', name });
    await server.setLimits({ changesPerHour: 1 });

    for (let i = 0; i < 3; i++) {
      const same = await call(server, 'renameLink', { code: made.body.code, name }, alice.token);
      expect(same.status).toBe(200);
      expect(same.body).toEqual(made.body); // changedAt still null
    }
    // The one change of the hour is still there to use.
    const changed = await call(server, 'renameLink', { code: made.body.code, name: freshName() }, alice.token);
    expect(changed.status).toBe(200);
    expect(changed.body.changedAt).toBe(server.clock.now().toISOString());
    expectProblem(server, await call(server, 'renameLink', { code: made.body.code, name: freshName() }, alice.token), 429, 'limit_reached');
  });

  it('treats removing the name of a link that has none as a no-op', async () => {
    const alice = await server.person();
    const made = await create(alice, { destination: 'https://example.com/1' });
    const same = await call(server, 'renameLink', { code: made.body.code, name: null }, alice.token);
    expect(same.status).toBe(200);
    expect(same.body).toEqual(made.body);
  });
});

describe('createLinks', () => {
  it('makes every item, in order, as {link, status: 200, code: null, message: null}', async () => {
    const alice = await server.person();
    const name = freshName();
    const items = [
      { destination: 'https://example.com/1' },
      { destination: 'https://example.com/2', name, note: 'second' },
      { destination: 'https://example.com/3', name: null, note: null },
    ];
    const reply = await createMany(alice, items);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(reply.body)).toEqual(['results']);
    expect(reply.body.results).toHaveLength(3);
    reply.body.results.forEach((result: any, i: number) => {
      expect(Object.keys(result).sort()).toEqual(['code', 'link', 'message', 'status']);
      expect(result.status).toBe(200);
      expect(result.code).toBeNull();
      expect(result.message).toBeNull();
      expectLink(result.link, items[i]!);
    });
    const listed = await linksOf(alice);
    // Newest first: the reverse of the order sent.
    expect(listed.map((l) => l.code)).toEqual(reply.body.results.map((r: any) => r.link.code).reverse());
  });

  it('fails bad items alone with the status, code and message createLink would give', async () => {
    const alice = await server.person();
    const reply = await createMany(alice, [
      { destination: 'https://example.com/ok1' },
      { destination: 'http://example.com/' },
      { destination: 'https://example.com/ok2' },
      { destination: 'https://example.com/', name: 'Bad Name' },
      { destination: 'https://example.com/', note: '<i>' },
      { destination: 'https://localhost/' },
    ]);
    expect(reply.status).toBe(200);
    const results = reply.body.results;
    expect(results).toHaveLength(6);
    expect(results.map((r: any) => [r.status, r.code])).toEqual([
      [200, null],
      [400, 'invalid_destination'],
      [200, null],
      [400, 'invalid_name'],
      [400, 'invalid_note'],
      [400, 'private_destination'],
    ]);
    for (const i of [1, 3, 4, 5]) {
      expect(results[i].link).toBeNull();
      expect(typeof results[i].message).toBe('string');
      expect(results[i].message.length).toBeGreaterThan(0);
    }
    expect(results[0].link.destination).toBe('https://example.com/ok1');
    expect(results[2].link.destination).toBe('https://example.com/ok2');
    expect(await linksOf(alice)).toHaveLength(2);

    const single = await create(alice, { destination: 'http://example.com/' });
    expect(results[1].message).toBe(single.body.detail);
    const singleName = await create(alice, { destination: 'https://example.com/', name: 'Bad Name' });
    expect(results[3].message).toBe(singleName.body.detail);
  });

  it('fails a name taken by an earlier item of the same call', async () => {
    const alice = await server.person();
    const name = freshName();
    const reply = await createMany(alice, [
      { destination: 'https://example.com/1', name },
      { destination: 'https://example.com/2', name },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.body.results[0].link.name).toBe(name);
    expect(reply.body.results[1]).toMatchObject({ link: null, status: 409, code: 'name_taken' });
    expect(typeof reply.body.results[1].message).toBe('string');
  });

  it.each([
    ['a destination of the wrong type', { destination: 42 }],
    ['an unknown key', { destination: 'https://example.com/', colour: 'red' }],
    ['a missing destination', { note: 'hi' }],
    ['an item that is not an object', 'https://example.com/'],
    ['a null item', null],
  ])('fails a malformed item alone: %s', async (_, bad) => {
    const alice = await server.person();
    const reply = await createMany(alice, [{ destination: 'https://example.com/1' }, bad, { destination: 'https://example.com/3' }]);
    expect(reply.status).toBe(200);
    const [first, failed, third] = reply.body.results;
    expect(first.status).toBe(200);
    expect(third.status).toBe(200);
    expect(failed).toMatchObject({ link: null, status: 400, code: 'bad_request' });
    expect(typeof failed.message).toBe('string');
    expect(await linksOf(alice)).toHaveLength(2);
  });

  it('refuses 0 items with bad_request on links', async () => {
    const alice = await server.person();
    expectProblem(server, await createMany(alice, []), 400, 'bad_request', 'links');
  });

  it('refuses 51 items with bad_request on links, and makes nothing', async () => {
    const alice = await server.person();
    await server.setLimits(MANY);
    const items = Array.from({ length: 51 }, (_, i) => ({ destination: `https://example.com/${i}` }));
    expectProblem(server, await createMany(alice, items), 400, 'bad_request', 'links');
    expect(await linksOf(alice)).toHaveLength(0);
  });

  it('takes 50 items', async () => {
    const alice = await server.person();
    await server.setLimits(MANY);
    const items = Array.from({ length: 50 }, (_, i) => ({ destination: `https://example.com/${i}` }));
    const reply = await createMany(alice, items);
    expect(reply.status).toBe(200);
    expect(reply.body.results).toHaveLength(50);
    reply.body.results.forEach((r: any, i: number) => {
      expect(r.status).toBe(200);
      expect(r.link.destination).toBe(`https://example.com/${i}`);
    });
    expect(await linksOf(alice)).toHaveLength(50);
  });

  it('fails the items past team_full alone with 409 team_full', async () => {
    const alice = await server.person();
    await server.setLimits({ perHour: 1000, perDay: 1000, firstWeekPerDay: 1000 });
    await fill(alice, 24);
    const reply = await createMany(alice, [
      { destination: 'https://example.com/a' },
      { destination: 'https://example.com/b' },
      { destination: 'https://example.com/c' },
    ]);
    expect(reply.status).toBe(200);
    const results = reply.body.results;
    expect(results[0].status).toBe(200);
    expect(results[0].link.destination).toBe('https://example.com/a');
    for (const r of results.slice(1)) {
      expect(r).toMatchObject({ link: null, status: 409, code: 'team_full' });
      expect(typeof r.message).toBe('string');
    }
    expect(await linksOf(alice)).toHaveLength(25);
  });

  it('counts each item as one creation: items past the hourly limit fail alone with 429 limit_reached', async () => {
    const alice = await server.person();
    await server.setLimits({ perHour: 2 });
    const reply = await createMany(alice, [
      { destination: 'https://example.com/a' },
      { destination: 'https://example.com/b' },
      { destination: 'https://example.com/c' },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.body.results.map((r: any) => [r.status, r.code])).toEqual([
      [200, null],
      [200, null],
      [429, 'limit_reached'],
    ]);
    expect(reply.body.results[2].link).toBeNull();
    expect(typeof reply.body.results[2].message).toBe('string');
    expect(await linksOf(alice)).toHaveLength(2);
    // The batch used the hour's creations.
    expectProblem(server, await create(alice, { destination: 'https://example.com/d' }), 429, 'limit_reached');
  });

  it("answers 404 not_found for another person's team, and makes nothing", async () => {
    const alice = await server.person();
    const bob = await server.person();
    expectProblem(server, await createMany(alice, [{ destination: 'https://example.com/' }], bob.teamId), 404, 'not_found', 'team');
    expect(await linksOf(bob)).toHaveLength(0);
  });

  it('fails the whole call with 403 outside_token_record for a token limited to another team', async () => {
    const alice = await server.person({ limited: true });
    const second = await server.app.ctx.store.teams.add({ name: 'Second', ownerId: alice.personId }, server.clock.now());
    expectProblem(server, await createMany(alice, [{ destination: 'https://example.com/' }], second.id), 403, 'outside_token_record');
    const free = await server.token(alice.personId, alice.teamId);
    const listed = await call(server, 'listLinks', { team: second.id }, free);
    expect(listed.body.data).toHaveLength(0);
  });

  it('fails the whole call for an unknown top-level param', async () => {
    const alice = await server.person();
    const reply = await call(
      server,
      'createLinks',
      { team: alice.teamId, links: [{ destination: 'https://example.com/' }], dryRun: true },
      alice.token,
    );
    expectProblem(server, reply, 400, 'bad_request', 'dryRun');
    expect(await linksOf(alice)).toHaveLength(0);
  });

  it('fails the whole call when links is not an array or team is malformed', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'createLinks', { team: alice.teamId, links: { destination: 'https://example.com/' } }, alice.token), 400, 'bad_request', 'links');
    expectProblem(server, await call(server, 'createLinks', { team: alice.teamId }, alice.token), 400, 'bad_request', 'links');
    expectProblem(server, await createMany(alice, [{ destination: 'https://example.com/' }], 'nope'), 400, 'bad_request', 'team');
    expect(await linksOf(alice)).toHaveLength(0);
  });
});
