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
