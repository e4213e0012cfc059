/**
 * linkByCode's `run` (HTTP getLink) on a real store (spec section 4 "getLink"; docs/behaviour.md "Teams and access"):
 * a link of the caller's teams by its code; anything else, deleted links included, is 404.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeDestination } from '../../src/tools/change-destination.js';
import { deleteLink } from '../../src/tools/delete-link.js';
import { linkByCode } from '../../src/tools/link-by-code.js';
import { problem, PUBLIC_URL, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
});
afterEach(() => h.close());

const get = (code: unknown, caller: Caller = alice) => h.call(linkByCode, caller, { code });
const NOT_FOUND = problem(404, 'not_found', 'code', 'No link has that code.');

describe('linkByCode', () => {
  it('answers the link with every field', async () => {
    const made = await h.link(alice, { destination: 'https://example.com/get', name: 'got-it', note: 'A note' });
    expect(await get(made.code)).toEqual({
      id: made.id,
      code: made.code,
      name: 'got-it',
      destination: 'https://example.com/get',
      note: 'A note',
      state: 'active',
      createdAt: '2026-11-21T12:00:00.000Z',
      changedAt: null,
      shortUrl: `${PUBLIC_URL}/${made.code}`,
      nameUrl: `${PUBLIC_URL}/got-it`,
      expiresAt: null,
      maxClicks: null,
      hasPassword: false,
      tags: [],
      forwardQuery: true,
    });
  });

  it('answers changedAt once the link changed', async () => {
    const made = await h.link(alice);
    h.clock.advance(1_000);
    await h.ok(changeDestination, alice, { code: made.code, destination: 'https://example.org/' });
    expect(await get(made.code)).toMatchObject({ destination: 'https://example.org/', changedAt: '2026-11-21T12:00:01.000Z' });
  });

  it('answers flagged and disabled links with their state', async () => {
    const flagged = await h.link(alice);
    const disabled = await h.link(alice);
    await h.setState(flagged.code, 'flagged');
    await h.setState(disabled.code, 'disabled');
    expect(await get(flagged.code)).toEqual({ ...flagged, state: 'flagged', changedAt: '2026-11-21T12:00:00.000Z' });
    expect(await get(disabled.code)).toMatchObject({ state: 'disabled' });
  });

  it("answers any member of the link's team", async () => {
    const bob = await h.person();
    await h.join(alice.teamId, bob);
    const made = await h.link(alice);
    expect(await get(made.code, bob)).toEqual(made);
  });

  it('an unknown code: 404 not_found at code', async () => {
    expect(await get('Zz9Qq8X')).toEqual(NOT_FOUND);
  });

  it("a link of another team: the same 404 (existence does not leak)", async () => {
    const bob = await h.person();
    const bobs = await h.link(bob);
    expect(await get(bobs.code)).toEqual(NOT_FOUND);
  });

  it('a deleted link: the same 404', async () => {
    const made = await h.link(alice);
    await h.ok(deleteLink, alice, { code: made.code });
    expect(await get(made.code)).toEqual(NOT_FOUND);
  });

  it("a token limited to the person's team A: a link of team B, which the person is in, is 404", async () => {
    const teamB = await h.team(alice, 'B');
    const inB = await h.link(alice, {}, teamB);
    const inA = await h.link(alice);
    const limited = h.caller(alice, { limitedTo: alice.teamId });
    expect(await get(inB.code, limited)).toEqual(NOT_FOUND);
    expect(await get(inA.code, limited)).toEqual(inA);
  });

  it.each([['Abc123'], ['Abc12345'], [''], [1234567]])('code %j: 400 bad_request at code', async (code) => {
    expect(await get(code)).toEqual(problem(400, 'bad_request', 'code'));
  });

  const BY_NAME = "to find a link by its name, search the team's links for it: listLinks with q (teamLinks for an assistant)";

  it('a name of another length: 400 bad_request at code, saying what a code is and how to find a name', async () => {
    await h.link(alice, { name: 'team-handbook' });
    expect(await get('team-handbook')).toEqual(
      problem(400, 'bad_request', 'code', `code is a link's 7-character code, not its name; ${BY_NAME}.`),
    );
  });

  it('a 7-character name: 404 not_found at code, saying what a code is and how to find a name', async () => {
    await h.link(alice, { name: 'go-docs' });
    expect(await get('go-docs')).toEqual(
      problem(404, 'not_found', 'code', `No link has that code: codes are 7 characters of A-Z, a-z and 0-9; ${BY_NAME}.`),
    );
  });

  it('code missing: 400 bad_request at code', async () => {
    expect(await h.call(linkByCode, alice, {})).toEqual(problem(400, 'bad_request', 'code', 'code is required.'));
  });

  it('a token without the getLink scope: 403 insufficient_scope', async () => {
    const made = await h.link(alice);
    expect(await get(made.code, h.caller(alice, { scopes: ['linkByCode', 'listLinks'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call getLink.'),
    );
    expect(await get(made.code, h.caller(alice, { scopes: ['getLink'] }))).toEqual(made);
  });
});
