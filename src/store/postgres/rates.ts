import type pg from 'pg';
import type { RateStore } from '../ports.js';
import { callEnds, countedEndsSql, type CallEndsRow, type CallRow, type RateQueries } from '../operations/rate-queries.js';
import { rateStore } from '../operations/rates.js';
import { runAwaiting } from '../operations/steps.js';
import type { Streak } from '../../support/rate-limiter.js';
import { row, transaction, type Queryable } from './query.js';
import { takeTurns } from './rate-turns.js';

type Answers = { [K in keyof RateQueries]: (...args: Parameters<RateQueries[K]>) => Promise<ReturnType<RateQueries[K]>> };

/**
 * The seed of the hashes the rate keys are locked by; another than the link names' (link-queries.ts), so a rate
 * key never waits for a link name that happens to be spelled alike.
 */
const KEY_LOCK_SEED = 11;

/**
 * The rate limiter in PostgreSQL (store/operations/rates.ts), shared by every process on the database: each
 * operation is one transaction on a connection of the pool, except takes (on the path of every API call), whose
 * statements run on their own: a read (most often answered from what this process knows of the key: known-calls.ts),
 * then one call of rate_events_add (migration 10), which checks under the keys' locks that nobody took from them
 * since the read. Those run on `reserved`, the share of connections kept for the short statements of every request
 * (database.ts), so calls queued on a team's rows do not hold them up, and the takes under way at once send each
 * of the two as one statement per turn (rate-turns.ts).
 */
export function pgRates(pool: pg.Pool, reserved: pg.Pool = pool): RateStore {
  const single = pgRateQueries(reserved);
  const onTheirOwn: Answers = { ...single, ...takeTurns(reserved, single) };
  return rateStore((operation, work) => (...args) =>
    work === 'takes'
      ? runAwaiting(operation(...args), onTheirOwn)
      : transaction(pool, (client) => runAwaiting(operation(...args), pgRateQueries(client))),
  );
}

/**
 * PostgreSQL's answers to the rate operations, on the transaction's connection. Under READ COMMITTED each statement
 * sees what committed before it, so the key locks do the ordering: an advisory lock per key, held until the
 * transaction ends. They are taken in the order of their hashes, the same in every process, so two operations
 * that share keys wait for each other and never deadlock. The sweeps skip rows another sweep holds, so two
 * processes sweeping at once wait for nobody either.
 */
export function pgRateQueries(client: Queryable): Answers {
  const call = (sql: string, values: unknown[]) => row<CallRow>(client, `SELECT until, seq FROM rate_events WHERE key = $1 ${sql}`, values);
  const run = async (sql: string, values: unknown[]) => void (await client.query(sql, values));
  return {
    // The hashes sorted (and alike ones once) into an array first: unnest then hands them to the lock in order.
    lockKeys: (keys) =>
      run(
        `SELECT pg_advisory_xact_lock(h) FROM unnest(ARRAY(
           SELECT DISTINCT hashtextextended(k, ${KEY_LOCK_SEED}) FROM unnest($1::text[]) AS k ORDER BY 1)) AS h`,
        [keys],
      ),
    countedEnds: async (key, nowMs) => callEnds(await row<CallEndsRow>(client, countedEndsSql('$1', '$1', '$2'), [key, nowMs])),
    nthNewestCall: (key, offset) => call('ORDER BY until DESC, seq DESC LIMIT 1 OFFSET $2', [key, offset]),
    addCalls: async (calls, read) => {
      const added = await row<{ added: boolean }>(
        client,
        'SELECT rate_events_add($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[], $7) AS added',
        [
          calls.map((c) => c.key),
          calls.map((c) => c.until),
          calls.map((c) => c.seq),
          read.map((r) => r.key),
          read.map((r) => r.newest?.until ?? null),
          read.map((r) => r.newest?.seq ?? null),
          KEY_LOCK_SEED,
        ],
      );
      return added!.added;
    },
    sweepCalls: (nowMs) =>
      run(
        `DELETE FROM rate_events WHERE (key, until, seq) IN (
           SELECT key, until, seq FROM rate_events WHERE until <= $1 FOR UPDATE SKIP LOCKED)`,
        [nowMs],
      ),
    streak: (key) => row<Streak>(client, 'SELECT failures, last_at AS "lastAt" FROM failure_streaks WHERE key = $1', [key]),
    putStreak: (key, failures, lastAt) =>
      run(
        `INSERT INTO failure_streaks (key, failures, last_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, last_at = excluded.last_at`,
        [key, failures, lastAt],
      ),
    endStreak: (key) => run('DELETE FROM failure_streaks WHERE key = $1', [key]),
    takeBackFailure: (key) => run('UPDATE failure_streaks SET failures = failures - 1 WHERE key = $1', [key]),
    dropEmptyStreak: (key) => run('DELETE FROM failure_streaks WHERE key = $1 AND failures <= 0', [key]),
    sweepStreaks: (before) =>
      run(
        `DELETE FROM failure_streaks WHERE key IN (
           SELECT key FROM failure_streaks WHERE last_at < $1 FOR UPDATE SKIP LOCKED)`,
        [before],
      ),
  };
}
