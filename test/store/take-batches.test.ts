import { describe, expect, it } from 'vitest';
import { batchedTakes, type TakeCalls } from '../../src/store/operations/take-batches.js';
import type { RateKey, WindowAnswer } from '../../src/support/rate-limiter.js';

/**
 * Takes of one key made while one is under way go together as one operation (src/store/operations/take-batches.ts),
 * so a busy key holds one transaction of a process at a time. Here against a recorded stand-in of the operation;
 * sliding-window.test.ts checks the answers against the real stores.
 */

interface Run {
  keys: readonly RateKey[];
  nowMs: number;
  calls: number;
  finish(error?: Error): void;
}

/** A stand-in operation that answers when told to, each take's answer naming its run and place. */
function recorded(): { runs: Run[]; run: TakeCalls } {
  const runs: Run[] = [];
  const run: TakeCalls = (keys, _windowMs, nowMs, calls) =>
    new Promise((resolve, reject) => {
      const answers = Array.from({ length: calls }, (_, place) =>
        keys.map(([, limit]): WindowAnswer => ({ allowed: true, limit, remaining: runs.length * 100 + place, resetSeconds: 1 })),
      );
      runs.push({ keys, nowMs, calls, finish: (error) => (error ? reject(error) : resolve(answers)) });
    });
  return { runs, run };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('batched takes', () => {
  it('run the first take alone and those made while it runs as one batch, answering each its own place in order', async () => {
    const { runs, run } = recorded();
    const take = batchedTakes(run);
    const first = take([['k', 5]], 60_000, 1_000);
    const later = [2_000, 3_000, 2_500].map((now) => take([['k', 5]], 60_000, now));
    await settle();
    expect(runs.map(({ calls }) => calls)).toEqual([1]);
    runs[0]!.finish();
    expect((await first)[0]!.remaining).toBe(0);
    await settle();
    // One run for the three, at the latest time any of them asked.
    expect(runs.map(({ calls, nowMs }) => [calls, nowMs])).toEqual([[1, 1_000], [3, 3_000]]);
    runs[1]!.finish();
    expect((await Promise.all(later)).map((answers) => answers[0]!.remaining)).toEqual([100, 101, 102]);
  });

  it('never put takes of other keys, or of the same keys over another window, in one batch', async () => {
    const { runs, run } = recorded();
    const take = batchedTakes(run);
    void take([['a', 5]], 60_000, 0);
    void take([['b', 5]], 60_000, 0);
    void take([['a', 5]], 3_600_000, 0);
    void take([['a', 5], ['b', 5]], 60_000, 0);
    await settle();
    expect(runs.map(({ keys, calls }) => [keys.map(([key]) => key).join('+'), calls])).toEqual([['a', 1], ['b', 1], ['a', 1], ['a+b', 1]]);
  });

  it('fail every take of a failed batch, and go on with the takes that came after', async () => {
    const { runs, run } = recorded();
    const take = batchedTakes(run);
    const first = take([['k', 5]], 60_000, 0);
    const failed = [take([['k', 5]], 60_000, 0), take([['k', 5]], 60_000, 0)];
    await settle();
    runs[0]!.finish();
    await first;
    await settle();
    const after = take([['k', 5]], 60_000, 0);
    runs[1]!.finish(new Error('connection lost'));
    for (const answer of failed) await expect(answer).rejects.toThrow('connection lost');
    await settle();
    expect(runs.map(({ calls }) => calls)).toEqual([1, 2, 1]);
    runs[2]!.finish();
    expect((await after)[0]!.remaining).toBe(200);
    // Nothing is left waiting: a new take runs at once, alone.
    void take([['k', 5]], 60_000, 0);
    await settle();
    expect(runs).toHaveLength(4);
  });
});
