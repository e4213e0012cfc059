import type { CallEnds, CallOf, NewestRead } from '../operations/rate-queries.js';
import { inTurns } from '../../support/in-turns.js';
import { KNOWN_PER_KEY, KnownCalls } from './known-calls.js';
import { rows, type Queryable } from './query.js';

/** What the coalesced takes ask: a key's window ends (countedEnds) and adding a take's calls (addCalls). */
export interface TakeStatements {
  countedEnds(key: string, nowMs: number, read?: boolean): Promise<CallEnds | null>;
  addCalls(calls: readonly CallOf[], read: readonly NewestRead[]): Promise<boolean>;
}

/** A key's newest call and its oldest counted ones, as the read below answers them (calls: [until, seq] pairs). */
interface KeyRead {
  i: number;
  newestUntil: number;
  newestSeq: number;
  counted: Array<[number, number]> | null;
}

/**
 * The two statements of every take (store/operations/rates.ts), one of each kind in flight per process: a
 * statement asked for while one of its kind is under way waits, and every one that waited goes together as one
 * statement when it returns. Takes of one person batch already (take-batches.ts); this batches the takes of many
 * people calling at once, which would otherwise send two statements each and queue on the few reserved
 * connections. A statement alone is sent as before, at once, so a quiet server waits for nothing.
 *
 * A read brings back the key's oldest counted calls too (at most KNOWN_PER_KEY), and the next takes of the key are
 * read from what this process knows (known-calls.ts) until those have stopped counting or another process took
 * from the key: most takes then ask one statement, the add.
 */
export function takeTurns(db: Queryable, single: Pick<TakeStatements, 'addCalls'>): TakeStatements {
  const known = new KnownCalls();
  const ends = inTurns<{ key: string; nowMs: number }, CallEnds | null>(async (asked) => {
    // The key's calls in the order they stop counting (until, then seq), as the primary key holds them.
    const found = await rows<KeyRead>(
      db,
      `SELECT k.i::int AS i, n.until AS "newestUntil", n.seq AS "newestSeq", c.counted
       FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS k(key, now, i)
       CROSS JOIN LATERAL (SELECT until, seq FROM rate_events WHERE key = k.key ORDER BY until DESC, seq DESC LIMIT 1) AS n
       CROSS JOIN LATERAL (
         SELECT json_agg(json_build_array(o.until, o.seq) ORDER BY o.until, o.seq) AS counted
         FROM (SELECT until, seq FROM rate_events WHERE key = k.key AND until > k.now ORDER BY until, seq LIMIT ${KNOWN_PER_KEY}) AS o
       ) AS c`,
      [asked.map(({ key }) => key), asked.map(({ nowMs }) => nowMs)],
    );
    // A key with no call at all has no row.
    const rowOf = new Map(found.map((row) => [row.i - 1, row]));
    return asked.map(({ key, nowMs }, i) => {
      const row = rowOf.get(i);
      const newest = row ? { until: row.newestUntil, seq: row.newestSeq } : null;
      const counted = (row?.counted ?? []).map(([until, seq]) => ({ until, seq }));
      known.read(key, nowMs, newest, counted);
      return newest && { oldest: counted[0] ?? null, newest };
    });
  });
  /** One add, and what it teaches: its calls added, or its keys to read again (another process took, or it failed). */
  const addOne = async (calls: readonly CallOf[], read: readonly NewestRead[]): Promise<boolean> => {
    let added = false;
    try {
      added = await single.addCalls(calls, read);
    } finally {
      if (added) known.added(calls);
      else known.forget(read.map(({ key }) => key));
    }
    return added;
  };
  const add = inTurns<{ calls: readonly CallOf[]; read: readonly NewestRead[] }, boolean>(async (asked) => {
    // Takes that share no key go as one call of rate_events_add, which adds all their calls or none. Two that share
    // one could both add the key's next seq, so a later one goes on its own, as does every take when the joint call
    // adds nothing: one of them met another's calls since it read, and only that one is to read again.
    const held = new Set<string>();
    const together = asked.filter(({ read }) => {
      if (read.some(({ key }) => held.has(key))) return false;
      for (const { key } of read) held.add(key);
      return true;
    });
    const added = new Set<(typeof asked)[number]>();
    if (together.length > 1 && (await addOne(together.flatMap(({ calls }) => calls), together.flatMap(({ read }) => read)))) {
      for (const take of together) added.add(take);
    }
    const answers: boolean[] = [];
    for (const take of asked) answers.push(added.has(take) || (await addOne(take.calls, take.read)));
    return answers;
  });
  return {
    countedEnds: (key, nowMs, read = false) => {
      const answer = read ? undefined : known.ends(key, nowMs);
      return answer === undefined ? ends({ key, nowMs }) : Promise.resolve(answer);
    },
    addCalls: (calls, read) => add({ calls, read }),
  };
}
