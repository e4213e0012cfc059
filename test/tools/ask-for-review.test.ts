/**
 * askForReview's `run` on a real store (DECISIONS.md "States"; docs/behaviour.md "States"): a member of the link's
 * team asks for a review of a flagged link; any other state answers 409 conflict. An assistant-only tool.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askForReview } from '../../src/tools/ask-for-review.js';
import type { Link } from '../../src/tools/schemas.js';
import { problem, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
let made: Link;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
  made = await h.link(alice);
});
afterEach(() => h.close());

const ask = (params: Record<string, unknown> = {}, caller: Caller = alice) =>
  h.call(askForReview, caller, { code: made.code, ...params });

describe('askForReview', () => {
  it('on a flagged link: records the request with its reason and answers the link, unchanged', async () => {
    await h.setState(made.code, 'flagged');
    const flagged = await h.stored(made.code);
    h.clock.advance(1_000);
    expect(await ask({ reason: 'It is our own shop.' })).toEqual(flagged);
    expect(await h.store.moderation.openReviews()).toEqual([
      {
        id: expect.stringMatching(/^review_/),
        linkCode: made.code,
        personId: alice.personId,
        reason: 'It is our own shop.',
        createdAt: '2026-11-21T12:00:01.000Z',
      },
    ]);
    expect(await h.stored(made.code)).toEqual(flagged);
  });

  it('the reason is optional (null); asking again replaces the reason: one open request per person and link', async () => {
    await h.setState(made.code, 'flagged');
    await ask();
    expect((await h.store.moderation.openReviews()).map((review) => review.reason)).toEqual([null]);
    await ask({ reason: 'Second thoughts.' });
    expect((await h.store.moderation.openReviews()).map((review) => review.reason)).toEqual(['Second thoughts.']);
  });

  it('each member of the team may ask', async () => {
    const bob = await h.person();
    await h.join(alice.teamId, bob);
    await h.setState(made.code, 'flagged');
    await ask({ reason: 'a' });
    await ask({ reason: 'b' }, bob);
    // At one instant, so in the order of their random ids.
    const reviews = (await h.store.moderation.openReviews()).map((review) => [review.personId, review.reason]);
    expect(reviews.sort((x, y) => x[1]!.localeCompare(y[1]!))).toEqual([
      [alice.personId, 'a'],
      [bob.personId, 'b'],
    ]);
  });

  it.each(['active', 'disabled'] as const)('on an %s link: 409 conflict at code, nothing recorded', async (state) => {
    if (state !== 'active') await h.setState(made.code, state);
    expect(await ask({ reason: 'fine' })).toEqual(
      problem(409, 'conflict', 'code', 'Only a flagged link can be reviewed; this one is not flagged.'),
    );
    expect(await h.store.moderation.openReviews()).toEqual([]);
  });

  it('the operator restoring the link resolves its open requests', async () => {
    await h.setState(made.code, 'flagged');
    await ask();
    await h.setState(made.code, 'active');
    expect(await h.store.moderation.openReviews()).toEqual([]);
  });

  it("another team's link or an unknown code: 404 not_found at code", async () => {
    const bob = await h.person();
    await h.setState(made.code, 'flagged');
    expect(await ask({}, bob)).toEqual(problem(404, 'not_found', 'code', 'No link has that code.'));
    expect(await ask({ code: 'Zz9Qq8X' })).toEqual(problem(404, 'not_found', 'code'));
  });

  it("a token limited to team A, on a flagged link of team B the person is in: 403 outside_token_record", async () => {
    const teamB = await h.team(alice, 'B');
    const inB = await h.link(alice, {}, teamB);
    await h.setState(inB.code, 'flagged');
    expect(await ask({ code: inB.code }, h.caller(alice, { limitedTo: alice.teamId }))).toEqual(problem(403, 'outside_token_record'));
  });

  it('a reason over 500 characters: 400 bad_request at reason; 500 are taken', async () => {
    await h.setState(made.code, 'flagged');
    expect(await ask({ reason: 'x'.repeat(501) })).toEqual(problem(400, 'bad_request', 'reason'));
    expect(await ask({ reason: 'x'.repeat(500) })).toMatchObject({ code: made.code });
  });

  it('a token without the askForReview scope (the tool has no HTTP operation): 403 insufficient_scope', async () => {
    await h.setState(made.code, 'flagged');
    expect(await ask({}, h.caller(alice, { scopes: ['getLink'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call askForReview.'),
    );
    expect(await ask({}, h.caller(alice, { scopes: ['askForReview'] }))).toMatchObject({ state: 'flagged' });
  });
});
