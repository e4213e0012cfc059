import { streakEnded, streakWaitMs, windowAnswer, type RateKey, type SlowdownRule, type WindowAnswer } from '../../support/rate-limiter.js';
import type { RateStore } from '../ports.js';
import { q, type CallOf, type CallRow, type NewestRead, type RateQueries } from './rate-queries.js';
import type { Steps } from './steps.js';
import { batchedTakes } from './take-batches.js';

type Op<T> = Steps<RateQueries, T>;

/** How often rows nobody will count again are swept, whoever they belong to. */
const SWEEP_EVERY_MS = 60_000;

/** What a key's window holds now: how many calls, until when the one deciding the answer counts, its newest row. */
interface KeyWindow {
  counted: number;
  decidingUntil: number;
  last: CallRow | null;
  /** Answered from what this process knew of the key, not read (CallEnds.known). */
  known?: true;
}

/** takeAll's answers from one reading, the calls to add, the newest calls read, and whether any was known (KeyWindow). */
interface Decided {
  added: CallOf[];
  answers: WindowAnswer[][];
  newest: NewestRead[];
  known: boolean;
}

/**
 * The rate limiter counted in the database (tables `rate_events` and `failure_streaks`), shared by every process
 * that uses it, as operations for any adapter to run (see steps.ts). Every operation but a take first locks the
 * keys it reads; a take adds its calls only if no process took from its keys since it read them, and otherwise
 * reads again, so of two processes taking the last call from one key only one gets it.
 *
 * A row of `rate_events` is one allowed call. It says until when it counts (the time allowed plus the key's
 * window), so any process can sweep what stopped counting without knowing each key's window. Its `seq` numbers
 * the key's calls in order, and only the oldest ever go, so the calls counted are the newest's `seq` less the
 * oldest counted one's, plus one: two index lookups, however many calls a window holds (a count would read them
 * all, and a limit may be a billion). For that order to hold, a time that would come before the key's newest (a
 * clock that stepped back, another process's clock a little behind) is kept as the newest's, as in memory.
 */
