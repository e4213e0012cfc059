import { describe, expect, it } from 'vitest';
import { createLink, expectOk, server, setState, useLinksServer } from '../helpers/api-links.js';
import { call, expectProblem } from '../helpers/server.js';

/** Counted clicks of one link, by UTC day, as the click counter writes them. */
function addClicks(linkId: string, byDay: Record<string, number>): Promise<void> {
  return server.app.ctx.store.clicks.add(new Map([[linkId, new Map(Object.entries(byDay))]]));
}

/**
 * linkClicks over the real HTTP API: 30 UTC days of clicks, oldest first, with their totals.
 * Spec: short-link-api-v1.md; our decisions: docs/behaviour.md. The server, with a real SQLite file, is shared by
 * the file (test/helpers/api-links.ts): each test makes its own person and team; limits are put back after each.
 */

useLinksServer();

describe('linkClicks', () => {
  const DAY = 86_400_000;

  it('no clicks: 30 consecutive UTC days, oldest first, today last, all zero', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    const reply = await call(server, 'linkClicks', { code: made.code }, alice.token);
    expectOk(reply);
    expect(Object.keys(reply.body).sort()).toEqual(['days', 'last30', 'last7']);
    const days = reply.body.days as Array<{ date: string; clicks: number }>;
    expect(days).toHaveLength(30);
    expect(days[0]!.date).toBe('2026-10-23');
    expect(days[29]!.date).toBe('2026-11-21');
    for (let i = 0; i < days.length; i++) {
      expect(days[i]).toEqual({ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), clicks: 0 });
      if (i > 0) expect(Date.parse(days[i]!.date) - Date.parse(days[i - 1]!.date)).toBe(DAY);
    }
    expect(reply.body.last7).toBe(0);
    expect(reply.body.last30).toBe(0);
  });

  it('counts clicks per day: last7 and last30 sum the last 7 and 30 days; older days are left out', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    await addClicks(made.id, { '2026-11-20': 3, '2026-11-10': 5, '2026-10-01': 7 });
    const reply = await call(server, 'linkClicks', { code: made.code }, alice.token);
    expectOk(reply);
    const days = reply.body.days as Array<{ date: string; clicks: number }>;
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.date).toBe('2026-11-21');
    const byDate = Object.fromEntries(days.map((day) => [day.date, day.clicks]));
    expect(byDate['2026-11-20']).toBe(3);
    expect(byDate['2026-11-10']).toBe(5);
    expect(byDate['2026-11-21']).toBe(0);
    expect(byDate['2026-10-01']).toBeUndefined();
    expect(days.filter((day) => day.clicks !== 0)).toHaveLength(2);
    expect(reply.body.last7).toBe(3);
    expect(reply.body.last30).toBe(8);
  });

  it('the window edges: day 7 counts in last7, day 8 does not; day 30 counts in last30, day 31 does not', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    // The 7th day back (counting today), the 8th, the 30th and the 31st.
    await addClicks(made.id, { '2026-11-15': 1, '2026-11-14': 10, '2026-10-23': 100, '2026-10-22': 1000 });
    const reply = await call(server, 'linkClicks', { code: made.code }, alice.token);
    expect(reply.body.last7).toBe(1);
    expect(reply.body.last30).toBe(111);
  });

  it('clicks of another link do not count', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    const other = await createLink(alice);
    await addClicks(other.id, { '2026-11-20': 4 });
    const reply = await call(server, 'linkClicks', { code: made.code }, alice.token);
    expect(reply.body.last30).toBe(0);
  });

  it('works for flagged and disabled links', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    await setState(made.code, 'disabled');
    expectOk(await call(server, 'linkClicks', { code: made.code }, alice.token));
  });

  it('another team\'s link: 404 not_found at code', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const bobs = await createLink(bob);
    expectProblem(server, await call(server, 'linkClicks', { code: bobs.code }, alice.token), 404, 'not_found', 'code');
  });

  it('an unknown code: 404 not_found at code', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'linkClicks', { code: 'Qq7Zz7Q' }, alice.token), 404, 'not_found', 'code');
  });
});
