/**
 * createLink's `run` on a real store (spec sections 2, 4 "createLink", 7, 8; docs/behaviour.md "Codes and names",
 * "Links", "Limits", "Destination safety"). No server: test/e2e/api-create.test.ts proves the HTTP surface.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLink } from '../../src/tools/create-link.js';
import { deleteLink } from '../../src/tools/delete-link.js';
import { renameLink } from '../../src/tools/rename-link.js';
import { PUBLIC_URL, problem, scriptedCodes, ToolHarness, type Actor } from '../helpers/tool-harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = '2026-11-21T12:00:00.000Z';

let h: ToolHarness;
let alice: Actor;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
});
afterEach(() => h.close());

const create = (fields: Record<string, unknown>, actor = alice, team = actor.teamId) =>
  h.call(createLink, actor, { team, ...fields });

/** A new link as createLink answers it: only the code and id are drawn at random. */
function newLink(fields: { destination: string; name?: string | null; note?: string | null }) {
  return {
    id: expect.stringMatching(/^link_/),
    code: expect.stringMatching(/^(?=.*[A-Z])[A-Za-z0-9]{7}$/),
    name: null,
    note: null,
    state: 'active',
    createdAt: NOW,
    changedAt: null,
    shortUrl: expect.stringMatching(new RegExp(`^${PUBLIC_URL.replace(/[.]/g, '\\.')}/(?=.*[A-Z])[A-Za-z0-9]{7}$`)),
    nameUrl: fields.name ? `${PUBLIC_URL}/${fields.name}` : null,
    // A new link's options when none are sent: no end, no cap, no password, no tags, the query string passed on.
    expiresAt: null,
    maxClicks: null,
    hasPassword: false,
    tags: [],
    forwardQuery: true,
    ...fields,
  };
}

