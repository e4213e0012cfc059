import { inTurns } from '../../support/in-turns.js';
import type { RateKey, WindowAnswer } from '../../support/rate-limiter.js';

/** Runs `calls` takes of the same keys in one operation (rates.ts `takeAll`): the answers of each take in turn. */
export type TakeCalls = (keys: readonly RateKey[], windowMs: number, nowMs: number, calls: number) => Promise<WindowAnswer[][]>;

/**
 * Takes of one key (or one set of keys) made while a take of it is under way in this process wait, and then go
 * together as one operation: one transaction, one lock of the key, one statement adding all their calls. On a
 * database reached over a connection, every take of a key holds the key's lock for a few round trips, so without
 * this one busy caller (a script calling as fast as it can, far past its budget) would queue as many transactions
 * as it has requests, each holding a connection of the pool that everyone else's requests need. With it, a key
 * holds at most one connection per process, and a batch answers each take exactly as it would have alone, in
 * the order they came.
 */
export function batchedTakes(run: TakeCalls): (keys: readonly RateKey[], windowMs: number, nowMs: number) => Promise<WindowAnswer[]> {
  const queues = new Map<string, (nowMs: number) => Promise<WindowAnswer[]>>();
  return (keys, windowMs, nowMs) => {
    // On every API call: a plain join (keys are ids and addresses, never holding a NUL) rather than JSON.
    const id = `${windowMs}\u0000${keys.map(([key, limit]) => `${key}\u0000${limit}`).join('\u0000')}`;
    let take = queues.get(id);
    if (!take) {
      take = inTurns<number, WindowAnswer[]>(
        // Later takes never count from an earlier time than the latest of them asked: a window only moves on.
        (asked) => run(keys, windowMs, Math.max(...asked), asked.length),
        () => queues.delete(id),
      );
      queues.set(id, take);
    }
    return take(nowMs);
  };
}
