/**
 * teamTags' `run` (HTTP listTags) on a real store (docs/behaviour.md, "Link options"): a team's tags by tag, each
 * with its links; only for its members.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteLink } from '../../src/tools/delete-link.js';
import { setLinkOptions } from '../../src/tools/set-link-options.js';
import { teamTags } from '../../src/tools/team-tags.js';
import { problem, ToolHarness, type Actor } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
});
afterEach(() => h.close());

describe('teamTags', () => {
  it('lists the tags by tag with their links, following changes and deletions', async () => {
    expect(await h.ok(teamTags, alice, { team: alice.teamId })).toEqual({ data: [] });
    const a = await h.link(alice, { tags: ['spring', 'print'] });
    await h.link(alice, { tags: ['spring'] });
    expect(await h.ok(teamTags, alice, { team: alice.teamId })).toEqual({
      data: [
        { tag: 'print', links: 1 },
        { tag: 'spring', links: 2 },
      ],
    });
    await h.ok(setLinkOptions, alice, { code: a.code, tags: ['autumn'] });
    await h.ok(deleteLink, alice, { code: (await h.link(alice, { tags: ['gone'] })).code });
    expect(await h.ok(teamTags, alice, { team: alice.teamId })).toEqual({
      data: [
        { tag: 'autumn', links: 1 },
        { tag: 'spring', links: 1 },
      ],
    });
  });

  it("another team's tags are not found: 404 not_found at team", async () => {
    const bob = await h.person();
    await h.link(bob, { tags: ['secret'] });
    expect(await h.call(teamTags, alice, { team: bob.teamId })).toEqual(problem(404, 'not_found', 'team'));
  });
});