describe('createLink', () => {
  it('answers the new link: a random code, no name, no note, active, made now, never changed', async () => {
    const made = await create({ destination: 'https://example.com/path?q=1#top' });
    expect(made).toEqual(newLink({ destination: 'https://example.com/path?q=1#top' }));
  });

  it('stores the destination as the URL parser writes it (where the redirect goes)', async () => {
    const made = await h.link(alice, { destination: 'https://Example.COM:443/a/../b?x=%41' });
    expect(made.destination).toBe('https://example.com/b?x=%41');
    expect((await h.stored(made.code))?.destination).toBe('https://example.com/b?x=%41');
  });

  it('takes a name and a note; explicit nulls are none', async () => {
    const note = "Spring sale: shoes & bags (half off!) - Anna's list_2, ok? Thanks.";
    expect(await create({ destination: 'https://example.com/sale', name: 'spring_sale-1', note })).toEqual(
      newLink({ destination: 'https://example.com/sale', name: 'spring_sale-1', note }),
    );
    expect(await create({ destination: 'https://example.com/', name: null, note: null })).toEqual(
      newLink({ destination: 'https://example.com/' }),
    );
  });

  it('reads an empty note back as "" (not null)', async () => {
    expect((await h.link(alice, { note: '' })).note).toBe('');
  });

  it('takes names of 3 and of 50 characters of a-z 0-9 - _', async () => {
    expect((await h.link(alice, { name: 'a-_' })).name).toBe('a-_');
    expect((await h.link(alice, { name: 'z9'.repeat(25) })).name).toBe('z9'.repeat(25));
  });

  it('takes a note of 100 characters counted as code points, letters and digits of any script', async () => {
    const astral = '𝒜'.repeat(100); // 100 letters, 200 UTF-16 units
    expect((await h.link(alice, { note: astral })).note).toBe(astral);
    expect((await h.link(alice, { note: '日本語 Ärger ñ ١٢٣' })).note).toBe('日本語 Ärger ñ ١٢٣');
  });

  it('lets any member of the team create, not only its owner', async () => {
    const bob = await h.person();
    await h.join(alice.teamId, bob);
    const made = await h.link(bob, {}, alice.teamId);
    expect((await h.store.links.findByCode(made.code))?.teamId).toBe(alice.teamId);
  });

  describe('codes', () => {
    it('draws again until a code holds an uppercase letter, so no code can equal a name', async () => {
      const h2 = new ToolHarness({ random: scriptedCodes(['abcdefg', '1234567', 'abcDefg']) });
      try {
        const carol = await h2.person();
        expect((await h2.link(carol)).code).toBe('abcDefg');
      } finally {
        h2.close();
      }
    });

    it('never issues a code twice, not even the code of a deleted link', async () => {
      const h2 = new ToolHarness({ random: scriptedCodes(['Gone123', 'Gone123', 'Live123', 'Next123']) });
      try {
        const carol = await h2.person();
        const first = await h2.link(carol);
        expect(first.code).toBe('Gone123');
        expect(await h2.ok(deleteLink, carol, { code: 'Gone123' })).toBeNull();
        // The generator proposes the deleted code first; it is passed over.
        expect((await h2.link(carol)).code).toBe('Live123');
      } finally {
        h2.close();
      }
    });
  });

  describe('invalid_destination (rules 1 and 2)', () => {
    it.each([
      ['an http address', 'http://example.com/'],
      ['a javascript: address', 'javascript:alert(1)'],
      ['not a URL', 'not a url'],
      ['an empty string', ''],
      ['no host', 'https://'],
      ['leading white space', ' https://example.com/'],
      ['trailing white space', 'https://example.com/ '],
      ['a control character', 'https://exa\tmple.com/'],
      ['user credentials', 'https://user@example.com/'],
      ['an empty user part', 'https://@example.com/'],
      ['2,049 characters', `https://example.com/${'a'.repeat(2049 - 20)}`],
    ])('%s: 400 invalid_destination at destination', async (_, destination) => {
      expect(await create({ destination })).toEqual(problem(400, 'invalid_destination', 'destination'));
    });

    it('takes exactly 2,048 characters', async () => {
      const destination = `https://example.com/${'a'.repeat(2048 - 20)}`;
      expect(destination).toHaveLength(2048);
      expect((await h.link(alice, { destination })).destination).toBe(destination);
    });

    it('counts the length as the address is written: 2,048 characters sent that grow when encoded are refused', async () => {
      const destination = `https://example.com/${'é'.repeat(2048 - 20)}`; // each é is written %C3%A9
      expect(await create({ destination })).toEqual(problem(400, 'invalid_destination', 'destination'));
    });

    it('a host name that does not exist (DNS): 400 invalid_destination', async () => {
      h.network.missingHosts.add('no-such-site.com');
      expect(await create({ destination: 'https://no-such-site.com/' })).toEqual(
        problem(400, 'invalid_destination', 'destination'),
      );
    });
  });

  describe('private_destination (rule 3)', () => {
    it.each([
      ['a public IP literal', 'https://8.8.8.8/'],
      ['IPv6 loopback', 'https://[::1]/'],
      ['a decimal IP spelling', 'https://2130706433/'],
      ['localhost', 'https://localhost/'],
      ['a .local name', 'https://printer.local/'],
      ['a single-label name', 'https://intranet/'],
    ])('%s, from the address alone: 400 private_destination, without asking DNS', async (_, destination) => {
      expect(await create({ destination })).toEqual(problem(400, 'private_destination', 'destination'));
      expect(h.network.askedDns).toEqual([]);
    });

    it('a name that resolves to a private address: 400 private_destination', async () => {
      h.network.privateHosts.add('internal.example.com');
      expect(await create({ destination: 'https://Internal.Example.com./x' })).toEqual(
        problem(400, 'private_destination', 'destination'),
      );
      expect(h.network.askedDns).toEqual(['internal.example.com']);
    });
  });

  describe('shortener_destination (rule 4)', () => {
    it.each([
      ['another shortener', 'https://bit.ly/x'],
      ['a subdomain of a shortener, in capitals with a trailing dot', 'https://WWW.TinyURL.com./abc'],
      ["the service's own address", `${PUBLIC_URL}/Abc1234`],
      ["a subdomain of the service's own host", 'https://www.lnk.example.net/x'],
    ])('%s: 400 shortener_destination', async (_, destination) => {
      expect(await create({ destination })).toEqual(problem(400, 'shortener_destination', 'destination'));
    });

    it('allows first-party shorteners such as youtu.be', async () => {
      expect((await h.link(alice, { destination: 'https://youtu.be/dQw4w9WgXcQ' })).destination).toBe(
        'https://youtu.be/dQw4w9WgXcQ',
      );
    });
  });

  describe('blocked_destination (rule 5)', () => {
    it("refuses a domain the operator blocked and its subdomains, in any case, but not a longer name", async () => {
      await h.block('blocked-site.com');
      for (const destination of ['https://blocked-site.com/x', 'https://WWW.Blocked-Site.COM./page']) {
        expect(await create({ destination })).toEqual(problem(400, 'blocked_destination', 'destination'));
      }
      expect((await h.link(alice, { destination: 'https://notblocked-site.com/' })).destination).toBe(
        'https://notblocked-site.com/',
      );
    });

    it('takes effect on the next call', async () => {
      await h.link(alice, { destination: 'https://soon-blocked.com/' });
      await h.block('soon-blocked.com');
      expect(await create({ destination: 'https://soon-blocked.com/' })).toEqual(
        problem(400, 'blocked_destination', 'destination'),
      );
    });
  });

  describe('unsafe_destination (rule 6)', () => {
    it('an address on an unsafe-site list: 400 unsafe_destination; the list is asked without the fragment', async () => {
      h.network.unsafeUrls.add('https://phish.example.com/login');
      expect(await create({ destination: 'https://PHISH.example.com/login#step' })).toEqual(
        problem(400, 'unsafe_destination', 'destination'),
      );
      expect(h.network.askedLists).toEqual(['https://phish.example.com/login']);
    });
  });

  describe('check_unavailable', () => {
    it('DNS cannot answer: 503 check_unavailable, retry after 60 seconds, nothing made', async () => {
      h.network.dnsDown = true;
      expect(await create({ destination: 'https://example.com/' })).toEqual({
        ...problem(503, 'check_unavailable', 'destination'),
        retryAfter: 60,
      });
      expect(await h.store.links.list(alice.teamId, { state: null, q: null }, { limit: 10, after: null })).toEqual([]);
    });

    it('the unsafe-site list cannot answer: 503 check_unavailable, retry after 60 seconds', async () => {
      h.network.listDown = true;
      expect(await create({ destination: 'https://example.com/' })).toEqual({
        ...problem(503, 'check_unavailable', 'destination'),
        retryAfter: 60,
      });
    });
  });

  describe('the order of the checks', () => {
    it('the destination rules run in the spec order: DNS (3) before the blocklist (5), which spares the lists (6)', async () => {
      await h.block('everything-wrong.com');
      h.network.privateHosts.add('everything-wrong.com');
      h.network.unsafeUrls.add('https://everything-wrong.com/');
      expect(await create({ destination: 'https://everything-wrong.com/' })).toEqual(problem(400, 'private_destination', 'destination'));
      h.network.privateHosts.clear();
      expect(await create({ destination: 'https://everything-wrong.com/' })).toEqual(problem(400, 'blocked_destination', 'destination'));
      expect(h.network.askedLists).toEqual([]);
    });

    it('the name and note are checked before the destination, which is then not looked up', async () => {
      expect(await create({ destination: 'http://example.com/', name: 'Bad Name', note: '<b>' })).toEqual(
        problem(400, 'invalid_name', 'name'),
      );
      expect(await create({ destination: 'https://example.com/', note: '<b>' })).toEqual(problem(400, 'invalid_note', 'note'));
      expect(h.network.askedDns).toEqual([]);
    });

    it('a full team answers team_full before any creation limit', async () => {
      await h.setLimits({ maxLinksPerTeam: 1, perHour: 1 });
      await h.link(alice);
      expect(await create({ destination: 'https://example.com/' })).toEqual(problem(409, 'team_full'));
    });
  });

  describe('invalid_name', () => {
    it.each([
      ['too short', 'ab'],
      ['51 characters', 'a'.repeat(51)],
      ['uppercase', 'Hello'],
      ['a space', 'my name'],
      ['a dot', 'my.name'],
      ['non-ASCII', 'café-link'],
      ['empty', ''],
      // Reserved words of 2 characters: the spec's length rule refuses them first.
      ['the word v1', 'v1'],
      ['the word qr', 'qr'],
    ])('%s: 400 invalid_name at name', async (_, name) => {
      expect(await create({ destination: 'https://example.com/', name })).toEqual(
        problem(400, 'invalid_name', 'name', 'A short link name is 3 to 50 characters of lowercase letters, digits, "-" and "_".'),
      );
    });
  });

  describe('reserved_name', () => {
    it.each(['api', 'admin', 'mcp', 'oauth', 'welcome', 'docs', 'well-known', 'dashboard', 'healthz', 'v10', 'v123'])(
      'the service word %s: 400 reserved_name at name',
      async (name) => {
        expect(await create({ destination: 'https://example.com/', name })).toEqual(
          problem(400, 'reserved_name', 'name', `"${name}" is reserved by the service.`),
        );
      },
    );

    it('takes names that only contain a service word', async () => {
      expect((await h.link(alice, { name: 'api-docs-2' })).name).toBe('api-docs-2');
    });

    it('the name of a deleted link: 400 reserved_name for everyone, its own team included', async () => {
      const bob = await h.person();
      const made = await h.link(alice, { name: 'gone-name' });
      await h.ok(deleteLink, alice, { code: made.code });
      const refused = problem(400, 'reserved_name', 'name', '"gone-name" belonged to a deleted link and is never issued again.');
      expect(await create({ destination: 'https://example.com/', name: 'gone-name' })).toEqual(refused);
      expect(await create({ destination: 'https://example.com/', name: 'gone-name' }, bob)).toEqual(refused);
    });
  });

  describe('invalid_note', () => {
    it.each([
      ['markup', '<script>'],
      ['a semicolon', 'a;b'],
      ['a slash', 'a/b'],
      ['a double quote', 'say "hi"'],
      ['a newline', 'line one\nline two'],
      ['a tab', 'a\tb'],
      ['an emoji', 'party 🎉'],
    ])('%s: 400 invalid_note at note', async (_, note) => {
      expect(await create({ destination: 'https://example.com/', note })).toEqual(
        problem(400, 'invalid_note', 'note', "A note is at most 100 characters of letters, numbers, spaces and - _ , . ' ( ) & ! ? :"),
      );
    });

    it.each([
      ['101 characters', 'a'.repeat(101)],
      ['101 letters outside the BMP', '𝒜'.repeat(101)],
    ])('%s: 400 invalid_note, saying the length', async (_, note) => {
      expect(await create({ destination: 'https://example.com/', note })).toEqual(
        problem(400, 'invalid_note', 'note', 'A note is at most 100 characters.'),
      );
    });
  });

  describe('name_taken', () => {
    it("a name held by another team's live link: 409 name_taken at name, nothing made", async () => {
      const bob = await h.person();
      await h.link(alice, { name: 'held' });
      expect(await create({ destination: 'https://example.com/', name: 'held' }, bob)).toEqual(
        problem(409, 'name_taken', 'name', 'The short link name "held" is taken.'),
      );
      expect(await h.store.links.list(bob.teamId, { state: null, q: null }, { limit: 10, after: null })).toEqual([]);
    });

    it('a name held by a live link of the same team: 409 name_taken', async () => {
      await h.link(alice, { name: 'held' });
      expect(await create({ destination: 'https://example.com/', name: 'held' })).toEqual(problem(409, 'name_taken', 'name'));
    });

    it('a name another team let go by renaming stays with that team: name_taken for others, free for it', async () => {
      const bob = await h.person();
      const made = await h.link(alice, { name: 'kept' });
      await h.ok(renameLink, alice, { code: made.code, name: null });
      expect(await create({ destination: 'https://example.com/', name: 'kept' }, bob)).toEqual(problem(409, 'name_taken', 'name'));
      expect((await h.link(alice, { name: 'kept' })).name).toBe('kept');
    });
  });

  describe('team_full', () => {
    it('the team already holds as many links as the limit: 409 team_full; a deleted link frees its place', async () => {
      await h.setLimits({ maxLinksPerTeam: 2 });
      const first = await h.link(alice);
      await h.link(alice);
      expect(await create({ destination: 'https://example.com/' })).toEqual(
        problem(409, 'team_full', null, 'The team already holds 2 links; delete one to make room.'),
      );
      await h.ok(deleteLink, alice, { code: first.code });
      expect(await create({ destination: 'https://example.com/' })).toMatchObject({ state: 'active' });
    });

    it('holds 25 links by default', async () => {
      await h.setLimits({ perHour: 1000, perDay: 1000, firstWeekPerDay: 1000 });
      for (let i = 0; i < 25; i++) await h.link(alice);
      expect(await create({ destination: 'https://example.com/' })).toMatchObject({ status: 409, code: 'team_full' });
    });

    it('counts each team on its own', async () => {
      const bob = await h.person();
      await h.setLimits({ maxLinksPerTeam: 1 });
      await h.link(alice);
      expect(await create({ destination: 'https://example.com/' })).toMatchObject({ code: 'team_full' });
      expect(await create({ destination: 'https://example.com/' }, bob)).toMatchObject({ state: 'active' });
    });
  });

  describe('limit_reached', () => {
    it('past the hourly limit: 429 with the seconds until the oldest creation leaves the hour', async () => {
      await h.setLimits({ perHour: 3 });
      for (let i = 0; i < 3; i++) await h.link(alice);
      expect(await create({ destination: 'https://example.com/' })).toEqual({
        ...problem(429, 'limit_reached', null, "The team made 3 links in the last hour. That is the operator's limit of new links per team per hour. Try again in 60 minutes."),
        retryAfter: 3600,
      });
      h.clock.advance(10 * 60_000);
      expect(await create({ destination: 'https://example.com/' })).toMatchObject({ code: 'limit_reached', retryAfter: 3000 });
      h.clock.advance(HOUR - 10 * 60_000 + 1);
      expect(await create({ destination: 'https://example.com/' })).toMatchObject({ state: 'active' });
    });

    it('a deleted link does not give back its creation', async () => {
      await h.setLimits({ perHour: 2 });
      const first = await h.link(alice);
      await h.link(alice);
      await h.ok(deleteLink, alice, { code: first.code });
      expect(await create({ destination: 'https://example.com/' })).toMatchObject({ code: 'limit_reached' });
    });

    it('past the daily limit, after the first week: 429 until the day has passed', async () => {
      h.clock.advance(8 * DAY);
      await h.setLimits({ perHour: 1000, perDay: 3, firstWeekPerDay: 1000 });
      for (let i = 0; i < 3; i++) await h.link(alice);
      expect(await create({ destination: 'https://example.com/' })).toEqual({
        ...problem(429, 'limit_reached', null, "The team made 3 links in the last day. That is the operator's limit of new links per team per day. Try again in 24 hours."),
        retryAfter: 86_400,
      });
      h.clock.advance(HOUR + 1);
      expect(await create({ destination: 'https://example.com/' })).toMatchObject({ retryAfter: 82_800 });
      h.clock.advance(DAY - HOUR);
      expect(await create({ destination: 'https://example.com/' })).toMatchObject({ state: 'active' });
    });

    it('in its first 7 days a team may make 10 links a day (by default), saying so', async () => {
      for (let i = 0; i < 10; i++) await h.link(alice);
      expect(await create({ destination: 'https://example.com/' })).toEqual({
        ...problem(429, 'limit_reached', null, "The team made 10 links in the last day (a team in its first week). That is the operator's limit of new links per team per day in a team's first week. Try again in 24 hours."),
        retryAfter: 86_400,
      });
    });

    it('the first-week limit ends when the team is 7 days old; the ordinary one counts the same 24 hours', async () => {
      await h.setLimits({ perHour: 1000, perDay: 4, firstWeekPerDay: 2 });
      h.clock.advance(6 * DAY + 12 * HOUR);
      for (let i = 0; i < 2; i++) await h.link(alice);
      expect(await create({ destination: 'https://example.com/' })).toMatchObject({ code: 'limit_reached' });
      h.clock.advance(12 * HOUR);
      for (let i = 0; i < 2; i++) await h.link(alice);
      // Four in the last day: the two made 12 hours ago leave the window in 12 hours.
      expect(await create({ destination: 'https://example.com/' })).toEqual({
        ...problem(429, 'limit_reached', null, "The team made 4 links in the last day. That is the operator's limit of new links per team per day. Try again in 12 hours."),
        retryAfter: 43_200,
      });
    });
  });

  it('changes nothing when it fails: a refused name is not claimed', async () => {
    const bob = await h.person();
    await h.setLimits({ perHour: 1 });
    const kept = await h.link(alice);
    // The limit is checked in the same transaction that would claim the name.
    expect(await create({ destination: 'https://example.com/', name: 'wanted' })).toMatchObject({ code: 'limit_reached' });
    expect(await create({ destination: 'https://bit.ly/x', name: 'wanted' })).toMatchObject({ code: 'shortener_destination' });
    const listed = await h.store.links.list(alice.teamId, { state: null, q: null }, { limit: 10, after: null });
    expect(listed.map((link) => link.code)).toEqual([kept.code]);
    expect((await h.link(bob, { name: 'wanted' })).name).toBe('wanted');
  });

  describe('not_found and outside_token_record', () => {
    it("another person's team, or a team that does not exist: the same 404 not_found at team", async () => {
      const bob = await h.person();
      const notYours = problem(404, 'not_found', 'team', 'No team with that id is among your teams.');
      expect(await create({ destination: 'https://example.com/' }, alice, bob.teamId)).toEqual(notYours);
      expect(await create({ destination: 'https://example.com/' }, alice, 'team_doesnotexist00')).toEqual(notYours);
    });

    it("a token limited to another of the person's teams: 403 outside_token_record, nothing made", async () => {
      const second = await h.team(alice, 'Second');
      const limited = h.caller(alice, { limitedTo: alice.teamId });
      expect(await h.call(createLink, limited, { team: second, destination: 'https://example.com/' })).toEqual(
        problem(403, 'outside_token_record'),
      );
      expect(await h.store.links.list(second, { state: null, q: null }, { limit: 10, after: null })).toEqual([]);
      expect((await h.link(limited, {}, alice.teamId)).state).toBe('active');
    });

    it('a limited token, on a team its person is not in: 404, not 403 (existence does not leak)', async () => {
      const bob = await h.person();
      const limited = h.caller(alice, { limitedTo: alice.teamId });
      expect(await h.call(createLink, limited, { team: bob.teamId, destination: 'https://example.com/' })).toEqual(
        problem(404, 'not_found', 'team'),
      );
    });
  });

  describe('bad_request', () => {
    it.each([
      ['an unknown param', { team: 'team_x', destination: 'https://example.com/', colour: 'red' }, 'colour', 'colour is not a known param.'],
      ['a missing destination', { team: 'team_x' }, 'destination', 'destination is required.'],
      ['a missing team', { destination: 'https://example.com/' }, 'team', 'team is required.'],
    ])('%s: 400 bad_request naming the param', async (_, params, field, detail) => {
      expect(await h.call(createLink, alice, params)).toEqual(problem(400, 'bad_request', field, detail));
    });

    it.each([
      ['a destination of the wrong type', { destination: 5 }, 'destination'],
      ['a name of the wrong type', { destination: 'https://example.com/', name: 5 }, 'name'],
      ['a note of the wrong type', { destination: 'https://example.com/', note: ['x'] }, 'note'],
    ])('%s: 400 bad_request at it', async (_, fields, field) => {
      expect(await create(fields)).toEqual(problem(400, 'bad_request', field));
    });

    it('a team that does not start with team_: 400 bad_request at team', async () => {
      expect(await create({ destination: 'https://example.com/' }, alice, alice.teamId.replace(/^team_/, 'crew_'))).toEqual(
        problem(400, 'bad_request', 'team'),
      );
    });

    it('params that are not an object: 400 bad_request, no field', async () => {
      expect(await h.call(createLink, alice, [1, 2])).toEqual(problem(400, 'bad_request', null));
    });

    it('a string holding a lone surrogate: 400 bad_request', async () => {
      expect(await create({ destination: 'https://example.com/', note: 'a\ud800b' })).toEqual(problem(400, 'bad_request'));
    });
  });

  it('a token without the createLink scope: 403 insufficient_scope; with it, the link is made', async () => {
    const scoped = h.caller(alice, { scopes: ['getLink', 'createLinks'] });
    expect(await h.call(createLink, scoped, { team: alice.teamId, destination: 'https://example.com/' })).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call createLink.'),
    );
    const allowed = h.caller(alice, { scopes: ['createLink'] });
    expect((await h.link(allowed, {}, alice.teamId)).state).toBe('active');
  });
});
