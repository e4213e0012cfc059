import type { RateStore } from '../ports.js';
import { streakEnded, streakWaitMs, windowAnswer, type RateKey, type SlowdownRule, type Streak, type WindowAnswer } from '../../support/rate-limiter.js';
import { openDatabase, writeTransaction, type Db } from './database.js';

/** How often rows nobody will count again are swept, whoever they belong to. */
const SWEEP_EVERY_MS = 60_000;

/**
 * The rate limiter in the database file (tables `rate_events` and `failure_streaks`), shared by every process that
 * opens it. Every operation that may write is one BEGIN IMMEDIATE transaction, which holds the file's write lock
 * from its first read: two processes taking from one key queue up, and only one can take the last call.
 *
 * A row of `rate_events` is one allowed call. It says until when it counts (the time allowed plus the key's
 * window), so any process can sweep what stopped counting without knowing each key's window. Its `seq` numbers
 * the key's calls in order, and only the oldest ever go, so the calls counted are the newest's `seq` less the
 * oldest counted one's, plus one: two index lookups, however many calls a window holds (a count would read them
 * all, and a limit may be a billion). For that order to hold, a time that would come before the key's newest (a
 * clock that stepped back, another process's clock a little behind) is kept as the newest's, as in memory.
 *
 * It has a connection of its own, opened on first use: these writes come with nearly every call, and the main
 * connection's read caches are dropped on any write of that connection (see read-cache.ts).
 */
export function sqliteRates(path: string): RateStore & { close(): void } {
  let statements: ReturnType<typeof prepare> | undefined;
  let sweptAt = -Infinity;
  let streaksSweptAt = -Infinity;
  const use = () => (statements ??= prepare(openDatabase(path)));

  function prepare(db: Db) {
    type Row = { until: number; seq: number };
    const oldestCounted = db.prepare<[string, number], Row>('SELECT until, seq FROM rate_events WHERE key = ? AND until > ? ORDER BY until, seq LIMIT 1');
    const newest = db.prepare<[string], Row>('SELECT until, seq FROM rate_events WHERE key = ? ORDER BY until DESC, seq DESC LIMIT 1');
    // Only when a lowered limit left more counted than it allows: when the newest `limit` begin.
    const nthNewest = db.prepare<[string, number], Row>('SELECT until, seq FROM rate_events WHERE key = ? ORDER BY until DESC, seq DESC LIMIT 1 OFFSET ?');
    const dropCounted = db.prepare<[string, number]>('DELETE FROM rate_events WHERE key = ? AND until <= ?');
    const add = db.prepare<[string, number, number]>('INSERT INTO rate_events (key, until, seq) VALUES (?, ?, ?)');
    const sweep = db.prepare<[number]>('DELETE FROM rate_events WHERE until <= ?');
    const streak = db.prepare<[string], Streak>('SELECT failures, last_at AS lastAt FROM failure_streaks WHERE key = ?');
    const putStreak = db.prepare<[string, number, number]>(
      `INSERT INTO failure_streaks (key, failures, last_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, last_at = excluded.last_at`,
    );
    const endStreak = db.prepare<[string]>('DELETE FROM failure_streaks WHERE key = ?');
    const takeBack = db.prepare<[string]>('UPDATE failure_streaks SET failures = failures - 1 WHERE key = ?');
    const dropEmpty = db.prepare<[string]>('DELETE FROM failure_streaks WHERE key = ? AND failures <= 0');
    const sweepStreaks = db.prepare<[number]>('DELETE FROM failure_streaks WHERE last_at < ?');

    /** What a key's window holds now: how many calls, when the one deciding the answer counts until, its newest row. */
    function windowOf(key: string, limit: number, nowMs: number) {
      const oldest = oldestCounted.get(key, nowMs);
      const last = oldest && newest.get(key)!;
      const counted = last ? last.seq - oldest.seq + 1 : 0;
      const deciding = counted > limit ? nthNewest.get(key, limit - 1)! : oldest;
      return { counted, decidingUntil: deciding?.until ?? 0, last };
    }

    function look(key: string, limit: number, windowMs: number, nowMs: number): WindowAnswer {
      const { counted, decidingUntil } = windowOf(key, limit, nowMs);
      return windowAnswer(counted < limit, limit, counted, decidingUntil - windowMs, windowMs, nowMs);
    }

    const takeAll = writeTransaction(db, (keys: readonly RateKey[], windowMs: number, nowMs: number): WindowAnswer[] => {
      if (nowMs - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = nowMs;
        sweep.run(nowMs);
      }
      const windows = keys.map(([key, limit]) => {
        dropCounted.run(key, nowMs);
        return windowOf(key, limit, nowMs);
      });
      const allowed = windows.every(({ counted }, i) => counted < keys[i]![1]);
      return keys.map(([key, limit], i) => {
        const { counted, decidingUntil, last } = windows[i]!;
        if (!allowed) return windowAnswer(counted < limit, limit, counted, decidingUntil - windowMs, windowMs, nowMs);
        const until = Math.max(nowMs + windowMs, last?.until ?? 0);
        add.run(key, until, (last?.seq ?? 0) + 1);
        return windowAnswer(true, limit, counted + 1, (counted > 0 ? decidingUntil : until) - windowMs, windowMs, nowMs);
      });
    });

    const startAttempt = writeTransaction(db, (keys: readonly string[], rule: SlowdownRule, nowMs: number): number => {
      const live = keys.map((key) => {
        const found = streak.get(key);
        return found && !streakEnded(rule, found, nowMs) ? found : undefined;
      });
      const wait = Math.max(0, ...live.map((found) => (found ? streakWaitMs(rule, found, nowMs) : 0)));
      if (wait > 0) return wait;
      if (nowMs - streaksSweptAt >= SWEEP_EVERY_MS) {
        streaksSweptAt = nowMs;
        sweepStreaks.run(nowMs - rule.quietMs);
      }
      keys.forEach((key, i) => putStreak.run(key, (live[i]?.failures ?? 0) + 1, nowMs));
      return 0;
    });

    const attemptSucceeded = writeTransaction(db, (cleared: string, others: readonly string[]) => {
      endStreak.run(cleared);
      for (const key of others) {
        takeBack.run(key);
        dropEmpty.run(key);
      }
    });

    return { db, look, takeAll, startAttempt, attemptSucceeded };
  }

  return {
    take: async (key, limit, windowMs, nowMs) => use().takeAll([[key, limit]], windowMs, nowMs)[0]!,
    peek: async (key, limit, windowMs, nowMs) => use().look(key, limit, windowMs, nowMs),
    takeAll: async (keys, windowMs, nowMs) => use().takeAll(keys, windowMs, nowMs),
    startAttempt: async (keys, rule, nowMs) => use().startAttempt(keys, rule, nowMs),
    attemptSucceeded: async (cleared, others) => use().attemptSucceeded(cleared, others),
    close: () => statements?.db.close(),
  };
}
