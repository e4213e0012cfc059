import type { RateStore } from '../ports.js';
import { callEnds, countedEndsSql, type CallEndsRow, type CallRow, type RateQueries } from '../operations/rate-queries.js';
import { rateStore, type RateWork } from '../operations/rates.js';
import { runNow, type Steps } from '../operations/steps.js';
import type { Streak } from '../../support/rate-limiter.js';
import { openDatabase, writeTransaction, type Db } from './database.js';

/**
 * The rate limiter in the database file (store/operations/rates.ts), shared by every process that opens it. An
 * operation that may write is one BEGIN IMMEDIATE transaction, which holds the file's write lock from its first
 * read: two processes taking from one key queue up, so the key locks are already held. A peek only reads, in one
 * deferred transaction (one snapshot of the file).
 *
 * It has a connection of its own, opened on first use: these writes come with nearly every call, and the main
 * connection's read caches are dropped on any write of that connection (see read-cache.ts).
 */
export function sqliteRates(path: string): RateStore & { close(): void } {
  let opened: { db: Db; queries: RateQueries } | undefined;
  const use = () => (opened ??= open(path));

  function perform<A extends unknown[], T>(operation: (...args: A) => Steps<RateQueries, T>, work: RateWork) {
    // Made on first use, with the connection: a transaction function belongs to one connection.
    let run: ((...args: A) => T) | undefined;
    return async (...args: A): Promise<T> => {
      if (!run) {
        const { db, queries } = use();
        const once = (...a: A) => runNow(operation(...a), queries);
        run = work === 'reads' ? db.transaction(once) : writeTransaction(db, once);
      }
      return run(...args);
    };
  }

  const rates = rateStore(perform);
  return { ...rates, close: () => opened?.db.close() };
}

/** Opens the connection and answers the rate queries with its statements, one each. */
function open(path: string): { db: Db; queries: RateQueries } {
  const db = openDatabase(path);
  const row = 'SELECT until, seq FROM rate_events WHERE key = ?';
  const countedEnds = db.prepare<[string, string, number], CallEndsRow>(countedEndsSql('?', '?', '?'));
  const nthNewest = db.prepare<[string, number], CallRow>(`${row} ORDER BY until DESC, seq DESC LIMIT 1 OFFSET ?`);
  const addCall = db.prepare<[string, number, number]>('INSERT INTO rate_events (key, until, seq) VALUES (?, ?, ?)');
  const sweepCalls = db.prepare<[number]>('DELETE FROM rate_events WHERE until <= ?');
  const streak = db.prepare<[string], Streak>('SELECT failures, last_at AS lastAt FROM failure_streaks WHERE key = ?');
  const putStreak = db.prepare<[string, number, number]>(
    `INSERT INTO failure_streaks (key, failures, last_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, last_at = excluded.last_at`,
  );
  const endStreak = db.prepare<[string]>('DELETE FROM failure_streaks WHERE key = ?');
  const takeBack = db.prepare<[string]>('UPDATE failure_streaks SET failures = failures - 1 WHERE key = ?');
  const dropEmpty = db.prepare<[string]>('DELETE FROM failure_streaks WHERE key = ? AND failures <= 0');
  const sweepStreaks = db.prepare<[number]>('DELETE FROM failure_streaks WHERE last_at < ?');
  const queries: RateQueries = {
    lockKeys: () => undefined,
    countedEnds: (key, nowMs) => callEnds(countedEnds.get(key, key, nowMs)),
    nthNewestCall: (key, offset) => nthNewest.get(key, offset) ?? null,
    // The write transaction has held the file since the take's first read: nothing can have come in between.
    addCalls: (calls) => {
      for (const { key, until, seq } of calls) addCall.run(key, until, seq);
      return true;
    },
    sweepCalls: (nowMs) => void sweepCalls.run(nowMs),
    streak: (key) => streak.get(key) ?? null,
    putStreak: (key, failures, lastAt) => void putStreak.run(key, failures, lastAt),
    endStreak: (key) => void endStreak.run(key),
    takeBackFailure: (key) => void takeBack.run(key),
    dropEmptyStreak: (key) => void dropEmpty.run(key),
    sweepStreaks: (before) => void sweepStreaks.run(before),
  };
  return { db, queries };
}
