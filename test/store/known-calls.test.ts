import { describe, expect, it } from 'vitest';
import { KNOWN_PER_KEY, KnownCalls } from '../../src/store/postgres/known-calls.js';

/**
 * What a PostgreSQL process knows of a rate key's calls between reads (src/store/postgres/known-calls.ts): a key's
 * window answered from it exactly, or not at all. (postgres-take-turns.test.ts takes through it on a database.)
 */
const call = (seq: number, until: number) => ({ until, seq });

describe('KnownCalls', () => {
  it('knows nothing of a key it never read', () => {
    expect(new KnownCalls().ends('k', 0)).toBeUndefined();
  });

  it('answers the oldest call still counting and the newest, as the database would, marked as known', () => {
    const known = new KnownCalls();
    known.read('k', 0, call(3, 300), [call(1, 100), call(2, 200), call(3, 300)]);
    expect(known.ends('k', 0)).toEqual({ oldest: call(1, 100), newest: call(3, 300), known: true });
    expect(known.ends('k', 150)).toEqual({ oldest: call(2, 200), newest: call(3, 300), known: true });
    // Every call stopped counting, and none between them and the newest is unknown: none counts.
    expect(known.ends('k', 300)).toEqual({ oldest: null, newest: call(3, 300), known: true });
    // A time before the calls were let go may count them: read again.
    expect(known.ends('k', 250)).toBeUndefined();
  });

  it('answers a key without calls as the database does (null), and counts the calls added after', () => {
    const known = new KnownCalls();
    known.read('k', 0, null, []);
    expect(known.ends('k', 0)).toBeNull();
    known.added([{ key: 'k', ...call(1, 100) }, { key: 'other', ...call(7, 100) }]);
    expect(known.ends('k', 50)).toEqual({ oldest: call(1, 100), newest: call(1, 100), known: true });
    expect(known.ends('other', 50)).toBeUndefined();
  });

  it('reads again once the known oldest calls stopped counting while calls between them and the newest are unknown', () => {
    const known = new KnownCalls();
    // The read brought back the oldest KNOWN_PER_KEY of more counted calls: those between are not known.
    const oldest = Array.from({ length: KNOWN_PER_KEY }, (_, i) => call(i + 1, 100 + i));
    known.read('k', 0, call(50, 500), oldest);
    expect(known.ends('k', 100 + KNOWN_PER_KEY - 2)).toEqual({ oldest: call(KNOWN_PER_KEY, 100 + KNOWN_PER_KEY - 1), newest: call(50, 500), known: true });
    known.added([{ key: 'k', ...call(51, 600) }]);
    expect(known.ends('k', 100 + KNOWN_PER_KEY - 2)?.newest).toEqual(call(51, 600));
    expect(known.ends('k', 100 + KNOWN_PER_KEY)).toBeUndefined();
  });

  it('keeps at most KNOWN_PER_KEY calls of a key, and then reads again once those stopped counting', () => {
    const known = new KnownCalls();
    known.read('k', 0, null, []);
    const added = Array.from({ length: KNOWN_PER_KEY + 5 }, (_, i) => ({ key: 'k', ...call(i + 1, 1_000 + i) }));
    known.added(added);
    expect(known.ends('k', 0)).toEqual({ oldest: call(1, 1_000), newest: call(KNOWN_PER_KEY + 5, 1_000 + KNOWN_PER_KEY + 4), known: true });
    expect(known.ends('k', 1_000 + KNOWN_PER_KEY)).toBeUndefined();
  });

  it('forgets keys another process may have taken from', () => {
    const known = new KnownCalls();
    known.read('a', 0, call(1, 100), [call(1, 100)]);
    known.read('b', 0, call(1, 100), [call(1, 100)]);
    known.forget(['a']);
    expect(known.ends('a', 0)).toBeUndefined();
    expect(known.ends('b', 0)).toMatchObject({ known: true });
  });
});
