/**
 * myTeams' `run` (HTTP listTeams) on a real store (spec section 4 "listTeams"; docs/behaviour.md "Teams and access",
 * "Tokens and people"): the caller's teams by name, then id, in signed keyset pages.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { myTeams } from '../../src/tools/my-teams.js';
import { teamLinks } from '../../src/tools/team-links.js';
import { problem, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person({ teamName: 'Bravo' });
});
afterEach(() => h.close());

const teams = (params: Record<string, unknown> = {}, caller: Caller = alice) => h.call(myTeams, caller, params);

describe('myTeams', () => {
  it("answers a page of the caller's one team for empty params", async () => {
    expect(await teams()).toEqual({ data: [{ id: alice.teamId, name: 'Bravo' }], next: null });
  });

  it('sorts by name, then id; lists teams the person joined; shows only id and name; not others\' teams', async () => {
    const charlie = await h.team(alice, 'Charlie');
    const alphas = [await h.team(alice, 'Alpha'), await h.team(alice, 'Alpha')].sort();
    const bob = await h.person({ teamName: 'Aardvark' });
    const delta = await h.team(bob, 'Delta');
    await h.join(delta, alice);
    expect(await teams()).toEqual({
      data: [
        ...alphas.map((id) => ({ id, name: 'Alpha' })),
        { id: alice.teamId, name: 'Bravo' },
        { id: charlie, name: 'Charlie' },
        { id: delta, name: 'Delta' },
      ],
      next: null,
    });
  });

  it('pages: limit 2 over 3 teams gives 2, then 1 with next null', async () => {
    await h.team(alice, 'Alpha');
    await h.team(alice, 'Charlie');
    const first = await h.ok(myTeams, alice, { limit: 2 });
    expect(first.data.map((team) => team.name)).toEqual(['Alpha', 'Bravo']);
    expect(first.next).toEqual(expect.any(String));
    const second = await h.ok(myTeams, alice, { limit: 2, after: first.next });
    expect(second).toEqual({ data: [expect.objectContaining({ name: 'Charlie' })], next: null });
  });

  it('pages teams of the same name by id, each once', async () => {
    const ids = [alice.teamId, await h.team(alice, 'Bravo'), await h.team(alice, 'Bravo')].sort();
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: { data: Array<{ id: string }>; next: string | null } = await h.ok(myTeams, alice, { limit: 1, after });
      seen.push(...page.data.map((team) => team.id));
      after = page.next;
    } while (after !== null && seen.length < 10);
    expect(seen).toEqual(ids);
  });

  it('a last page exactly full answers next null', async () => {
    await h.team(alice, 'Alpha');
    expect(await teams({ limit: 2 })).toMatchObject({ next: null });
  });

  it('takes limit 1 and 100; 0, 101, -1 and 1.5: 400 bad_request at limit', async () => {
    expect(await teams({ limit: 1 })).toMatchObject({ next: null });
    expect(await teams({ limit: 100 })).toMatchObject({ next: null });
    for (const limit of [0, 101, -1, 1.5]) expect(await teams({ limit })).toEqual(problem(400, 'bad_request', 'limit'));
  });

  describe('cursor_mismatch', () => {
    let next: string;
    beforeEach(async () => {
      await h.team(alice, 'Alpha');
      await h.team(alice, 'Charlie');
      next = (await h.ok(myTeams, alice, { limit: 1 })).next!;
    });

    it('a cursor made with another limit: 400 cursor_mismatch at after', async () => {
      expect(await teams({ limit: 2, after: next })).toEqual(
        problem(400, 'cursor_mismatch', 'after', 'The cursor comes from another operation or other params.'),
      );
    });

    it('a cursor of teamLinks: 400 cursor_mismatch at after', async () => {
      await h.link(alice);
      await h.link(alice);
      const links = await h.ok(teamLinks, alice, { team: alice.teamId, limit: 1 });
      expect(await teams({ limit: 1, after: links.next })).toEqual(problem(400, 'cursor_mismatch', 'after'));
    });

    it('a tampered cursor: 400 cursor_mismatch at after; the untouched one still works', async () => {
      const flip = (c: string) => (c === 'A' ? 'B' : 'A');
      for (const after of [next.slice(0, -1) + flip(next.at(-1)!), flip(next[0]!) + next.slice(1), `${next}x`, 'garbage', '']) {
        expect(await teams({ limit: 1, after })).toEqual(problem(400, 'cursor_mismatch', 'after'));
      }
      expect(await teams({ limit: 1, after: next })).toMatchObject({ data: [{ name: 'Bravo' }] });
    });
  });

  it('a token limited to a team sees only that team', async () => {
    await h.team(alice, 'Alpha');
    const charlie = await h.team(alice, 'Charlie');
    expect(await teams({}, h.caller(alice, { limitedTo: charlie }))).toEqual({ data: [{ id: charlie, name: 'Charlie' }], next: null });
  });

  it('an unknown param: 400 bad_request naming it', async () => {
    expect(await teams({ team: alice.teamId })).toEqual(problem(400, 'bad_request', 'team', 'team is not a known param.'));
  });

  it('a token without the listTeams scope: 403 insufficient_scope', async () => {
    expect(await teams({}, h.caller(alice, { scopes: ['myTeams', 'listLinks'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call listTeams.'),
    );
    expect(await teams({}, h.caller(alice, { scopes: ['listTeams'] }))).toMatchObject({ data: [{ name: 'Bravo' }] });
  });
});
