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
 * A row of `rate_events` says until when it counts (the time it was allowed plus its key's window), so any
 * process can sweep what stopped counting without knowing each key's window.
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
    const window = db.prepare<[string, number, number], { counted: number; oldestUntil: number | null }>(
      `SELECT count(*) AS counted, min(until) AS oldestUntil
       FROM (SELECT until FROM rate_events WHERE key = ? AND until > ? ORDER BY until DESC LIMIT ?)`,
    );
    const dropCounted = db.prepare<[string, number]>('DELETE FROM rate_events WHERE key = ? AND until <= ?');
    const add = db.prepare<[string, number]>('INSERT INTO rate_events (key, until) VALUES (?, ?)');
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

    /** The key's allowance now, from the newest `limit` rows that still count; `taken` when one was just added. */
    function look(key: string, limit: number, windowMs: number, nowMs: number, taken = false): WindowAnswer {
      const { counted, oldestUntil } = window.get(key, nowMs, limit)!;
      return windowAnswer(taken || counted < limit, limit, counted, (oldestUntil ?? 0) - windowMs, windowMs, nowMs);
    }

    const takeAll = writeTransaction(db, (keys: readonly RateKey[], windowMs: number, nowMs: number): WindowAnswer[] => {
      if (nowMs - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = nowMs;
        sweep.run(nowMs);
      }
      const before = keys.map(([key, limit]) => {
        dropCounted.run(key, nowMs);
        return look(key, limit, windowMs, nowMs);
      });
      if (before.some((answer) => !answer.allowed)) return before;
      return keys.map(([key, limit]) => {
        add.run(key, nowMs + windowMs);
        return look(key, limit, windowMs, nowMs, true);
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
