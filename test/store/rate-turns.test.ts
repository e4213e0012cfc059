import { describe, expect, it } from 'vitest';
import type { CallOf, NewestRead } from '../../src/store/operations/rate-queries.js';
import { takeTurns, type TakeStatements } from '../../src/store/postgres/rate-turns.js';

/**
 * The takes under way at once add their calls in one statement (src/store/postgres/rate-turns.ts), and still each
 * learns whether its own calls went in. Here against a recorded stand-in of rate_events_add;
 * test/rate-limits/postgres-take-turns.test.ts runs it on PostgreSQL.
 */

const take = (...keys: string[]) => ({
  calls: keys.map((key): CallOf => ({ key, until: 60_000, seq: 1 })),
  read: keys.map((key): NewestRead => ({ key, newest: null })),
});

/** rate_events_add as a stand-in: refuses any call that reads a key in `taken` (another process took from it). */
function recorded(taken: Set<string>) {
  const sent: string[][] = [];
  const single: TakeStatements = {
    countedEnds: async () => null,
    addCalls: async (calls, read) => {
      sent.push(calls.map(({ key }) => key));
      return !read.some(({ key }) => taken.has(key));
    },
  };
  return { sent, turns: takeTurns({ query: () => Promise.reject(new Error('no database here')) }, single) };
}

describe('take turns', () => {
  it('send the first take alone and those that come meanwhile as one statement', async () => {
    const { sent, turns } = recorded(new Set());
    const added = await Promise.all([take('a'), take('b'), take('c', 'd')].map(({ calls, read }) => turns.addCalls(calls, read)));
    expect(added).toEqual([true, true, true]);
    expect(sent).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('send a take alone again when the joint statement added nothing, so only the one that met another take reads again', async () => {
    const { sent, turns } = recorded(new Set(['c']));
    const added = await Promise.all([take('a'), take('b'), take('c'), take('d')].map(({ calls, read }) => turns.addCalls(calls, read)));
    expect(added).toEqual([true, true, false, true]);
    expect(sent).toEqual([['a'], ['b', 'c', 'd'], ['b'], ['c'], ['d']]);
  });

  it('never join two takes of one key: the later goes on its own', async () => {
    const { sent, turns } = recorded(new Set());
    const added = await Promise.all([take('a'), take('b'), take('b', 'c'), take('d')].map(({ calls, read }) => turns.addCalls(calls, read)));
    expect(added).toEqual([true, true, true, true]);
    expect(sent).toEqual([['a'], ['b', 'd'], ['b', 'c']]);
  });

  it('fail every take of a failed statement, and go on with those that came after', async () => {
    let fail = true;
    const turns = takeTurns(
      { query: () => Promise.reject(new Error('no database here')) },
      {
        countedEnds: async () => null,
        addCalls: async () => {
          await new Promise((resolve) => setImmediate(resolve));
          if (fail) throw new Error('connection lost');
          return true;
        },
      },
    );
    const first = [take('a'), take('b'), take('c')].map(({ calls, read }) => turns.addCalls(calls, read));
    for (const answer of first) await expect(answer).rejects.toThrow('connection lost');
    fail = false;
    expect(await turns.addCalls(take('d').calls, take('d').read)).toBe(true);
  });
});
