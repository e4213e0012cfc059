import { afterEach, describe, expect, it, vi } from 'vitest';
import { processLog } from '../../src/observability/logger.js';
import { batchedTouches } from '../../src/store/token-touches.js';

/** Both adapters' batching of token use: nothing lost to a failed write, nothing ever thrown at the caller. */
const at = (minute: number) => new Date(Date.UTC(2026, 10, 21, 12, minute));

afterEach(() => vi.restoreAllMocks());

describe('batchedTouches', () => {
  it('keeps a batch that failed for the next round, where a time recorded meanwhile wins', async () => {
    const warn = vi.spyOn(processLog(), 'warn').mockImplementation(() => {});
    const written: Array<Record<string, string>> = [];
    let fail = true;
    let touches: ReturnType<typeof batchedTouches> | null = null;
    touches = batchedTouches((batch) => {
      // A touch arriving while the batch is being written.
      touches!.record('b', at(9));
      if (fail) throw new Error('busy');
      written.push(Object.fromEntries([...batch].map(([id, when]) => [id, when.toISOString()])));
    }, 60_000);
    touches.record('a', at(1));
    touches.record('b', at(2));
    await touches.close();
    expect(warn).toHaveBeenCalledWith({ err: new Error('busy') }, 'Could not record token use yet');
    fail = false;
    await touches.close();
    expect(written).toEqual([{ a: at(1).toISOString(), b: at(9).toISOString() }]);
  });

  it('writes batches one after the other and never rejects', async () => {
    vi.spyOn(processLog(), 'warn').mockImplementation(() => {});
    const order: string[] = [];
    let release!: () => void;
    const touches = batchedTouches(async (batch) => {
      const ids = [...batch.keys()].join();
      order.push(`start ${ids}`);
      if (ids === 'a') await new Promise<void>((resolve) => (release = resolve));
      if (ids === 'c') throw new Error('gone');
      order.push(`end ${ids}`);
    }, 60_000);
    touches.record('a', at(1));
    const first = touches.close();
    touches.record('b', at(2));
    const second = touches.close();
    release();
    await Promise.all([first, second]);
    touches.record('c', at(3));
    await expect(touches.close()).resolves.toBeUndefined();
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c']);
  });
});
