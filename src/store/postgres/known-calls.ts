import { LruCache } from '../../support/lru-cache.js';
import type { CallEnds, CallOf, CallRow } from '../operations/rate-queries.js';

/** How many of a key's oldest counted calls a read brings back, and how many this process keeps of a key at most. */
export const KNOWN_PER_KEY = 32;
/** How many keys this process keeps what it knows of (the least recently taken go first). */
const KNOWN_KEYS = 5_000;

/** What this process knows of one key's calls. */
interface Known {
  /** Calls of consecutive seqs, oldest first: from the oldest still counted when last read, on. */
  calls: CallRow[];
  /** The key's newest call as far as this process knows; null: it had none. */
  newest: CallRow | null;
  /** Whether `calls` reach `newest` (no call between them is unknown). */
  complete: boolean;
  /** The latest time `calls` was trimmed at: an earlier time may count calls trimmed since. */
  trimmedAt: number;
}

/**
 * A take's reading of a key's window (countedEnds) answered from what this process last read and added, without a
 * round trip: a take on PostgreSQL otherwise asks two statements one after the other (read, then add) on the path
 * of every API call.
 *
 * Exact while nobody else took from the key: a key's calls are only ever added after its newest, and removed only
 * once they stopped counting (sweeps), so the oldest call still counted is the first known call that still counts,
 * as long as every call before it is known to have stopped. Adding the calls checks that the key's newest is still
 * the one the take read (rate_events_add), so a take decided on what another process overtook adds nothing, forgets
 * the key here, and reads it again (rates.ts). A take refused adds nothing and so checks nothing: it reads the
 * database again before it answers (CallEnds.known), so what it says is left is exact too.
 */
export class KnownCalls {
  private readonly keys = new LruCache<Known>(KNOWN_KEYS);

  /** The key's window at `nowMs` as known here; undefined when it must be read. */
  ends(key: string, nowMs: number): CallEnds | null | undefined {
    const known = this.keys.get(key);
    if (!known || nowMs < known.trimmedAt) return undefined;
    const counting = known.calls.findIndex((call) => call.until > nowMs);
    if (counting !== 0) {
      known.calls.splice(0, counting === -1 ? known.calls.length : counting);
      known.trimmedAt = nowMs;
    }
    if (known.calls.length > 0) return { oldest: known.calls[0]!, newest: known.newest!, known: true };
    // Every known call stopped counting: none counts if none between them and the newest is unknown.
    if (!known.complete) return undefined;
    return known.newest === null ? null : { oldest: null, newest: known.newest, known: true };
  }

  /** What a read at `nowMs` found: the key's newest call and its oldest counted ones (at most KNOWN_PER_KEY), oldest first. */
  read(key: string, nowMs: number, newest: CallRow | null, counted: readonly CallRow[]): void {
    // A copy of its own, which takes trim and extend.
    const calls = counted.slice(0, KNOWN_PER_KEY);
    const complete = calls.length === 0 || calls.at(-1)!.seq === newest?.seq;
    this.keys.set(key, { calls, newest, complete, trimmedAt: nowMs });
  }

  /** Calls this process added, each key's after its newest as it was read. */
  added(calls: readonly CallOf[]): void {
    for (const call of calls) {
      const known = this.keys.get(call.key);
      if (!known) continue;
      const row = { until: call.until, seq: call.seq };
      if (known.complete && known.calls.length < KNOWN_PER_KEY) known.calls.push(row);
      else known.complete = false;
      known.newest = row;
    }
  }

  /** Keys another process may have taken from (an add refused), or whose add's outcome is unknown (it failed). */
  forget(keys: Iterable<string>): void {
    for (const key of keys) this.keys.delete(key);
  }
}
