import { describe, expect, it } from 'vitest';
import { ClickCounter } from '../../src/redirect/click-counter.js';
import type { ClickStore } from '../../src/store/ports.js';

/** A click store whose every write takes a while and keeps what it was given. */
function slowClicks(written: Array<Map<string, Map<string, number>>>): ClickStore {
  return {
    add: async (batch: Map<string, Map<string, number>>) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      written.push(batch);
    },
  } as unknown as ClickStore;
}

describe('ClickCounter.close', () => {
  it('writes the clicks counted while its last write was under way too', async () => {
    const written: Array<Map<string, Map<string, number>>> = [];
    const counter = new ClickCounter(slowClicks(written));
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at);
    const closing = counter.close();
    // A visit cut off by the drain's timeout, answered while the first write is on its way.
    counter.count('link-b', at);
    await closing;
    expect(written.map((batch) => [...batch.keys()])).toEqual([['link-a'], ['link-b']]);
    expect(written[1]!.get('link-b')!.get('2026-11-27')).toBe(1);
  });
});

/** A click store that refuses its first `failures` writes and keeps each batch it took, as plain objects. */
function keptClicks(failures = 0): { store: ClickStore; written: Array<Record<string, Record<string, number>>> } {
  const written: Array<Record<string, Record<string, number>>> = [];
  let refused = 0;
  const store = {
    add: async (batch: Map<string, Map<string, number>>) => {
      if (refused++ < failures) throw new Error('disk full');
      written.push(Object.fromEntries([...batch].map(([link, days]) => [link, Object.fromEntries(days)])));
    },
  } as unknown as ClickStore;
  return { store, written };
}

describe('ClickCounter.flush', () => {
  it('writes each link by UTC day, across the turn of a day and a clock set back', async () => {
    const { store, written } = keptClicks();
    const counter = new ClickCounter(store);
    counter.count('link-a', new Date('2026-11-27T23:59:59.900Z'));
    counter.count('link-a', new Date('2026-11-27T23:59:59.950Z'));
    counter.count('link-b', new Date('2026-11-27T23:59:59.990Z'));
    counter.count('link-a', new Date('2026-11-28T00:00:00.010Z'));
    counter.count('link-a', new Date('2026-11-27T23:59:59.999Z')); // the clock set back a little
    counter.count('link-b', new Date('2026-11-28T00:00:01Z'));
    await counter.flush();
    expect(written).toEqual([
      { 'link-a': { '2026-11-27': 3, '2026-11-28': 1 }, 'link-b': { '2026-11-27': 1, '2026-11-28': 1 } },
    ]);
    counter.count('link-c', new Date('2026-11-28T00:00:02Z'));
    await counter.flush();
    expect(written[1]).toEqual({ 'link-c': { '2026-11-28': 1 } });
    await counter.close();
  });

  it('keeps the counts of a failed write and adds them to the next one', async () => {
    const { store, written } = keptClicks(1);
    const counter = new ClickCounter(store);
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at);
    counter.count('link-a', at);
    expect(await counter.flush()).toBeInstanceOf(Error);
    counter.count('link-a', at);
    counter.count('link-b', new Date('2026-11-28T08:00:00Z'));
    expect(await counter.flush()).toBeUndefined();
    expect(written).toEqual([{ 'link-a': { '2026-11-27': 3 }, 'link-b': { '2026-11-28': 1 } }]);
    await counter.close();
  });
});

describe('ClickCounter with a write in slices (ClickStore.add: links leave the batch as their slice commits)', () => {
  it('counts a link as not written until its slice commits, and puts back only what a failed write left', async () => {
    const stored = new Map<string, number>();
    const seen: Array<[number, number]> = [];
    let counter: ClickCounter;
    // Writes link-a in a first slice, then fails before link-b's, as a full disk would.
    const store = {
      add: async (batch: Map<string, Map<string, number>>) => {
        seen.push([counter.clicksNotWritten('link-a'), counter.clicksNotWritten('link-b')]);
        stored.set('link-a', [...batch.get('link-a')!.values()].reduce((a, b) => a + b, 0));
        batch.delete('link-a');
        await new Promise((resolve) => setImmediate(resolve));
        seen.push([counter.clicksNotWritten('link-a'), counter.clicksNotWritten('link-b')]);
        throw new Error('disk full');
      },
    } as unknown as ClickStore;
    counter = new ClickCounter(store);
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at);
    counter.count('link-a', at);
    counter.count('link-b', at);
    expect(await counter.flush()).toBeInstanceOf(Error);
    // Before the first slice: both links' clicks; after it: link-a's are the store's, link-b's still this process's.
    expect(seen).toEqual([
      [2, 1],
      [0, 1],
    ]);
    expect(stored.get('link-a')).toBe(2);
    // What the failed write left is counted again, once: link-b's click, not link-a's written ones.
    expect([counter.clicksNotWritten('link-a'), counter.clicksNotWritten('link-b')]).toEqual([0, 1]);
  });

  it('counts the clicks of two writes under way at once, the first slower than a second', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const store = {
      add: async (batch: Map<string, Map<string, number>>) => {
        if (calls++ === 0) await gate;
        batch.clear();
      },
    } as unknown as ClickStore;
    const counter = new ClickCounter(store);
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at);
    const first = counter.flush();
    counter.count('link-a', at);
    const second = counter.flush();
    await new Promise((resolve) => setImmediate(resolve));
    // The second write is done; the first still holds its click, which the store does not have yet.
    expect(counter.clicksNotWritten('link-a')).toBe(1);
    release();
    await Promise.all([first, second]);
    expect(counter.clicksNotWritten('link-a')).toBe(0);
  });
});
