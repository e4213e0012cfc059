/**
 * deleteLink's `run` on a real store (spec sections 3, 4 "deleteLink"; docs/behaviour.md "Codes and names",
 * "Limits", "States"). Asking the person first is the MCP surface's part (test/mcp/tool-calls.test.ts); the tool
 * gives the question, tested here, and over HTTP takes no `confirm`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLink } from '../../src/tools/create-link.js';
import { deleteLink } from '../../src/tools/delete-link.js';
import { linkByCode } from '../../src/tools/link-by-code.js';
import { linkClicks } from '../../src/tools/link-clicks.js';
import { renameLink } from '../../src/tools/rename-link.js';
import { setNote } from '../../src/tools/set-note.js';
import { teamLinks } from '../../src/tools/team-links.js';
import { changeDestination } from '../../src/tools/change-destination.js';
import type { Link } from '../../src/tools/schemas.js';
import { PUBLIC_URL, problem, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
let made: Link;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
  made = await h.link(alice, { destination: 'https://example.com/doomed', name: 'doomed' });
});
afterEach(() => h.close());

const remove = (code = made.code, caller: Caller = alice) => h.call(deleteLink, caller, { code });
const NOT_FOUND = problem(404, 'not_found', 'code', 'No link has that code.');

describe('deleteLink', () => {
  it('answers null and the link is gone', async () => {
    expect(await remove()).toBeNull();
    expect(await h.stored(made.code)).toBeNull();
  });

  it('afterwards every operation on its code answers 404 not_found, deleting again too, and lists leave it out', async () => {
    const kept = await h.link(alice);
    await remove();
    expect(await remove()).toEqual(NOT_FOUND);
    expect(await h.call(linkByCode, alice, { code: made.code })).toEqual(NOT_FOUND);
    expect(await h.call(linkClicks, alice, { code: made.code })).toEqual(NOT_FOUND);
    expect(await h.call(changeDestination, alice, { code: made.code, destination: 'https://example.org/' })).toEqual(NOT_FOUND);
    expect(await h.call(setNote, alice, { code: made.code, note: 'x' })).toEqual(NOT_FOUND);
    expect(await h.call(renameLink, alice, { code: made.code, name: null })).toEqual(NOT_FOUND);
    expect(await h.call(teamLinks, alice, { team: alice.teamId })).toEqual({ data: [kept], next: null });
  });

  it('its name is never issued again: 400 reserved_name, for its own team too', async () => {
    await remove();
    expect(await h.call(createLink, alice, { team: alice.teamId, destination: 'https://example.com/', name: 'doomed' })).toEqual(
      problem(400, 'reserved_name', 'name'),
    );
  });

  it('frees its place in the team (team_full), but gives back no creation', async () => {
    await h.setLimits({ maxLinksPerTeam: 1 });
    const make = () => h.call(createLink, alice, { team: alice.teamId, destination: 'https://example.com/' });
    expect(await make()).toMatchObject({ code: 'team_full' });
    await remove();
    expect(await make()).toMatchObject({ state: 'active' });
  });

  it.each(['flagged', 'disabled'] as const)('a %s link can be deleted', async (state) => {
    await h.setState(made.code, state);
    expect(await remove()).toBeNull();
    expect(await h.stored(made.code)).toBeNull();
  });

  it('any member of the team may delete', async () => {
    const bob = await h.person();
    await h.join(alice.teamId, bob);
    expect(await remove(made.code, bob)).toBeNull();
  });

  it('past the change limit: 429 limit_reached with the seconds to wait, nothing deleted', async () => {
    await h.setLimits({ changesPerHour: 2 });
    await remove((await h.link(alice)).code);
    await remove((await h.link(alice)).code);
    expect(await remove()).toEqual({
      ...problem(429, 'limit_reached', null, "The team made 2 changes in the last hour. That is the operator's limit of changes per team per hour. Try again in 60 minutes."),
      retryAfter: 3600,
    });
    expect(await h.stored(made.code)).toEqual(made);
  });

  it("another team's link or an unknown code: 404 not_found at code, nothing deleted", async () => {
    const bob = await h.person();
    expect(await remove(made.code, bob)).toEqual(NOT_FOUND);
    expect(await remove('Zz9Qq8X')).toEqual(NOT_FOUND);
    expect(await h.stored(made.code)).toEqual(made);
  });

  it("a token limited to team A, on a link of team B the person is in: 403 outside_token_record, nothing deleted", async () => {
    const teamB = await h.team(alice, 'B');
    const inB = await h.link(alice, {}, teamB);
    expect(await remove(inB.code, h.caller(alice, { limitedTo: alice.teamId }))).toEqual(problem(403, 'outside_token_record'));
    expect(await h.stored(inB.code)).toEqual(inB);
  });

  it.each([
    ['a code of the wrong length', { code: 'short' }, 'code'],
    // `confirm` belongs to the assistant surface, which takes it off before the params are read.
    ['confirm', { code: 'Abc1234', confirm: true }, 'confirm'],
  ])('%s: 400 bad_request naming the param', async (_, params, field) => {
    expect(await h.call(deleteLink, alice, params)).toEqual(problem(400, 'bad_request', field));
  });

  it('a token without the deleteLink scope: 403 insufficient_scope, nothing deleted', async () => {
    expect(await remove(made.code, h.caller(alice, { scopes: ['getLink'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call deleteLink.'),
    );
    expect(await h.stored(made.code)).toEqual(made);
  });

  describe('the question put to the person first', () => {
    it('names the link, its name and where it leads', async () => {
      expect(await deleteLink.confirmation!({ code: made.code }, alice, h.ctx)).toBe(
        `Delete the short link ${PUBLIC_URL}/${made.code} (${PUBLIC_URL}/doomed), which leads to https://example.com/doomed? ` +
          'It stops working at once, and its code and name are never issued again.',
      );
      const unnamed = await h.link(alice, { destination: 'https://example.org/x' });
      expect(await deleteLink.confirmation!({ code: unnamed.code }, alice, h.ctx)).toBe(
        `Delete the short link ${PUBLIC_URL}/${unnamed.code}, which leads to https://example.org/x? ` +
          'It stops working at once, and its code and name are never issued again.',
      );
    });

    it('is asked only after access is checked: 404 outside the teams, 403 outside the token record', async () => {
      const bob = await h.person();
      await expect(deleteLink.confirmation!({ code: made.code }, bob, h.ctx)).rejects.toMatchObject({ status: 404, code: 'not_found', field: 'code' });
      const otherTeam = await h.team(alice, 'B');
      const inB = await h.link(alice, {}, otherTeam);
      await expect(deleteLink.confirmation!({ code: inB.code }, h.caller(alice, { limitedTo: alice.teamId }), h.ctx)).rejects.toMatchObject({
        status: 403,
        code: 'outside_token_record',
      });
    });
  });
});
