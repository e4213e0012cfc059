/**
 * renameLink's `run` on a real store (spec sections 3, 4 "renameLink"; docs/behaviour.md "Codes and names",
 * "Limits", "States"): sets, changes or removes a name; an old name stays with its team; names of deleted links and
 * the service's words are reserved; the change limit is shared with setDestination and deleteLink.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLink } from '../../src/tools/create-link.js';
import { deleteLink } from '../../src/tools/delete-link.js';
import { renameLink } from '../../src/tools/rename-link.js';
import type { Link } from '../../src/tools/schemas.js';
import { problem, PUBLIC_URL, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
let bob: Actor;
let made: Link;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
  bob = await h.person();
  made = await h.link(alice);
});
afterEach(() => h.close());

const rename = (name: unknown, code = made.code, caller: Caller = alice) =>
  h.call(renameLink, caller, { code, name });

describe('renameLink', () => {
  it('sets a name and changedAt to now; the rest stays', async () => {
    h.clock.advance(1_000);
    const expected = { ...made, name: 'first-name', nameUrl: `${PUBLIC_URL}/first-name`, changedAt: '2026-11-21T12:00:01.000Z' };
    expect(await rename('first-name')).toEqual(expected);
    expect(await h.stored(made.code)).toEqual(expected);
  });

  it('takes names of 3 and of 50 characters', async () => {
    expect(await rename('x7q')).toMatchObject({ name: 'x7q' });
    expect(await rename('l-'.repeat(25))).toMatchObject({ name: 'l-'.repeat(25) });
  });

  describe('old names', () => {
    it('a changed name stays with the team: 409 name_taken for another team, free for its own', async () => {
      await rename('old-name');
      await rename('new-name');
      expect(await h.call(createLink, bob, { team: bob.teamId, destination: 'https://example.com/', name: 'old-name' })).toEqual(
        problem(409, 'name_taken', 'name', 'The short link name "old-name" is taken.'),
      );
      const bobs = await h.link(bob);
      expect(await rename('old-name', bobs.code, bob)).toEqual(problem(409, 'name_taken', 'name'));
      expect((await h.link(alice, { name: 'old-name' })).name).toBe('old-name');
    });

    it('the same link may take its old name back', async () => {
      await rename('old-name');
      await rename('mid-name');
      expect(await rename('old-name')).toMatchObject({ name: 'old-name' });
    });

    it('null removes the name, which stays with the team', async () => {
      await rename('named');
      expect(await rename(null)).toMatchObject({ name: null });
      expect(await h.stored(made.code)).toMatchObject({ name: null });
      expect(await h.call(createLink, bob, { team: bob.teamId, destination: 'https://example.com/', name: 'named' })).toEqual(
        problem(409, 'name_taken', 'name'),
      );
      expect(await rename('named')).toMatchObject({ name: 'named' });
    });

    it('a name another link of the team gave up may move to this one; then it is held again', async () => {
      const other = await h.link(alice, { name: 'moving' });
      await rename(null, other.code);
      expect(await rename('moving')).toMatchObject({ name: 'moving' });
      expect(await rename('moving', other.code)).toEqual(problem(409, 'name_taken', 'name'));
    });
  });

  describe('no-ops', () => {
    it('renaming to the name it has changes nothing and is not counted', async () => {
      const named = await h.link(alice, { name: 'same' });
      await h.setLimits({ changesPerHour: 1 });
      for (let i = 0; i < 3; i++) expect(await rename('same', named.code)).toEqual(named);
      expect(await rename('changed', named.code)).toMatchObject({ name: 'changed' });
      expect(await rename('again', named.code)).toMatchObject({ code: 'limit_reached' });
    });

    it('removing the name of a link without one changes nothing', async () => {
      expect(await rename(null)).toEqual(made);
    });
  });

  it.each([
    ['too short', 'ab'],
    ['too long', 'a'.repeat(51)],
    ['uppercase', 'Upper-case'],
    ['a space', 'has space'],
    ['a dot', 'has.dot'],
    ['empty', ''],
    ['non-ASCII', 'café-link'],
    ['the 2-character word v1', 'v1'],
    ['the 2-character word qr', 'qr'],
  ])('%s: 400 invalid_name at name, unchanged', async (_, name) => {
    expect(await rename(name)).toEqual(
      problem(400, 'invalid_name', 'name', 'A short link name is 3 to 50 characters of lowercase letters, digits, "-" and "_".'),
    );
    expect(await h.stored(made.code)).toEqual(made);
  });

  it.each(['admin', 'api', 'v10', 'v123', 'mcp', 'docs', 'well-known', 'welcome', 'login', 'dashboard', 'set-password'])(
    'the service word %s: 400 reserved_name at name',
    async (name) => {
      expect(await rename(name)).toEqual(problem(400, 'reserved_name', 'name', `"${name}" is reserved by the service.`));
    },
  );

  it('the name of a deleted link: 400 reserved_name for everyone, its team included', async () => {
    const doomed = await h.link(alice, { name: 'gone' });
    await h.ok(deleteLink, alice, { code: doomed.code });
    const refused = problem(400, 'reserved_name', 'name', '"gone" belonged to a deleted link and is never issued again.');
    expect(await rename('gone')).toEqual(refused);
    const bobs = await h.link(bob);
    expect(await rename('gone', bobs.code, bob)).toEqual(refused);
  });

  it("a name held by another team's link or another link of the team: 409 name_taken, unchanged", async () => {
    await h.link(bob, { name: 'bobs-name' });
    await h.link(alice, { name: 'alices-name' });
    expect(await rename('bobs-name')).toEqual(problem(409, 'name_taken', 'name', 'The short link name "bobs-name" is taken.'));
    expect(await rename('alices-name')).toEqual(problem(409, 'name_taken', 'name'));
    expect(await h.stored(made.code)).toEqual(made);
  });

  describe('states', () => {
    it.each([
      ['flagged', 'link_flagged', 'The short link name cannot change while the link is flagged; ask for a review.'],
      ['disabled', 'link_disabled', 'The link was disabled by the service and cannot be changed.'],
    ] as const)('a %s link: 409 %s whatever the name, naming what cannot change, unchanged', async (state, code, detail) => {
      const named = await h.link(alice, { name: 'stays' });
      await h.setState(named.code, state);
      for (const name of [null, 'other-name', 'stays', 'Bad Name']) {
        expect(await rename(name, named.code)).toEqual(problem(409, code, null, detail));
      }
      expect(await h.stored(named.code)).toMatchObject({ name: 'stays' });
    });
  });

  describe('limit_reached', () => {
    it('past the change limit: 429 with the seconds until the oldest change leaves the hour, unchanged', async () => {
      await h.setLimits({ changesPerHour: 2 });
      await rename('one');
      await rename('two');
      expect(await rename('three')).toEqual({
        ...problem(429, 'limit_reached', null, "The team made 2 changes in the last hour. That is the operator's limit of changes per team per hour. Try again in 60 minutes."),
        retryAfter: 3600,
      });
      expect(await h.stored(made.code)).toMatchObject({ name: 'two' });
    });

    it('a refused name is not counted', async () => {
      await h.setLimits({ changesPerHour: 1 });
      await h.link(bob, { name: 'taken' });
      expect(await rename('taken')).toMatchObject({ code: 'name_taken' });
      expect(await rename('free')).toMatchObject({ name: 'free' });
    });
  });

  it("another team's link or an unknown code: 404 not_found at code", async () => {
    const bobs = await h.link(bob);
    expect(await rename('mine', bobs.code)).toEqual(problem(404, 'not_found', 'code', 'No link has that code.'));
    expect(await rename('mine', 'Zz9Qq8X')).toEqual(problem(404, 'not_found', 'code'));
  });

  it('a token limited to team A, on a link of team B the person is in: 403 outside_token_record', async () => {
    const teamB = await h.team(alice, 'B');
    const inB = await h.link(alice, {}, teamB);
    const limited = h.caller(alice, { limitedTo: alice.teamId });
    expect(await rename('from-a', inB.code, limited)).toEqual(problem(403, 'outside_token_record'));
    expect(await rename('in-a', made.code, limited)).toMatchObject({ name: 'in-a' });
  });

  it.each([
    ['name missing', { code: 'Abc1234' }, 'name', 'name is required.'],
    ['a name of the wrong type', { code: 'Abc1234', name: 7 }, 'name', undefined],
  ])('%s: 400 bad_request at name', async (_, params, field, detail) => {
    expect(await h.call(renameLink, alice, params)).toEqual(problem(400, 'bad_request', field, detail));
  });

  it('a token without the renameLink scope: 403 insufficient_scope', async () => {
    expect(await rename('x-y-z', made.code, h.caller(alice, { scopes: ['setNote'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call renameLink.'),
    );
  });
});
