/**
 * teamLinks' `run` (HTTP listLinks) on a real store (spec section 4 "listLinks" and "Paging rules"; docs/behaviour.md
 * "listLinks and paging"): newest first, deleted links left out, `state` and `q` filters, signed keyset cursors.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteLink } from '../../src/tools/delete-link.js';
import { myTeams } from '../../src/tools/my-teams.js';
import { teamLinks } from '../../src/tools/team-links.js';
import type { Link } from '../../src/tools/schemas.js';
import { problem, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person({ teamName: 'A' });
});
afterEach(() => h.close());

const list = (params: Record<string, unknown> = {}, caller: Caller = alice) => h.call(teamLinks, caller, { team: alice.teamId, ...params });
const codes = async (params: Record<string, unknown> = {}) =>
  (await h.ok(teamLinks, alice, { team: alice.teamId, ...params })).data.map((link) => link.code);

/** Follows `next` to the end; every page's codes. */
async function pages(params: Record<string, unknown>): Promise<string[][]> {
  const seen: string[][] = [];
  let after: string | null = null;
  do {
    const page: { data: Link[]; next: string | null } = await h.ok(teamLinks, alice, { team: alice.teamId, ...params, after });
    seen.push(page.data.map((link) => link.code));
    after = page.next;
  } while (after !== null && seen.length < 20);
  return seen;
}

