/**
 * linkClicks' `run` on a real store (spec section 2 "Clicks result", 4 "linkClicks"; docs/behaviour.md "linkClicks"):
 * 30 UTC days, oldest first, today last, days without clicks as 0; last7 and last30 their sums. The clock reads
 * 2026-11-21T12:00Z unless a test moves it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteLink } from '../../src/tools/delete-link.js';
import { linkClicks } from '../../src/tools/link-clicks.js';
import { problem, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

const DAY = 86_400_000;

let h: ToolHarness;
let alice: Actor;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
});
afterEach(() => h.close());

/** The 30 dates ending with `last`, oldest first. */
function datesEnding(last: string): string[] {
  const end = Date.parse(`${last}T00:00:00Z`);
  return Array.from({ length: 30 }, (_, i) => new Date(end - (29 - i) * DAY).toISOString().slice(0, 10));
}

const clicks = (code: string, caller: Caller = alice) => h.call(linkClicks, caller, { code });

describe('linkClicks', () => {
  it('no clicks: 30 consecutive UTC days from 2026-10-23 to today, all 0', async () => {
    const made = await h.link(alice);
    const dates = datesEnding('2026-11-21');
    expect(dates[0]).toBe('2026-10-23');
    expect(await clicks(made.code)).toEqual({ days: dates.map((date) => ({ date, clicks: 0 })), last7: 0, last30: 0 });
  });

  it('counts per day; last7 and last30 sum the last 7 and 30 days; older days are left out', async () => {
    const made = await h.link(alice);
    await h.clicks(made.id, { '2026-11-21': 2, '2026-11-20': 3, '2026-11-10': 5, '2026-10-01': 7 });
    const answer = await h.ok(linkClicks, alice, { code: made.code });
    expect(answer.days.filter((day) => day.clicks > 0)).toEqual([
      { date: '2026-11-10', clicks: 5 },
      { date: '2026-11-20', clicks: 3 },
      { date: '2026-11-21', clicks: 2 },
    ]);
    expect(answer.days).toHaveLength(30);
    expect([answer.last7, answer.last30]).toEqual([5, 10]);
  });

  it('the edges: the 7th day back counts in last7, the 8th does not; the 30th counts in last30, the 31st does not', async () => {
    const made = await h.link(alice);
    await h.clicks(made.id, { '2026-11-15': 1, '2026-11-14': 10, '2026-10-23': 100, '2026-10-22': 1000 });
    expect(await clicks(made.code)).toMatchObject({ last7: 1, last30: 111 });
  });

  it('a day is a UTC calendar date: today turns at midnight UTC', async () => {
    const made = await h.link(alice);
    await h.clicks(made.id, { '2026-11-21': 4, '2026-11-22': 6 });
    h.clock.current = new Date('2026-11-21T23:59:59.999Z');
    expect(await clicks(made.code)).toMatchObject({ last7: 4 });
    h.clock.advance(1);
    const tomorrow = await h.ok(linkClicks, alice, { code: made.code });
    expect(tomorrow.days.map((day) => day.date)).toEqual(datesEnding('2026-11-22'));
    expect(tomorrow.days.slice(-2)).toEqual([{ date: '2026-11-21', clicks: 4 }, { date: '2026-11-22', clicks: 6 }]);
    expect(tomorrow.last7).toBe(10);
  });

  it('clicks of another link do not count', async () => {
    const made = await h.link(alice);
    const other = await h.link(alice);
    await h.clicks(other.id, { '2026-11-20': 4 });
    expect(await clicks(made.code)).toMatchObject({ last7: 0, last30: 0 });
  });

  it('answers for flagged and disabled links', async () => {
    const made = await h.link(alice);
    await h.clicks(made.id, { '2026-11-20': 1 });
    await h.setState(made.code, 'flagged');
    expect(await clicks(made.code)).toMatchObject({ last30: 1 });
    await h.setState(made.code, 'disabled');
    expect(await clicks(made.code)).toMatchObject({ last30: 1 });
  });

  it("an unknown code, another team's link or a deleted link: 404 not_found at code", async () => {
    const bob = await h.person();
    const bobs = await h.link(bob);
    const gone = await h.link(alice);
    await h.ok(deleteLink, alice, { code: gone.code });
    for (const code of ['Qq7Zz7Q', bobs.code, gone.code]) {
      expect(await clicks(code)).toEqual(problem(404, 'not_found', 'code', 'No link has that code.'));
    }
  });

  it("a token limited to the person's team A: a link of team B, which the person is in, is 404", async () => {
    const teamB = await h.team(alice, 'B');
    const inB = await h.link(alice, {}, teamB);
    expect(await clicks(inB.code, h.caller(alice, { limitedTo: alice.teamId }))).toEqual(problem(404, 'not_found', 'code'));
  });

  it('a code of the wrong length: 400 bad_request at code', async () => {
    expect(await clicks('short')).toEqual(problem(400, 'bad_request', 'code'));
  });

  it('a token without the linkClicks scope: 403 insufficient_scope', async () => {
    const made = await h.link(alice);
    expect(await clicks(made.code, h.caller(alice, { scopes: ['getLink'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call linkClicks.'),
    );
    expect(await clicks(made.code, h.caller(alice, { scopes: ['linkClicks'] }))).toMatchObject({ last30: 0 });
  });
});
