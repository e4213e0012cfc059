/**
 * changeDestination's `run` (HTTP setDestination) on a real store (spec sections 2 "Destination rules", 3, 4
 * "setDestination", 8; docs/behaviour.md "Limits", "States"): the six destination rules, the link's state, and the
 * team's change limit shared with renameLink and deleteLink.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeDestination } from '../../src/tools/change-destination.js';
import { deleteLink } from '../../src/tools/delete-link.js';
import { renameLink } from '../../src/tools/rename-link.js';
import type { Link } from '../../src/tools/schemas.js';
import { PUBLIC_URL, problem, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
let made: Link;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
  made = await h.link(alice, { destination: 'https://example.com/old' });
});
afterEach(() => h.close());

const change = (destination: unknown, code = made.code, caller: Caller = alice) =>
  h.call(changeDestination, caller, { code, destination });

describe('changeDestination', () => {
  it('changes the destination and sets changedAt to now; the rest stays', async () => {
    h.clock.advance(1_000);
    const expected = { ...made, destination: 'https://example.org/new', changedAt: '2026-11-21T12:00:01.000Z' };
    expect(await change('https://example.org/new')).toEqual(expected);
    expect(await h.stored(made.code)).toEqual(expected);
  });

  it('stores the destination as the URL parser writes it', async () => {
    expect(await change('https://EXAMPLE.org/Path?b=2&a=1#Frag')).toMatchObject({ destination: 'https://example.org/Path?b=2&a=1#Frag' });
  });

  it('takes exactly 2,048 characters', async () => {
    const destination = `https://example.org/${'a'.repeat(2048 - 20)}`;
    expect(await change(destination)).toMatchObject({ destination });
  });

  it('lets any member of the team change it', async () => {
    const bob = await h.person();
    await h.join(alice.teamId, bob);
    expect(await change('https://example.org/by-bob', made.code, bob)).toMatchObject({ destination: 'https://example.org/by-bob' });
  });

  describe('the destination rules, each with its own code, the link unchanged', () => {
    it.each([
      ['http://example.org/', 'invalid_destination'],
      ['not a url', 'invalid_destination'],
      ['', 'invalid_destination'],
      [`https://example.org/${'a'.repeat(2049 - 20)}`, 'invalid_destination'],
      ['https://user@example.org/', 'invalid_destination'],
      ['https://10.0.0.1/', 'private_destination'],
      ['https://[::1]/', 'private_destination'],
      ['https://printer.local/', 'private_destination'],
      ['https://bit.ly/abc', 'shortener_destination'],
      [`${PUBLIC_URL}/Abc1234`, 'shortener_destination'],
    ] as const)('%j: 400 %s at destination', async (destination, code) => {
      expect(await change(destination)).toEqual(problem(400, code, 'destination'));
      expect(await h.stored(made.code)).toEqual(made);
    });

    it('blocked by the operator: 400 blocked_destination', async () => {
      await h.block('blocked-site.com');
      expect(await change('https://sub.BLOCKED-SITE.com/x')).toEqual(problem(400, 'blocked_destination', 'destination'));
    });

    it('a host name resolving to a private address: 400 private_destination; one that does not exist: 400 invalid_destination', async () => {
      h.network.privateHosts.add('inside.example.com');
      h.network.missingHosts.add('nowhere.example.com');
      expect(await change('https://inside.example.com/')).toEqual(problem(400, 'private_destination', 'destination'));
      expect(await change('https://nowhere.example.com/')).toEqual(problem(400, 'invalid_destination', 'destination'));
    });

    it('on an unsafe-site list: 400 unsafe_destination', async () => {
      h.network.unsafeUrls.add('https://phish.example.com/');
      expect(await change('https://phish.example.com/')).toEqual(problem(400, 'unsafe_destination', 'destination'));
      expect(await h.stored(made.code)).toEqual(made);
    });

    it('DNS or a list cannot answer: 503 check_unavailable, retry after 60 seconds', async () => {
      h.network.dnsDown = true;
      expect(await change('https://example.org/')).toEqual({ ...problem(503, 'check_unavailable', 'destination'), retryAfter: 60 });
      h.network.dnsDown = false;
      h.network.listDown = true;
      expect(await change('https://example.org/')).toEqual({ ...problem(503, 'check_unavailable', 'destination'), retryAfter: 60 });
      expect(await h.stored(made.code)).toEqual(made);
    });
  });

  describe('states', () => {
    it.each([
      ['flagged', 'link_flagged', 'The destination cannot change while the link is flagged; ask for a review.'],
      ['disabled', 'link_disabled', 'The link was disabled by the service and cannot be changed.'],
    ] as const)('a %s link: 409 %s, unchanged, its destination not even looked up', async (state, code, detail) => {
      await h.setState(made.code, state);
      const before = await h.stored(made.code);
      const asked = h.network.askedDns.length;
      expect(await change('https://example.org/x')).toEqual(problem(409, code, null, detail));
      expect(await h.stored(made.code)).toEqual(before);
      expect(h.network.askedDns).toHaveLength(asked);
    });

    it('a flagged link answers link_flagged whatever the destination', async () => {
      await h.setState(made.code, 'flagged');
      expect(await change('http://not-even-https/')).toEqual(problem(409, 'link_flagged'));
    });

    it('a link made active again can change', async () => {
      await h.setState(made.code, 'flagged');
      await h.setState(made.code, 'active');
      expect(await change('https://example.org/back')).toMatchObject({ destination: 'https://example.org/back', state: 'active' });
    });
  });

  describe('limit_reached', () => {
    it('past the change limit: 429 with the seconds until the oldest change leaves the hour, unchanged', async () => {
      await h.setLimits({ changesPerHour: 2 });
      await change('https://example.org/1');
      h.clock.advance(60_000);
      await change('https://example.org/2');
      expect(await change('https://example.org/3')).toEqual({
        ...problem(429, 'limit_reached', null, "The team made 2 changes in the last hour. That is the operator's limit of changes per team per hour. Try again in 59 minutes."),
        retryAfter: 3540,
      });
      expect((await h.stored(made.code))?.destination).toBe('https://example.org/2');
    });

    it('is per team', async () => {
      await h.setLimits({ changesPerHour: 1 });
      const bob = await h.person();
      const bobs = await h.link(bob);
      await change('https://example.org/1');
      expect(await change('https://example.org/1', bobs.code, bob)).toMatchObject({ destination: 'https://example.org/1' });
      expect(await change('https://example.org/2')).toMatchObject({ code: 'limit_reached' });
    });

    it('is shared with renameLink and deleteLink', async () => {
      await h.setLimits({ changesPerHour: 2 });
      const other = await h.link(alice);
      await h.ok(renameLink, alice, { code: made.code, name: 'renamed' });
      await h.ok(deleteLink, alice, { code: other.code });
      expect(await change('https://example.org/')).toMatchObject({ status: 429, code: 'limit_reached' });
    });

    it('a refused destination is not counted', async () => {
      await h.setLimits({ changesPerHour: 1 });
      expect(await change('https://bit.ly/x')).toMatchObject({ code: 'shortener_destination' });
      expect(await change('https://example.org/ok')).toMatchObject({ destination: 'https://example.org/ok' });
    });
  });

  describe('access', () => {
    it("another team's link, an unknown code or a deleted link: 404 not_found at code, unchanged", async () => {
      const bob = await h.person();
      const bobs = await h.link(bob);
      const gone = await h.link(alice);
      await h.ok(deleteLink, alice, { code: gone.code });
      for (const code of [bobs.code, 'Zz9Qq8X', gone.code]) {
        expect(await change('https://example.org/x', code)).toEqual(problem(404, 'not_found', 'code', 'No link has that code.'));
      }
      expect(await h.stored(bobs.code)).toEqual(bobs);
    });

    it("a token limited to team A, on a link of team B the person is in: 403 outside_token_record; outside the person's teams: 404", async () => {
      const teamB = await h.team(alice, 'B');
      const inB = await h.link(alice, {}, teamB);
      const bob = await h.person();
      const bobs = await h.link(bob);
      const limited = h.caller(alice, { limitedTo: alice.teamId });
      expect(await change('https://example.org/x', inB.code, limited)).toEqual(
        problem(403, 'outside_token_record', null, "The token works within its own team only; this reaches outside it."),
      );
      expect(await change('https://example.org/x', bobs.code, limited)).toEqual(problem(404, 'not_found', 'code'));
      expect(await change('https://example.org/x', made.code, limited)).toMatchObject({ destination: 'https://example.org/x' });
    });
  });

  it.each([
    ['destination missing', { code: 'Abc1234' }, 'destination'],
    ['a code of the wrong length', { code: 'Abc123', destination: 'https://example.org/' }, 'code'],
    ['a destination of the wrong type', { code: 'Abc1234', destination: 42 }, 'destination'],
  ])('%s: 400 bad_request naming the param', async (_, params, field) => {
    expect(await h.call(changeDestination, alice, params)).toEqual(problem(400, 'bad_request', field));
  });

  it('a token without the setDestination scope: 403 insufficient_scope', async () => {
    expect(await change('https://example.org/', made.code, h.caller(alice, { scopes: ['changeDestination'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call setDestination.'),
    );
  });
});
