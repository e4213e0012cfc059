import { describe, expect, it } from 'vitest';
import { asker, runAwaiting, runNow, type Steps } from '../../src/store/operations/steps.js';

/** A tiny query set, to hold the two runners to the same answers. */
interface Counter {
  get(key: string): number;
  set(key: string, value: number): void;
}
const q = asker<Counter>();

function* increment(key: string, by: number): Steps<Counter, number> {
  const now = yield* q.get(key);
  if (now + by > 10) throw new Error(`${key} would pass 10`);
  yield* q.set(key, now + by);
  return yield* q.get(key);
}

function memory(): Counter & { asked: string[] } {
  const values = new Map<string, number>();
  const asked: string[] = [];
  return {
    asked,
    get: (key) => (asked.push(`get ${key}`), values.get(key) ?? 0),
    set: (key, value) => void (asked.push(`set ${key}=${value}`), values.set(key, value)),
  };
}

describe('store operations run the same way answered at once or over a connection', () => {
  it('runNow answers each query in order and returns the result', () => {
    const m = memory();
    expect(runNow(increment('a', 3), m)).toBe(3);
    expect(runNow(increment('a', 4), m)).toBe(7);
    expect(m.asked).toEqual(['get a', 'set a=3', 'get a', 'get a', 'set a=7', 'get a']);
  });

  it('runAwaiting does the same with promised answers', async () => {
    const m = memory();
    const remote = { get: async (key: string) => m.get(key), set: async (key: string, value: number) => m.set(key, value) };
    expect(await runAwaiting(increment('b', 6), remote)).toBe(6);
    expect(m.asked).toEqual(['get b', 'set b=6', 'get b']);
  });

  it('a rule broken half-way throws out of both runners after the queries before it, none after', async () => {
    const m = memory();
    runNow(increment('c', 9), m);
    expect(() => runNow(increment('c', 2), m)).toThrow('c would pass 10');
    const remote = { get: async (key: string) => m.get(key), set: async (key: string, value: number) => m.set(key, value) };
    await expect(runAwaiting(increment('c', 5), remote)).rejects.toThrow('c would pass 10');
    expect(m.asked.filter((line) => line.startsWith('set'))).toEqual(['set c=9']);
  });

  it('a failing query ends the operation with its error', async () => {
    const failing = { get: async () => Promise.reject(new Error('connection lost')), set: async () => undefined };
    await expect(runAwaiting(increment('d', 1), failing)).rejects.toThrow('connection lost');
  });
});