describe('teamLinks', () => {
  it('lists the links newest first, as Link objects, one page when they fit', async () => {
    const made: Link[] = [];
    made.push(await h.link(alice, { destination: 'https://example.com/1' }));
    h.clock.advance(5);
    made.push(await h.link(alice, { destination: 'https://example.com/2', name: 'two', note: 'second' }));
    // Same millisecond: the order is still the order they were made in.
    made.push(await h.link(alice, { destination: 'https://example.com/3' }));
    expect(await list()).toEqual({ data: [...made].reverse(), next: null });
  });

  it('an empty team: an empty page', async () => {
    expect(await list()).toEqual({ data: [], next: null });
  });

  it("lists only the team's own links", async () => {
    const bob = await h.person();
    const mine = await h.link(alice);
    await h.link(bob);
    expect(await codes()).toEqual([mine.code]);
  });

  it('leaves deleted links out, searches included', async () => {
    const a = await h.link(alice, { destination: 'https://example.com/del-a' });
    const b = await h.link(alice, { destination: 'https://example.com/del-b' });
    await h.ok(deleteLink, alice, { code: b.code });
    expect(await codes()).toEqual([a.code]);
    expect(await codes({ q: 'del-b' })).toEqual([]);
  });

  it('lists the team for any member, not only its owner', async () => {
    const bob = await h.person();
    await h.join(alice.teamId, bob);
    const made = await h.link(alice);
    expect(await list({}, bob)).toEqual({ data: [made], next: null });
  });

  it('state keeps only links in that state; null (the default) keeps every state', async () => {
    const active = await h.link(alice);
    const flagged = await h.link(alice);
    const disabled = await h.link(alice);
    await h.setState(flagged.code, 'flagged');
    await h.setState(disabled.code, 'disabled');
    expect(await codes({ state: 'active' })).toEqual([active.code]);
    expect(await codes({ state: 'flagged' })).toEqual([flagged.code]);
    expect(await codes({ state: 'disabled' })).toEqual([disabled.code]);
    expect(await codes({ state: null })).toEqual([disabled.code, flagged.code, active.code]);
    expect(await codes()).toEqual([disabled.code, flagged.code, active.code]);
  });

  describe('tag', () => {
    it('keeps the links carrying it, newest first, paged with the same cursor rules; q finds tags too', async () => {
      const first = await h.link(alice, { tags: ['fair', 'print'] });
      await h.link(alice, { tags: ['winter'] });
      const third = await h.link(alice, { tags: ['fair'] });
      expect(await codes({ tag: 'fair' })).toEqual([third.code, first.code]);
      expect(await pages({ tag: 'fair', limit: 1 })).toEqual([[third.code], [first.code]]);
      expect(await codes({ tag: 'none-such' })).toEqual([]);
      expect(await codes({ q: 'PRIN' })).toEqual([first.code]);
      expect(await codes({ q: 'print', tag: 'winter' })).toEqual([]);
    });

    it('a cursor of one tag is refused for another: 400 cursor_mismatch', async () => {
      await h.link(alice, { tags: ['fair'] });
      await h.link(alice, { tags: ['fair'] });
      const { next } = await h.ok(teamLinks, alice, { team: alice.teamId, tag: 'fair', limit: 1 });
      expect(await list({ tag: 'other', after: next, limit: 1 })).toEqual(problem(400, 'cursor_mismatch', 'after'));
      expect(await list({ after: next, limit: 1 })).toEqual(problem(400, 'cursor_mismatch', 'after'));
    });
  });

  describe('q', () => {
    let linkA: Link;
    let linkB: Link;
    let linkC: Link;
    beforeEach(async () => {
      linkA = await h.link(alice, { destination: 'https://Example.com/Alpha', note: 'First note' });
      linkB = await h.link(alice, { destination: 'https://other.org/50%25off', name: 'spring_sale' });
      linkC = await h.link(alice, { destination: 'https://plain.org/x', note: 'zz! top' });
    });

    it('null and "" list everything', async () => {
      expect(await codes({ q: null })).toEqual([linkC.code, linkB.code, linkA.code]);
      expect(await codes({ q: '' })).toEqual([linkC.code, linkB.code, linkA.code]);
    });

    it('matches a substring of the destination (as stored), the note or the name, in any case', async () => {
      expect(await codes({ q: 'EXAMPLE.COM/alp' })).toEqual([linkA.code]);
      expect(await codes({ q: 'st NO' })).toEqual([linkA.code]);
      expect(await codes({ q: 'SPRING' })).toEqual([linkB.code]);
    });

    it('matches the code and a part of it, in any case', async () => {
      expect(await codes({ q: linkC.code.toLowerCase() })).toEqual([linkC.code]);
      expect(await codes({ q: linkC.code.slice(1, 6) })).toContain(linkC.code);
    });

    it('% and _ match themselves, not "anything"', async () => {
      expect(await codes({ q: '0%25' })).toEqual([linkB.code]);
      expect(await codes({ q: 'e%' })).toEqual([]);
      expect(await codes({ q: 'g_s' })).toEqual([linkB.code]);
      expect(await codes({ q: 'e_c' })).toEqual([]);
    });

    it('text found nowhere: an empty page', async () => {
      expect(await list({ q: 'nowhere-at-all' })).toEqual({ data: [], next: null });
    });

    it('with state: both must hold', async () => {
      await h.setState(linkA.code, 'flagged');
      expect(await codes({ q: 'o', state: 'flagged' })).toEqual([linkA.code]);
      expect(await codes({ q: 'o', state: 'active' })).toEqual([linkC.code, linkB.code]);
    });

    it('takes 2,048 characters; more, or a control character: 400 bad_request at q', async () => {
      expect(await list({ q: 'x'.repeat(2048) })).toEqual({ data: [], next: null });
      expect(await list({ q: 'x'.repeat(2049) })).toEqual(problem(400, 'bad_request', 'q'));
      expect(await list({ q: 'a\nb' })).toEqual(problem(400, 'bad_request', 'q', 'q: must not hold control characters.'));
    });
  });

  describe('paging', () => {
    it('limit 2 over 5 links: pages of 2, 2 and 1, every link once, newest first', async () => {
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await h.link(alice)).code);
      expect(await pages({ limit: 2 })).toEqual([made.slice(3).reverse(), made.slice(1, 3).reverse(), [made[0]]]);
    });

    it('a last page exactly full answers next null', async () => {
      for (let i = 0; i < 4; i++) await h.link(alice);
      const first = await h.ok(teamLinks, alice, { team: alice.teamId, limit: 2 });
      const last = await h.ok(teamLinks, alice, { team: alice.teamId, limit: 2, after: first.next });
      expect(last.data).toHaveLength(2);
      expect(last.next).toBeNull();
    });

    it('pages a search: every match once', async () => {
      const matches: string[] = [];
      for (let i = 0; i < 3; i++) {
        matches.push((await h.link(alice, { destination: `https://example.com/paging-${i}` })).code);
        await h.link(alice, { destination: `https://example.com/other-${i}` });
      }
      expect((await pages({ q: 'PAGING', limit: 2 })).flat()).toEqual(matches.reverse());
    });

    it('a link made after the first page does not shift the next one', async () => {
      const made: string[] = [];
      for (let i = 0; i < 3; i++) made.push((await h.link(alice)).code);
      const first = await h.ok(teamLinks, alice, { team: alice.teamId, limit: 2 });
      await h.link(alice);
      const second = await h.ok(teamLinks, alice, { team: alice.teamId, limit: 2, after: first.next });
      expect(second).toEqual({ data: [expect.objectContaining({ code: made[0] })], next: null });
    });

    it('takes limit 1 and 100; 0, 101 and 1.5: 400 bad_request at limit', async () => {
      expect(await list({ limit: 1 })).toEqual({ data: [], next: null });
      expect(await list({ limit: 100 })).toEqual({ data: [], next: null });
      for (const limit of [0, 101, 1.5]) expect(await list({ limit })).toEqual(problem(400, 'bad_request', 'limit'));
    });
  });

  describe('cursor_mismatch', () => {
    let next: string;
    let otherTeam: string;
    beforeEach(async () => {
      otherTeam = await h.team(alice, 'B');
      for (let i = 0; i < 3; i++) await h.link(alice);
      next = (await h.ok(teamLinks, alice, { team: alice.teamId, limit: 2 })).next!;
      expect(next).toEqual(expect.any(String));
    });

    it('the same params: the next page', async () => {
      expect(await list({ limit: 2, after: next })).toEqual({ data: [expect.objectContaining({ state: 'active' })], next: null });
    });

    it.each([
      ['another q', { q: 'example' }],
      ['another state', { state: 'active' }],
      ['another limit', { limit: 3 }],
      ['the default limit', { limit: undefined }],
    ])('%s: 400 cursor_mismatch at after', async (_, changed) => {
      expect(await list({ limit: 2, ...changed, after: next })).toEqual(
        problem(400, 'cursor_mismatch', 'after', 'The cursor comes from another operation or other params.'),
      );
    });

    it('another team: 400 cursor_mismatch at after', async () => {
      expect(await h.call(teamLinks, alice, { team: otherTeam, limit: 2, after: next })).toEqual(problem(400, 'cursor_mismatch', 'after'));
    });

    it('a cursor of myTeams: 400 cursor_mismatch at after', async () => {
      const teams = await h.ok(myTeams, alice, { limit: 1 });
      expect(await list({ limit: 1, after: teams.next })).toEqual(problem(400, 'cursor_mismatch', 'after'));
    });

    it('a tampered cursor: 400 cursor_mismatch at after', async () => {
      const flip = (c: string) => (c === 'A' ? 'B' : 'A');
      for (const after of [next.slice(0, -1) + flip(next.at(-1)!), `${next}x`, 'garbage', '']) {
        expect(await list({ limit: 2, after })).toEqual(problem(400, 'cursor_mismatch', 'after'));
      }
    });
  });

  describe('not_found', () => {
    it("another person's team, or one that does not exist: 404 not_found at team", async () => {
      const bob = await h.person();
      expect(await list({ team: bob.teamId })).toEqual(problem(404, 'not_found', 'team', 'No team with that id is among your teams.'));
      expect(await list({ team: 'team_doesnotexist00' })).toEqual(problem(404, 'not_found', 'team'));
    });

    it("a token limited to the person's team A: team B, which the person is in, answers 404 (a visitor's view)", async () => {
      const teamB = await h.team(alice, 'B');
      await h.link(alice, {}, teamB);
      const limited = h.caller(alice, { limitedTo: alice.teamId });
      expect(await h.call(teamLinks, limited, { team: teamB })).toEqual(problem(404, 'not_found', 'team'));
      expect(await h.call(teamLinks, limited, { team: alice.teamId })).toEqual({ data: [], next: null });
    });
  });

  describe('bad_request', () => {
    it.each([
      ['team missing', {}, 'team', 'team is required.'],
      ['a team not starting with team_', { team: 'nope' }, 'team', undefined],
      ['state "bogus"', { team: 'team_x', state: 'bogus' }, 'state', undefined],
      ['an unknown param', { team: 'team_x', sort: 'name' }, 'sort', 'sort is not a known param.'],
    ])('%s: 400 bad_request naming the param', async (_, params, field, detail) => {
      expect(await h.call(teamLinks, alice, params)).toEqual(problem(400, 'bad_request', field, detail));
    });
  });

  it('a token without the listLinks scope: 403 insufficient_scope (the scope is the operation, not the tool name)', async () => {
    expect(await list({}, h.caller(alice, { scopes: ['teamLinks'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call listLinks.'),
    );
    expect(await list({}, h.caller(alice, { scopes: ['listLinks'] }))).toEqual({ data: [], next: null });
  });
});