export function rateOperations() {
  // This process's last sweeps: each sweeps once a minute, whatever the others do.
  let sweptAt = -Infinity;
  let streaksSweptAt = -Infinity;

  function* windowOf(key: string, limit: number, nowMs: number, read = false): Op<KeyWindow> {
    const ends = yield* q.countedEnds(key, nowMs, read);
    const known = ends?.known ? ({ known: true } as const) : {};
    // `last` is the newest call even when it stopped counting: seq goes on from it, never back to 1 while a row
    // of the key is stored, so the newest's seq less the oldest counted one's always counts the calls between.
    if (!ends?.oldest) return { counted: 0, decidingUntil: 0, last: ends?.newest ?? null, ...known };
    const { oldest, newest: last } = ends;
    const counted = last.seq - oldest.seq + 1;
    // Only when a lowered limit left more counted than it allows: when the newest `limit` begin. Read apart from
    // the ends, so a sweep may have taken the row meanwhile (on PostgreSQL takes hold no lock): then the oldest.
    const deciding = counted > limit ? ((yield* q.nthNewestCall(key, limit - 1)) ?? oldest) : oldest;
    return { counted, decidingUntil: deciding.until, last, ...known };
  }

  const asItStands = ({ counted, decidingUntil }: KeyWindow, limit: number, windowMs: number, nowMs: number) =>
    windowAnswer(counted < limit, limit, counted, decidingUntil - windowMs, windowMs, nowMs);

  /** takeAll's answers from one reading of the keys' windows, and the calls to add for the takes allowed. */
  function* decideTakes(keys: readonly RateKey[], windowMs: number, nowMs: number, calls: number, read: boolean): Op<Decided> {
    const windows: KeyWindow[] = [];
    // Calls that stopped counting are left to the sweep: windowOf reads none but the newest, and the path stays short.
    for (const [key, limit] of keys) windows.push(yield* windowOf(key, limit, nowMs, read));
    const newest: NewestRead[] = keys.map(([key], i) => ({ key, newest: windows[i]!.last }));
    const added: CallOf[] = [];
    const answers: WindowAnswer[][] = [];
    for (let call = 0; call < calls; call++) {
      if (!windows.every(({ counted }, i) => counted < keys[i]![1])) {
        answers.push(keys.map(([, limit], i) => asItStands(windows[i]!, limit, windowMs, nowMs)));
        continue;
      }
      answers.push(
        keys.map(([key, limit], i) => {
          const { counted, decidingUntil, last } = windows[i]!;
          const until = Math.max(nowMs + windowMs, last?.until ?? 0);
          const seq = (last?.seq ?? 0) + 1;
          added.push({ key, until, seq });
          // With none counted before, the call just added is the oldest, so it decides.
          const deciding = counted > 0 ? decidingUntil : until;
          windows[i] = { counted: counted + 1, decidingUntil: deciding, last: { until, seq } };
          return windowAnswer(true, limit, counted + 1, deciding - windowMs, windowMs, nowMs);
        }),
      );
    }
    return { added, answers, newest, known: windows.some((window) => window.known) };
  }

  return {
    *peek(key: string, limit: number, windowMs: number, nowMs: number): Op<WindowAnswer> {
      yield* q.lockKeys([key]);
      return asItStands(yield* windowOf(key, limit, nowMs), limit, windowMs, nowMs);
    },

    /**
     * `calls` takes of every key, one after another, as if each were its own operation: the answers of each take
     * in turn. A take refused leaves the window as it was, so every take after it is refused alike. It takes no
     * lock: adding the calls checks that no other process took from these keys since they were read, and when one
     * did, the take reads again (see addCalls). A take refused adds nothing, so nothing checks its reading: one
     * answered from what this process knew (CallEnds.known), which another process's calls may have overtaken, is
     * read again from the database, and the take answered from that.
     */
    *takeAll(keys: readonly RateKey[], windowMs: number, nowMs: number, calls = 1): Op<WindowAnswer[][]> {
      if (nowMs - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = nowMs;
        yield* q.sweepCalls(nowMs);
      }
      for (let read = false; ; ) {
        const decided: Decided = yield* decideTakes(keys, windowMs, nowMs, calls, read);
        if (decided.added.length === 0 ? !decided.known : yield* q.addCalls(decided.added, decided.newest)) return decided.answers;
        read = decided.added.length === 0;
      }
    },

    /**
     * `calls` takes of one key, all or none (RateLimiter.takeMany). Like takeAll it takes no lock: adding the calls
     * checks that nobody took from the key since it was read, and when somebody did, it reads again.
     */
    *takeMany(key: string, limit: number, calls: number, windowMs: number, nowMs: number): Op<WindowAnswer> {
      for (let read = false; ; ) {
        const { counted, decidingUntil, last, known } = yield* windowOf(key, limit, nowMs, read);
        if (counted + calls > limit) {
          // Refused on what this process knew: read, to answer exactly what is left (see takeAll).
          if (known) {
            read = true;
            continue;
          }
          // They fit once no more than `limit - calls` are counted: when the one before the newest of those leaves
          // (the newest itself for more calls than the limit). Read apart, so a sweep may have taken it: the oldest.
          const fits = counted === 0 ? null : yield* q.nthNewestCall(key, Math.max(0, limit - calls));
          return windowAnswer(false, limit, counted, (fits?.until ?? decidingUntil) - windowMs, windowMs, nowMs);
        }
        const until = Math.max(nowMs + windowMs, last?.until ?? 0);
        const first = (last?.seq ?? 0) + 1;
        const added = Array.from({ length: calls }, (_, i): CallOf => ({ key, until, seq: first + i }));
        if (yield* q.addCalls(added, [{ key, newest: last }])) {
          // With none counted before, the first call just added is the oldest, so it decides.
          return windowAnswer(true, limit, counted + calls, (counted > 0 ? decidingUntil : until) - windowMs, windowMs, nowMs);
        }
      }
    },

    *startAttempt(keys: readonly string[], rule: SlowdownRule, nowMs: number): Op<number> {
      yield* q.lockKeys(keys);
      const live = [];
      for (const key of keys) {
        const found = yield* q.streak(key);
        live.push(found && !streakEnded(rule, found, nowMs) ? found : null);
      }
      const wait = Math.max(0, ...live.map((found) => (found ? streakWaitMs(rule, found, nowMs) : 0)));
      if (wait > 0) return wait;
      if (nowMs - streaksSweptAt >= SWEEP_EVERY_MS) {
        streaksSweptAt = nowMs;
        yield* q.sweepStreaks(nowMs - rule.quietMs);
      }
      for (const [i, key] of keys.entries()) yield* q.putStreak(key, (live[i]?.failures ?? 0) + 1, nowMs);
      return 0;
    },

    *attemptSucceeded(cleared: string, others: readonly string[]): Op<void> {
      yield* q.lockKeys([cleared, ...others]);
      yield* q.endStreak(cleared);
      for (const key of others) {
        yield* q.takeBackFailure(key);
        yield* q.dropEmptyStreak(key);
      }
    },
  };
}

/**
 * What an operation does, for the adapter to run it accordingly: `reads` only reads (no write lock needed);
 * `writes` reads and writes under its keys' locks, in one transaction; `takes` reads, then adds calls in one
 * statement that checks for itself what changed since (addCalls), so it needs no transaction around it.
 */
export type RateWork = 'reads' | 'writes' | 'takes';

/** Runs an operation of the kind `work` in the adapter, answering its queries there. */
export type PerformRate = <A extends unknown[], T>(operation: (...args: A) => Op<T>, work: RateWork) => (...args: A) => Promise<T>;

/** The RateStore of an adapter that runs the rate operations with `perform`: the same ports over any database. */
export function rateStore(perform: PerformRate): RateStore {
  const operations = rateOperations();
  const takeAll = batchedTakes(perform(operations.takeAll, 'takes'));
  return {
    take: async (key, limit, windowMs, nowMs) => (await takeAll([[key, limit]], windowMs, nowMs))[0]!,
    takeMany: perform(operations.takeMany, 'takes'),
    peek: perform(operations.peek, 'reads'),
    takeAll,
    startAttempt: perform(operations.startAttempt, 'writes'),
    attemptSucceeded: perform(operations.attemptSucceeded, 'writes'),
  };
}
