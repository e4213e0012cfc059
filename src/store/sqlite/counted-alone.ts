import { randomUUID } from 'node:crypto';
import { FailureStreaks } from '../../support/failure-streaks.js';
import { processLog } from '../../observability/logger.js';
import { reasonOf } from '../../observability/write-failures.js';
import { memoryRateLimiter } from '../../support/memory-rate-limiter.js';
import type { RateLimiter } from '../../support/rate-limiter.js';
import { SlidingLog } from '../../support/sliding-log.js';
import type { RateStore } from '../ports.js';
import { openDatabase, writeTransaction, type Db } from './database.js';
import { sqliteFailure } from './failures.js';

/** How often a process looks at who else counts on the file: the longest a newcomer waits for one counting alone. */
const LOOK_EVERY_MS = 50;
/** How often a process renews its row of `rate_processes` (a write, which every connection's caches notice). */
const RENEW_EVERY_MS = 1_000;
/** How long a row stands unrenewed: a process that died stops counting as there this long after its last renewal. */
const PRESENT_FOR_MS = 5_000;
/**
 * A process counts alone only this long after its last renewal, well within PRESENT_FOR_MS: one whose event loop
 * stalled looks again before it counts, as a newcomer may have stopped waiting for it once its row ran out.
 */
const ALONE_FOR_MS = 3_000;

interface ProcessRow {
  id: string;
  alone: number;
  until: number;
}

/**
 * The SQLite store's rate limiter: every allowance shared by every process on the file, yet counted in memory,
 * as fast as a single process's, while this process is the only one (docs/behaviour.md, "Rate limits").
 *
 * Each process that counts keeps a row in `rate_processes`, renewed every second. Alone on the file, it counts in
 * memory. Once another process's row appears (a second `npm start`, a rolling restart, WORKERS), it hands its
 * counts to the file, marks its row shared, and counts in the file (`file`, the limiter every process shares)
 * from then on; the newcomer waits for that mark (at most LOOK_EVERY_MS, or PRESENT_FOR_MS for one that died)
 * before it counts anything, so no call is counted twice or missed. Alone again, a process takes the file's counts
 * back into memory. Each of these steps is one write transaction, so two processes always see each other's.
 *
 * Its look at the table is one read every LOOK_EVERY_MS off the request path; a call counted alone touches
 * nothing but memory. A process that stops (close) while another is there hands its counts to the file first, so
 * the successor of a rolling restart goes on from them; one that stops alone forgives them, as memory always did.
 */
