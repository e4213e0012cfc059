import type { RateKey, WindowAnswer } from '../../support/rate-limiter.js';

/** Runs `calls` takes of the same keys in one operation (rates.ts `takeAll`): the answers of each take in turn. */
export type TakeCalls = (keys: readonly RateKey[], windowMs: number, nowMs: number, calls: number) => Promise<WindowAnswer[][]>;

interface Waiting {
  nowMs: number;
  resolve(answers: WindowAnswer[]): void;
  reject(error: unknown): void;
}

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
  const waiting = new Map<string, Waiting[]>();

  async function drain(id: string, keys: readonly RateKey[], windowMs: number): Promise<void> {
    for (;;) {
      const batch = waiting.get(id)!;
      if (batch.length === 0) return void waiting.delete(id);
      waiting.set(id, []);
      // Later takes never count from an earlier time than the latest of them asked: a window only moves on.
      const nowMs = Math.max(...batch.map((take) => take.nowMs));
      try {
        const answers = await run(keys, windowMs, nowMs, batch.length);
        batch.forEach((take, i) => take.resolve(answers[i]!));
      } catch (error) {
        for (const take of batch) take.reject(error);
      }
    }
  }

  return (keys, windowMs, nowMs) =>
    new Promise((resolve, reject) => {
      // On every API call: a plain join (keys are ids and addresses, never holding a NUL) rather than JSON.
      const id = `${windowMs}\u0000${keys.map(([key, limit]) => `${key}\u0000${limit}`).join('\u0000')}`;
      const queue = waiting.get(id);
      if (queue) return void queue.push({ nowMs, resolve, reject });
      waiting.set(id, [{ nowMs, resolve, reject }]);
      void drain(id, keys, windowMs);
    });
}
