import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eachTestWith, LIMITERS, ReferenceLog } from './limiters.js';

/**
 * The sliding window every limit counts in (src/support/rate-limiter.ts; issue 11): a call is allowed when fewer
 * than `limit` calls were allowed for its key in the last `windowMs`. The same tests run against every
 * implementation, so the in-memory limiter and the shared one answer alike.
 */

const MINUTE = 60_000;
const SECOND = 1_000;

describe.each(LIMITERS)('the sliding window, %s', (name, make) => {
  const limiter = eachTestWith(make);

  /** `count` takes at `at`; how many were allowed. */
  async function takeMany(key: string, count: number, limit: number, at: number): Promise<number> {
    let allowed = 0;
    for (let i = 0; i < count; i++) if ((await limiter().take(key, limit, MINUTE, at)).allowed) allowed++;
    return allowed;
  }

  it('refuses across the edge of a minute what fixed windows let through (the scenario of issue 11)', async () => {
    // 600 calls at 59.9 s: with fixed windows, 600 more were allowed at 60.1 s, 1,200 within 0.2 s.
    expect(await takeMany('k', 600, 600, 59_900)).toBe(600);
    const edge = await limiter().take('k', 600, MINUTE, 60_100);
    expect(edge).toEqual({ allowed: false, limit: 600, remaining: 0, resetSeconds: 60 });
    // Refused until 60 s after the batch: the wait named is the wait there is.
    expect((await limiter().take('k', 600, MINUTE, 119_899)).allowed).toBe(false);
    expect(await limiter().peek('k', 600, MINUTE, 119_899)).toEqual({ allowed: false, limit: 600, remaining: 0, resetSeconds: 1 });
    expect(await takeMany('k', 601, 600, 119_900)).toBe(600);
  });

  it('lets a call through exactly when the oldest counted one leaves the window, one by one', async () => {
    expect(await takeMany('k', 1, 3, 0)).toBe(1);
    expect(await takeMany('k', 2, 3, 20 * SECOND)).toBe(2);
    const refused = await limiter().take('k', 3, MINUTE, 59_999);
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 1 });
    expect(await limiter().take('k', 3, MINUTE, MINUTE)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 20 });
    expect(await limiter().take('k', 3, MINUTE, MINUTE)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 20 });
    expect(await takeMany('k', 3, 3, 80 * SECOND)).toBe(2);
  });

  it('answers what is left and when the oldest call counted leaves, and peek uses nothing', async () => {
    expect(await limiter().peek('k', 10, MINUTE, 0)).toEqual({ allowed: true, limit: 10, remaining: 10, resetSeconds: 60 });
    expect(await limiter().take('k', 10, MINUTE, 0)).toEqual({ allowed: true, limit: 10, remaining: 9, resetSeconds: 60 });
    expect(await limiter().take('k', 10, MINUTE, 30_500)).toEqual({ allowed: true, limit: 10, remaining: 8, resetSeconds: 30 });
    expect(await limiter().peek('k', 10, MINUTE, 59_001)).toEqual({ allowed: true, limit: 10, remaining: 8, resetSeconds: 1 });
    expect(await limiter().peek('k', 10, MINUTE, MINUTE)).toEqual({ allowed: true, limit: 10, remaining: 9, resetSeconds: 31 });
    expect(await limiter().peek('other', 10, MINUTE, MINUTE)).toEqual({ allowed: true, limit: 10, remaining: 10, resetSeconds: 60 });
  });

  it('counts each key alone', async () => {
    expect(await takeMany('a', 3, 2, 0)).toBe(2);
    expect(await takeMany('b', 3, 2, 0)).toBe(2);
  });

  it('names when a call becomes possible after the limit was lowered below what the window holds', async () => {
    for (let second = 0; second < 10; second++) await limiter().take('k', 10, MINUTE, second * SECOND);
    // 10 counted, limit now 3: a call is possible once 8 left, when the one at 7 s does.
    expect(await limiter().take('k', 3, MINUTE, 10 * SECOND)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 57 });
    expect((await limiter().take('k', 3, MINUTE, 66_999)).allowed).toBe(false);
    expect((await limiter().take('k', 3, MINUTE, 67_000)).allowed).toBe(true);
  });

  it('counts a call made while the clock stepped back as made at the newest time, so it counts no shorter', async () => {
    expect((await limiter().take('k', 2, MINUTE, 10_000)).allowed).toBe(true);
    expect((await limiter().take('k', 2, MINUTE, 5_000)).allowed).toBe(true);
    // Kept at 5 s it would have left at 65 s; kept at 10 s, it leaves with the other one, at 70 s.
    expect(await limiter().take('k', 2, MINUTE, 65_000)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 5 });
    expect(await limiter().take('k', 2, MINUTE, 70_000)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
  });

  it('refuses everything under a limit of 0', async () => {
    expect(await limiter().take('k', 0, MINUTE, 0)).toEqual({ allowed: false, limit: 0, remaining: 0, resetSeconds: 60 });
  });

  it('takes from every key or from none (takeAll), answering each in order', async () => {
    await takeMany('b', 2, 2, 0);
    const refused = await limiter().takeAll([['a', 5], ['b', 2]], MINUTE, 10 * SECOND);
    expect(refused.map((answer) => [answer.allowed, answer.remaining, answer.resetSeconds])).toEqual([[true, 5, 60], [false, 0, 50]]);
    expect((await limiter().peek('a', 5, MINUTE, 10 * SECOND)).remaining).toBe(5);
    const taken = await limiter().takeAll([['a', 5], ['c', 1]], MINUTE, 10 * SECOND);
    expect(taken.map((answer) => [answer.allowed, answer.remaining])).toEqual([[true, 4], [true, 0]]);
  });

  it('takes several calls of a key at once or none (takeMany), naming when that many will be left', async () => {
    for (let second = 0; second < 6; second++) await limiter().take('k', 10, MINUTE, second * SECOND);
    // 6 counted, 4 left: 6 more do not fit and use nothing; they fit once the calls at 0 s and 1 s left.
    expect(await limiter().takeMany('k', 10, 6, MINUTE, 10 * SECOND)).toEqual({ allowed: false, limit: 10, remaining: 4, resetSeconds: 51 });
    expect(await limiter().takeMany('k', 10, 4, MINUTE, 10 * SECOND)).toEqual({ allowed: true, limit: 10, remaining: 0, resetSeconds: 50 });
    expect(await limiter().peek('k', 10, MINUTE, 10 * SECOND)).toEqual({ allowed: false, limit: 10, remaining: 0, resetSeconds: 50 });
    // More than the limit never fit: named is when the window empties, 60 s after the newest (at 10 s).
    expect(await limiter().takeMany('k', 10, 11, MINUTE, 10 * SECOND)).toEqual({ allowed: false, limit: 10, remaining: 0, resetSeconds: 60 });
    expect(await limiter().takeMany('empty', 2, 3, MINUTE, 0)).toEqual({ allowed: false, limit: 2, remaining: 2, resetSeconds: 60 });
    expect(await limiter().takeMany('empty', 3, 3, MINUTE, 0)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 60 });
    // The calls taken count as single takes do: the next take of the key sees them.
    expect(await limiter().take('k', 10, MINUTE, 60 * SECOND)).toEqual({ allowed: true, limit: 10, remaining: 0, resetSeconds: 1 });
  });

  it('gives takes of several calls made at once from one key exactly the limit between them, whole', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => limiter().takeMany('m', 10, 3, MINUTE, 0)));
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(3);
    expect(await limiter().peek('m', 10, MINUTE, 0)).toEqual({ allowed: true, limit: 10, remaining: 1, resetSeconds: 60 });
  });

  it('answers takes made at once from one key as if made one after another, and lets exactly the limit through', async () => {
    await limiter().take('k', 5, MINUTE, 0);
    const answers = await Promise.all(Array.from({ length: 12 }, () => limiter().take('k', 5, MINUTE, 10 * SECOND)));
    // Which take got which place may differ where processes race; the places given out may not.
    const places = answers.map(({ allowed, remaining, resetSeconds }) => [allowed, remaining, resetSeconds]);
    places.sort((a, b) => Number(b[1]) - Number(a[1]) || Number(b[0]) - Number(a[0]));
    expect(places).toEqual([[true, 3, 50], [true, 2, 50], [true, 1, 50], [true, 0, 50], ...Array(8).fill([false, 0, 50])]);
    expect(await limiter().peek('k', 5, MINUTE, 10 * SECOND)).toEqual({ allowed: false, limit: 5, remaining: 0, resetSeconds: 50 });
  });

  it('answers takes made at once from an empty key with the first of them deciding when the window frees', async () => {
    const answers = await Promise.all(Array.from({ length: 3 }, () => limiter().takeAll([['a', 2], ['b', 3]], MINUTE, 0)));
    const allowed = answers.filter((both) => both.every((answer) => answer.allowed));
    expect(allowed).toHaveLength(2);
    expect(answers.flat().map((answer) => answer.resetSeconds)).toEqual(Array(6).fill(60));
    expect((await limiter().peek('b', 3, MINUTE, 0)).remaining).toBe(1);
    // Where processes take turns, which of these goes first is a race, and so are the answers.
    if (name.includes('taking turns')) return;
    // Made at once with one at 0 s, two a minute on, when the first has left: the first of the two decides.
    const later = await Promise.all([0, MINUTE + SECOND, MINUTE + SECOND].map((at) => limiter().take('c', 5, MINUTE, at)));
    expect(later.map((answer) => answer.resetSeconds)).toEqual([60, 60, 60]);
    expect(later.map((answer) => answer.remaining).sort()).toEqual([3, 4, 4]);
  });

  it('answers every call as the rule written out plainly does, and never allows more than the limit in any window', async () => {
    const WINDOW = 1_000;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        // Steps of the clock, from none (calls at once) to past the whole window, with the window's edge likely.
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 }), fc.constantFrom(WINDOW - 1, WINDOW, WINDOW + 1), fc.integer({ min: 0, max: 2 * WINDOW })), { maxLength: 60 }),
        async (limit, steps) => {
          const key = `run-${run++}`;
          const reference = new ReferenceLog(limit, WINDOW);
          const allowed: number[] = [];
          let now = 1_000_000;
          for (const step of steps) {
            now += step;
            const answer = await limiter().take(key, limit, WINDOW, now);
            expect(answer).toEqual({ limit, ...reference.take(now) });
            if (answer.allowed) allowed.push(now);
          }
          for (const start of allowed) expect(allowed.filter((at) => at >= start && at < start + WINDOW).length).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 150 },
    );
  });
});
