import { callEnds, countedEndsSql, type CallEnds, type CallEndsRow, type CallOf, type NewestRead } from '../operations/rate-queries.js';
import { inTurns } from '../../support/in-turns.js';
import { rows, type Queryable } from './query.js';

/** What the coalesced takes ask: a key's window ends (countedEnds) and adding a take's calls (addCalls). */
export interface TakeStatements {
  countedEnds(key: string, nowMs: number): Promise<CallEnds | null>;
  addCalls(calls: readonly CallOf[], read: readonly NewestRead[]): Promise<boolean>;
}

/**
 * The two statements of every take (store/operations/rates.ts), one of each kind in flight per process: a
 * statement asked for while one of its kind is under way waits, and every one that waited goes together as one
 * statement when it returns. Takes of one person batch already (take-batches.ts); this batches the takes of many
 * people calling at once, which would otherwise send two statements each and queue on the few reserved
 * connections. A statement alone is sent as before, at once, so a quiet server waits for nothing.
 */
export function takeTurns(db: Queryable, single: TakeStatements): TakeStatements {
  const ends = inTurns<{ key: string; nowMs: number }, CallEnds | null>(async (asked) => {
    if (asked.length === 1) return [await single.countedEnds(asked[0]!.key, asked[0]!.nowMs)];
    const found = await rows<CallEndsRow & { i: number }>(
      db,
      `SELECT k.i::int AS i, e.* FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS k(key, now, i),
         LATERAL (${countedEndsSql('k.key', 'k.key', 'k.now')}) AS e`,
      [asked.map(({ key }) => key), asked.map(({ nowMs }) => nowMs)],
    );
    // A key with no call at all has no row.
    const answers: Array<CallEnds | null> = asked.map(() => null);
    for (const { i, ...row } of found) answers[i - 1] = callEnds(row);
    return answers;
  });
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
    if (together.length > 1 && (await single.addCalls(together.flatMap(({ calls }) => calls), together.flatMap(({ read }) => read)))) {
      for (const take of together) added.add(take);
    }
    const answers: boolean[] = [];
    for (const take of asked) answers.push(added.has(take) || (await single.addCalls(take.calls, take.read)));
    return answers;
  });
  return { countedEnds: (key, nowMs) => ends({ key, nowMs }), addCalls: (calls, read) => add({ calls, read }) };
}
