/**
 * createLinks' `run` on a real store (spec section 4 "createLinks"; docs/behaviour.md "createLinks"): up to 50 items,
 * made in order, each passing or failing alone with what createLink would have answered.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLink } from '../../src/tools/create-link.js';
import { createLinks } from '../../src/tools/create-links.js';
import { problem, PUBLIC_URL, ToolHarness, type Actor } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
});
afterEach(() => h.close());

const createMany = (links: unknown, actor = alice, team = actor.teamId) => h.call(createLinks, actor, { team, links });

/** The codes of the team's live links, newest first. */
async function codesOf(team = alice.teamId): Promise<string[]> {
  return (await h.store.links.list(team, { state: null, q: null }, { limit: 100, after: null })).map((link) => link.code);
}

/** What createLink answers for the same fields, as a failed item shows it. */
async function asItem(fields: Record<string, unknown>) {
  const answer = await h.call(createLink, alice, { team: alice.teamId, ...fields });
  const { status, code, detail } = answer as { status: number; code: string; detail: string };
  return { link: null, status, code, message: detail };
}

describe('createLinks', () => {
  it('makes every item in order, each as {link, status: 200, code: null, message: null}', async () => {
    const items = [
      { destination: 'https://example.com/1' },
      { destination: 'https://example.com/2', name: 'second', note: 'two' },
      { destination: 'https://example.com/3', name: null, note: null },
    ];
    const { results } = await h.ok(createLinks, alice, { team: alice.teamId, links: items });
    expect(results).toEqual(
      items.map((item) => ({
        link: {
          id: expect.stringMatching(/^link_/),
          code: expect.stringMatching(/^[A-Za-z0-9]{7}$/),
          name: null,
          note: null,
          state: 'active',
          createdAt: '2026-11-21T12:00:00.000Z',
          changedAt: null,
          shortUrl: expect.stringMatching(/^https:\/\/.+\/[A-Za-z0-9]{7}$/),
          nameUrl: item.name ? `${PUBLIC_URL}/${item.name}` : null,
          expiresAt: null,
          maxClicks: null,
          hasPassword: false,
          tags: [],
          forwardQuery: true,
          ...item,
        },
        status: 200,
        code: null,
        message: null,
      })),
    );
    // Made in order: newest first is the reverse of the order sent.
    expect(await codesOf()).toEqual(results.map((result) => result.link!.code).reverse());
  });

  it("fails bad items alone, each with createLink's status, code and detail as message", async () => {
    const bad = [
      { destination: 'http://example.com/' },
      { destination: 'https://example.com/', name: 'Bad Name' },
      { destination: 'https://example.com/', note: '<i>' },
      { destination: 'https://localhost/' },
    ];
    const expected = [];
    for (const fields of bad) expected.push(await asItem(fields));
    const { results } = await h.ok(createLinks, alice, {
      team: alice.teamId,
      links: [{ destination: 'https://example.com/ok1' }, ...bad, { destination: 'https://example.com/ok2' }],
    });
    expect(results.map(({ status, code }) => [status, code])).toEqual([
      [200, null],
      [400, 'invalid_destination'],
      [400, 'invalid_name'],
      [400, 'invalid_note'],
      [400, 'private_destination'],
      [200, null],
    ]);
    expect(results.slice(1, 5)).toEqual(expected);
    expect(await codesOf()).toEqual([results[5]!.link!.code, results[0]!.link!.code]);
  });

  it('fails an item whose name an earlier item of the same call took: 409 name_taken', async () => {
    const { results } = await h.ok(createLinks, alice, {
      team: alice.teamId,
      links: [
        { destination: 'https://example.com/1', name: 'twice' },
        { destination: 'https://example.com/2', name: 'twice' },
      ],
    });
    expect(results[0]!.link!.name).toBe('twice');
    expect(results[1]).toEqual({ link: null, status: 409, code: 'name_taken', message: 'The short link name "twice" is taken.' });
  });

  it.each([
    ['a destination of the wrong type', { destination: 42 }, 'links[1].destination: Invalid input: expected string, received number.'],
    ['an unknown key', { destination: 'https://example.com/', colour: 'red' }, 'links[1].colour is not a known param.'],
    ['a missing destination', { note: 'hi' }, 'links[1].destination is required.'],
    ['an item that is not an object', 'https://example.com/', 'links[1]: Invalid input: expected object, received string.'],
    ['a null item', null, 'links[1]: Invalid input: expected object, received null.'],
  ])('fails a malformed item alone with 400 bad_request naming it: %s', async (_, item, message) => {
    const { results } = await h.ok(createLinks, alice, {
      team: alice.teamId,
      links: [{ destination: 'https://example.com/1' }, item, { destination: 'https://example.com/3' }],
    });
    expect(results.map((result) => result.status)).toEqual([200, 400, 200]);
    expect(results[1]).toEqual({ link: null, status: 400, code: 'bad_request', message });
    expect(await codesOf()).toHaveLength(2);
  });

  it('fails the items past team_full alone with 409 team_full', async () => {
    await h.setLimits({ maxLinksPerTeam: 2 });
    await h.link(alice);
    const { results } = await h.ok(createLinks, alice, {
      team: alice.teamId,
      links: [{ destination: 'https://example.com/a' }, { destination: 'https://example.com/b' }, { destination: 'https://example.com/c' }],
    });
    expect(results.map((result) => [result.status, result.code])).toEqual([[200, null], [409, 'team_full'], [409, 'team_full']]);
    expect(results[1]).toEqual({ link: null, status: 409, code: 'team_full', message: 'The team already holds 2 links; delete one to make room.' });
  });

  it('counts each item as one creation: items past the hourly limit fail alone with 429 limit_reached', async () => {
    await h.setLimits({ perHour: 2 });
    const { results } = await h.ok(createLinks, alice, {
      team: alice.teamId,
      links: [{ destination: 'https://example.com/a' }, { destination: 'https://example.com/b' }, { destination: 'https://example.com/c' }],
    });
    expect(results.map((result) => [result.status, result.code])).toEqual([[200, null], [200, null], [429, 'limit_reached']]);
    // An item carries no Retry-After of its own; its message says when.
    expect(results[2]).toEqual({
      link: null,
      status: 429,
      code: 'limit_reached',
      message: "The team made 2 links in the last hour. That is the operator's limit of new links per team per hour. Try again in 60 minutes.",
    });
    expect(await h.call(createLink, alice, { team: alice.teamId, destination: 'https://example.com/d' })).toMatchObject({
      code: 'limit_reached',
    });
  });

  it('fails an item whose destination could not be checked alone with 503 check_unavailable; the call succeeds', async () => {
    const { results } = await h.ok(createLinks, alice, { team: alice.teamId, links: [{ destination: 'https://example.com/a' }] });
    expect(results[0]!.status).toBe(200);
    h.network.dnsDown = true;
    const down = await h.ok(createLinks, alice, { team: alice.teamId, links: [{ destination: 'https://example.com/b' }] });
    expect(down.results).toEqual([
      { link: null, status: 503, code: 'check_unavailable', message: 'The name could not be looked up.' },
    ]);
  });

  it('a fault of ours in an item is not hidden in its result: the call fails', async () => {
    h.network.fault = true;
    await expect(createMany([{ destination: 'https://example.com/' }])).rejects.toThrow('a fault in the DNS check');
  });

  it('takes 50 items', async () => {
    await h.setLimits({ perHour: 1000, perDay: 1000, firstWeekPerDay: 1000, maxLinksPerTeam: 1000 });
    const links = Array.from({ length: 50 }, (_, i) => ({ destination: `https://example.com/${i}` }));
    const { results } = await h.ok(createLinks, alice, { team: alice.teamId, links });
    expect(results.map((result) => result.link?.destination)).toEqual(links.map((link) => link.destination));
  });

  it.each([
    ['0 items', 0],
    ['51 items', 51],
  ])('%s: 400 bad_request at links, nothing made', async (_, count) => {
    await h.setLimits({ perHour: 1000, perDay: 1000, firstWeekPerDay: 1000, maxLinksPerTeam: 1000 });
    const links = Array.from({ length: count }, (_, i) => ({ destination: `https://example.com/${i}` }));
    expect(await createMany(links)).toEqual(problem(400, 'bad_request', 'links'));
    expect(await codesOf()).toEqual([]);
  });

  it.each([
    ['links not an array', { links: { destination: 'https://example.com/' } }, 'links'],
    ['links missing', {}, 'links'],
    ['an unknown top-level param', { links: [{ destination: 'https://example.com/' }], dryRun: true }, 'dryRun'],
  ])('fails the whole call with 400 bad_request: %s', async (_, params, field) => {
    expect(await h.call(createLinks, alice, { team: alice.teamId, ...params })).toEqual(problem(400, 'bad_request', field));
    expect(await codesOf()).toEqual([]);
  });

  it('a team that does not start with team_: 400 bad_request at team', async () => {
    expect(await createMany([{ destination: 'https://example.com/' }], alice, 'nope')).toEqual(problem(400, 'bad_request', 'team'));
  });

  // prepareCall reads the whole body before any item: an item no param could hold fails the call, not the item.
  it('a lone surrogate in one item: 400 bad_request for the whole call, nothing made', async () => {
    expect(await createMany([{ destination: 'https://example.com/' }, { destination: 'https://example.com/', note: '\udc00' }])).toEqual(
      problem(400, 'bad_request', null, 'A string holds a lone UTF-16 surrogate.'),
    );
    expect(await codesOf()).toEqual([]);
  });

  it("another person's team: 404 not_found at team, nothing made", async () => {
    const bob = await h.person();
    expect(await createMany([{ destination: 'https://example.com/' }], alice, bob.teamId)).toEqual(problem(404, 'not_found', 'team'));
    expect(await codesOf(bob.teamId)).toEqual([]);
  });

  it("a token limited to another of the person's teams: 403 outside_token_record for the whole call", async () => {
    const second = await h.team(alice, 'Second');
    const limited = h.caller(alice, { limitedTo: alice.teamId });
    expect(await h.call(createLinks, limited, { team: second, links: [{ destination: 'https://example.com/' }] })).toEqual(
      problem(403, 'outside_token_record'),
    );
    expect(await codesOf(second)).toEqual([]);
  });

  it('a token with the createLink scope only: 403 insufficient_scope (each operation is its own scope)', async () => {
    const scoped = h.caller(alice, { scopes: ['createLink'] });
    expect(await h.call(createLinks, scoped, { team: alice.teamId, links: [{ destination: 'https://example.com/' }] })).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call createLinks.'),
    );
    const allowed = h.caller(alice, { scopes: ['createLinks'] });
    const { results } = await h.ok(createLinks, allowed, { team: alice.teamId, links: [{ destination: 'https://example.com/' }] });
    expect(results[0]!.status).toBe(200);
  });
});
