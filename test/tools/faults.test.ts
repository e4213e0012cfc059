/**
 * A tool's checks of its input (src/tools/faults.ts), the one place its rules live: `run` throws the first fault
 * they find, and a form asks them for every fault at once, the store's refusals read ahead too, changing nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/errors.js';
import { changeDestination } from '../../src/tools/change-destination.js';
import { createLink } from '../../src/tools/create-link.js';
import { everyFault } from '../../src/tools/faults.js';
import { renameLink } from '../../src/tools/rename-link.js';
import { setNote } from '../../src/tools/set-note.js';
import { teamLinks } from '../../src/tools/team-links.js';
import { problem, ToolHarness, type Actor } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
});
afterEach(() => h.close());

const brief = (faults: ApiError[]) => faults.map(({ code, field }) => [code, field]);

describe('createLink', () => {
  const input = { destination: 'http://example.com/', name: 'taken-name', note: 'no <tags>' };

  it('lists every field’s fault, a name taken read ahead; run throws the first, as the API answers', async () => {
    await h.link(alice, { name: 'taken-name' });
    const faults = await everyFault(createLink, { team: alice.teamId, ...input }, alice, h.ctx);
    expect(brief(faults)).toEqual([
      ['name_taken', 'name'],
      ['invalid_note', 'note'],
      ['invalid_destination', 'destination'],
    ]);
    expect(await h.call(createLink, alice, { team: alice.teamId, ...input, name: 'fine-name' })).toEqual(
      problem(400, 'invalid_note', 'note', faults[1]!.detail),
    );
    expect((await h.ok(teamLinks, alice, { team: alice.teamId })).data).toHaveLength(1);
  });

  it('goes on past a team not the caller’s, leaving out the name taken, which needs the team', async () => {
    const bob = await h.person();
    await h.link(bob, { name: 'taken-name' });
    const faults = await everyFault(createLink, { team: bob.teamId, ...input }, alice, h.ctx);
    expect(brief(faults)).toEqual([
      ['not_found', 'team'],
      ['invalid_note', 'note'],
      ['invalid_destination', 'destination'],
    ]);
  });

  it('does not look again for the refusal run answered: its field is not checked (a destination may wait on DNS)', async () => {
    const refusal = (await everyFault(createLink, { team: alice.teamId, ...input }, alice, h.ctx)).at(-1)!;
    const asked = h.network.askedDns.length;
    const faults = await everyFault(createLink, { team: alice.teamId, ...input }, alice, h.ctx, refusal);
    expect(brief(faults)).toEqual([['invalid_note', 'note']]);
    expect(h.network.askedDns.length).toBe(asked);
  });
});

describe('the edit page’s tools', () => {
  it('a flagged link: the state, before the value, for the destination and the name; a note is still taken', async () => {
    const { code } = await h.link(alice);
    await h.setState(code, 'flagged');
    expect(brief(await everyFault(changeDestination, { code, destination: 'http://x/' }, alice, h.ctx))).toEqual([['link_flagged', null]]);
    expect(brief(await everyFault(renameLink, { code, name: 'No!' }, alice, h.ctx))).toEqual([['link_flagged', null]]);
    expect(await everyFault(setNote, { code, note: 'fine' }, alice, h.ctx)).toEqual([]);
  });

  it('a disabled link: setNote reads the store’s refusal ahead, before the note; run leaves it to the store', async () => {
    const { code } = await h.link(alice);
    await h.setState(code, 'disabled');
    expect(brief(await everyFault(setNote, { code, note: 'no <tags>' }, alice, h.ctx))).toEqual([['conflict', null]]);
    expect(await h.call(setNote, alice, { code, note: 'no <tags>' })).toEqual(problem(400, 'invalid_note', 'note'));
  });

  it('renameLink reads a name taken ahead, for the link’s own team; its own name is no fault', async () => {
    const { code } = await h.link(alice, { name: 'mine' });
    await h.link(alice, { name: 'taken-name' });
    expect(brief(await everyFault(renameLink, { code, name: 'taken-name' }, alice, h.ctx))).toEqual([['name_taken', 'name']]);
    expect(await everyFault(renameLink, { code, name: 'mine' }, alice, h.ctx)).toEqual([]);
  });
});