export function countedAlone(path: string, file: RateStore & { close(): void }): RateStore & { close(): void } {
  const log = new SlidingLog();
  const streaks = new FailureStreaks();
  const memory = memoryRateLimiter(log, streaks);
  const me = randomUUID();
  let alone = false;
  let renewedAt = -Infinity;
  let table: ReturnType<typeof statements> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** While another process still counts alone: resolves once it counts in the file. */
  let waiting: { done: Promise<void>; release: () => void } | null = null;

  /** Opens the connection and starts looking, on first use: a store that never counts (the CLI's) takes no part. */
  function use(): ReturnType<typeof statements> {
    if (table) return table;
    table = statements(openDatabase(path));
    timer = setInterval(look, LOOK_EVERY_MS);
    timer.unref();
    settle();
    return table;
  }

  /** Renews this process's row and, when others came or went, moves the counts to where they are counted now. */
  function settle(): void {
    const { settleIn } = use();
    const othersAlone = settleIn(Date.now());
    if (othersAlone && !waiting) {
      let release!: () => void;
      waiting = { done: new Promise<void>((resolve) => (release = resolve)), release };
    }
    if (!othersAlone && waiting) {
      waiting.release();
      waiting = null;
    }
  }

  function statements(db: Db) {
    const everyone = db.prepare<[], ProcessRow>('SELECT id, alone, until FROM rate_processes');
    const sweep = db.prepare<[number]>('DELETE FROM rate_processes WHERE until <= ?');
    const others = db.prepare<[string, number], ProcessRow>('SELECT id, alone, until FROM rate_processes WHERE id <> ? AND until > ?');
    const mark = db.prepare<[string, number, number]>(
      `INSERT INTO rate_processes (id, alone, until) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET alone = excluded.alone, until = excluded.until`,
    );
    const leave = db.prepare<[string]>('DELETE FROM rate_processes WHERE id = ?');
    // Every row, whether it still counts or not: counts are on the service's clock, which the rows' sweeps follow.
    const calls = db.prepare<[], { key: string; until: number }>('SELECT key, until FROM rate_events ORDER BY key, seq');
    const allStreaks = db.prepare<[], { key: string; failures: number; lastAt: number }>('SELECT key, failures, last_at AS lastAt FROM failure_streaks');
    const dropCalls = db.prepare('DELETE FROM rate_events');
    const dropStreaks = db.prepare('DELETE FROM failure_streaks');
    const addCall = db.prepare<[string, number, number]>('INSERT INTO rate_events (key, until, seq) VALUES (?, ?, ?)');
    const addStreak = db.prepare<[string, number, number]>('INSERT INTO failure_streaks (key, failures, last_at) VALUES (?, ?, ?)');

    /** Moves every count from the file into memory: only this process counts now. */
    function takeFromFile(): void {
      const byKey = new Map<string, number[]>();
      for (const { key, until } of calls.iterate()) (byKey.get(key) ?? byKey.set(key, []).get(key)!).push(until);
      for (const [key, untils] of byKey) log.takeOver(key, untils);
      for (const { key, failures, lastAt } of allStreaks.iterate()) streaks.takeOver(key, { failures, lastAt });
      dropCalls.run();
      dropStreaks.run();
    }

    /** Moves every count from memory into the file, which every process counts in now. */
    function handToFile(): void {
      // The file holds no count of its own: each process that counted there alone since took them into memory.
      dropCalls.run();
      dropStreaks.run();
      for (const [key, untils] of log.handOver()) untils.forEach((until, i) => addCall.run(key, until, i + 1));
      for (const [key, { failures, lastAt }] of streaks.handOver()) addStreak.run(key, failures, lastAt);
    }

    return {
      /** A look, off the request path: whether settle has anything to do. */
      everyone: () => everyone.all(),
      /** One transaction: this process's row renewed, its counts where they belong; whether another counts alone. */
      settleIn: writeTransaction(db, (nowMs: number): boolean => {
        sweep.run(nowMs);
        const rows = others.all(me, nowMs);
        if (rows.length === 0 && !alone) takeFromFile();
        if (rows.length > 0 && alone) handToFile();
        alone = rows.length === 0;
        mark.run(me, alone ? 1 : 0, nowMs + PRESENT_FOR_MS);
        renewedAt = nowMs;
        return rows.some((row) => row.alone === 1);
      }),
      // Counts go to the file only for a process that came meanwhile: one leaving alone forgives, as memory does.
      leaveIn: writeTransaction(db, (nowMs: number): void => {
        if (alone && others.all(me, nowMs).length > 0) handToFile();
        alone = false;
        leave.run(me);
      }),
      close: () => db.close(),
    };
  }

  /**
   * Settles when the table says this process counts in the wrong place, is waiting, or is due to renew. A file
   * busy past the timeout (the CLI holds a long write) is looked at again next time; a take settles itself.
   */
  function look(): void {
    try {
      const nowMs = Date.now();
      const rows = use().everyone();
      const mine = rows.find((row) => row.id === me && row.until > nowMs);
      const others = rows.filter((row) => row.id !== me && row.until > nowMs);
      if (!mine || alone !== (others.length === 0) || waiting || nowMs - renewedAt >= RENEW_EVERY_MS) settle();
    } catch (error) {
      // A full or failing disk, or a file busy past the timeout: the service tells that condition once (health,
      // write-failures), and the next look tries again. Anything else is a fault of ours.
      if (sqliteFailure(error) === null) processLog().warn({ err: error }, 'Could not look at the processes counting rate limits yet');
    }
  }

  /** Where the next count goes: memory while alone (after a look, should the last renewal be old), else the file. */
  function counter(): RateLimiter | Promise<RateLimiter> {
    use();
    if (alone && Date.now() - renewedAt >= ALONE_FOR_MS) settleIfWritable();
    if (alone) return memory;
    return waiting ? waiting.done.then(counter) : file;
  }

  /**
   * Settles before a count, when the last renewal is old. A file that takes no write now (a full or failing disk,
   * a write lock held past the timeout) takes no newcomer's row either, so a process counting alone goes on alone:
   * its calls, reads above all, are not refused for the budget's bookkeeping.
   */
  function settleIfWritable(): void {
    try {
      settle();
    } catch (error) {
      if (sqliteFailure(error) === null) throw error;
    }
  }

  // Not async: a count in memory costs no more promises than memoryRateLimiter's own.
  function counted<K extends keyof RateLimiter>(name: K): RateLimiter[K] {
    return ((...args: unknown[]) => {
      const call = (limiter: RateLimiter) => (limiter[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      try {
        const limiter = counter();
        return limiter instanceof Promise ? limiter.then(call) : call(limiter);
      } catch (error) {
        return Promise.reject(error);
      }
    }) as RateLimiter[K];
  }

  return {
    take: counted('take'),
    takeMany: counted('takeMany'),
    peek: counted('peek'),
    takeAll: counted('takeAll'),
    startAttempt: counted('startAttempt'),
    attemptSucceeded: counted('attemptSucceeded'),
    close() {
      clearInterval(timer);
      if (table) {
        try {
          table.leaveIn(Date.now());
        } catch (error) {
          // A full or failing disk at shutdown: the row is left, and others take it for gone once it is not renewed
          // (PRESENT_FOR_MS); the close goes on, so the database is still closed and the process ends in time.
          const reason = reasonOf(error);
          processLog().warn({ reason }, `closing: this process's rate-limit row could not be removed (${reason})`);
        }
        table.close();
      }
      file.close();
    },
  };
}
