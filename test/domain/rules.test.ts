import { describe, expect, it } from 'vitest';
import { generateCode, looksLikeCode } from '../../src/domain/code.js';
import { Cursors } from '../../src/domain/cursor.js';
import { lastDays } from '../../src/domain/days.js';
import { LinkIds } from '../../src/domain/ids.js';
import { checkChangeLimit, checkCreationLimits, creationWindows, DEFAULT_LIMITS, LIFTED_LIMIT } from '../../src/domain/limits.js';
import { checkName } from '../../src/domain/link-name.js';
import { checkNote } from '../../src/domain/note.js';
import { cryptoRandom, type Random } from '../../src/domain/random.js';
import { errorOf } from '../helpers/error-of.js';

describe('names', () => {
  it('accepts 3 to 50 of a-z 0-9 - _ and null', () => {
    expect(checkName('abc')).toBe('abc');
    expect(checkName('a'.repeat(50))).toBe('a'.repeat(50));
    expect(checkName('my-link_2')).toBe('my-link_2');
    expect(checkName(null)).toBeNull();
  });

  it.each(['ab', 'a'.repeat(51), 'Hello', 'has space', 'émoji', 'dot.name', ''])('rejects %j as invalid_name', (name) => {
    const error = errorOf(() => checkName(name, 'links[2].name'));
    expect([error.status, error.code, error.field]).toEqual([400, 'invalid_name', 'links[2].name']);
  });

  it.each(['api', 'mcp', 'oauth', 'admin', 'well-known', 'v10', 'v99', 'welcome'])('rejects %j as reserved_name', (name) => {
    const error = errorOf(() => checkName(name));
    expect([error.status, error.code, error.field]).toEqual([400, 'reserved_name', 'name']);
  });
});

describe('notes', () => {
  it("accepts letters of any script, numbers, spaces and - _ , . ' ( ) & ! ? :", () => {
    const note = "Q3 launch: Ünïcode, naïve (draft) & 'final'! Ready? - yes_1.";
    expect(checkNote(note)).toBe(note);
    expect(checkNote('')).toBe('');
    expect(checkNote(null)).toBeNull();
    expect(checkNote('日本語のメモ')).toBe('日本語のメモ');
    expect(checkNote('é'.repeat(100))).toHaveLength(100);
    // Combining marks after a letter or number: e + U+0301, Devanagari's vowel signs and virama.
    expect(checkNote('caf\u0065\u0301 नमस्ते 1\u20e3')).toBe('caf\u0065\u0301 नमस्ते 1\u20e3');
  });

  it.each(['a'.repeat(101), '<b>', 'line\nbreak', 'tab\there', 'semi;colon', 'emoji 🎉', 'quote "x"', '\u0301\u0301', 'a \u0301', '(\u0301)', '\u0301a'])(
    'rejects %j as invalid_note',
    (note) => {
      const error = errorOf(() => checkNote(note));
      expect([error.status, error.code, error.field]).toEqual([400, 'invalid_note', 'note']);
    },
  );
});

describe('codes', () => {
  it('are 7 characters of A-Z a-z 0-9 with at least one uppercase letter', () => {
    for (let i = 0; i < 2000; i++) {
      const code = generateCode(cryptoRandom);
      expect(code).toMatch(/^[A-Za-z0-9]{7}$/);
      expect(code).toMatch(/[A-Z]/);
      expect(looksLikeCode(code)).toBe(true);
    }
  });

  it('draws again when a draw has no uppercase letter', () => {
    let calls = 0;
    // First draw: bytes mapping to lowercase only; then uppercase.
    const random: Random = { bytes: (n) => Buffer.alloc(n, calls++ === 0 ? 26 : 0) };
    expect(generateCode(random)).toBe('AAAAAAA');
    expect(calls).toBe(2);
  });

  it('never takes a byte that would bias the alphabet', () => {
    let calls = 0;
    const random: Random = { bytes: (n) => Buffer.alloc(n, calls++ === 0 ? 250 : 1) };
    expect(generateCode(random)).toBe('BBBBBBB');
  });
});

describe('link ids', () => {
  it('only grow, also within one millisecond and when the clock steps back', () => {
    const ids = new LinkIds(cryptoRandom);
    const made = [ids.next(1000), ids.next(1000), ids.next(999), ids.next(1001)];
    const sorted = [...made].map((m) => m.id).sort();
    expect(made.map((m) => m.id)).toEqual(sorted);
    expect(made.map((m) => m.createdAt.getTime())).toEqual([1000, 1000, 1000, 1001]);
    expect(made[0]!.id).toMatch(/^link_/);
  });
});

describe('cursors', () => {
  const cursors = new Cursors(Buffer.alloc(32, 7));

  it('round-trip for the same operation and params', () => {
    const next = cursors.make('listLinks', { team: 't', q: null }, 42);
    expect(cursors.read('listLinks', { team: 't', q: null }, next)).toBe(42);
    expect(cursors.read('listLinks', { team: 't', q: null }, null)).toBeNull();
  });

  it.each([
    ['another operation', 'listTeams', { team: 't', q: null }],
    ['other params', 'listLinks', { team: 't', q: 'x' }],
  ])('answer cursor_mismatch for %s', (_, operation, params) => {
    const next = cursors.make('listLinks', { team: 't', q: null }, 42);
    const error = errorOf(() => cursors.read(operation as string, params, next));
    expect([error.status, error.code, error.field]).toEqual([400, 'cursor_mismatch', 'after']);
  });

  it.each(['', 'abc', 'a.b', 'a.b.c', '%%%.$$$'])('answer cursor_mismatch for the forged cursor %j', (after) => {
    expect(errorOf(() => cursors.read('listLinks', {}, after)).code).toBe('cursor_mismatch');
  });

  it('answer cursor_mismatch for a tampered payload or another secret', () => {
    const next = cursors.make('listLinks', {}, 42);
    const [payload, signature] = next.split('.');
    const forged = Buffer.from(JSON.stringify({ o: 'listLinks', p: JSON.parse(Buffer.from(payload!, 'base64url').toString()).p, k: 1 })).toString('base64url');
    expect(errorOf(() => cursors.read('listLinks', {}, `${forged}.${signature}`)).code).toBe('cursor_mismatch');
    expect(errorOf(() => new Cursors(Buffer.alloc(32, 8)).read('listLinks', {}, next)).code).toBe('cursor_mismatch');
  });
});

describe('limits', () => {
  it('counts only the creation windows of limits in force: none the operator lifted', () => {
    expect(creationWindows(DEFAULT_LIMITS)).toEqual({ hour: true, day: true });
    const lifted = { ...DEFAULT_LIMITS, perHour: LIFTED_LIMIT, perDay: LIFTED_LIMIT, firstWeekPerDay: LIFTED_LIMIT };
    expect(creationWindows(lifted)).toEqual({ hour: false, day: false });
    // A team in its first week is held to firstWeekPerDay while it is in force, whatever perDay says.
    expect(creationWindows({ ...lifted, firstWeekPerDay: 10 })).toEqual({ hour: false, day: true });
  });

  const now = new Date('2026-11-21T12:00:00Z');
  const old = new Date('2026-01-01T00:00:00Z');
  const none = { count: 0, oldestAt: null };

  it('team_full at the team size', () => {
    const error = errorOf(() => checkCreationLimits({ live: 25, lastHour: none, lastDay: none }, old, now, DEFAULT_LIMITS));
    expect([error.status, error.code]).toEqual([409, 'team_full']);
  });

  it('limit_reached per hour, with Retry-After until the oldest creation leaves the hour', () => {
    const lastHour = { count: 20, oldestAt: now.getTime() - 3_600_000 + 90_000 };
    const error = errorOf(() => checkCreationLimits({ live: 0, lastHour, lastDay: lastHour }, old, now, DEFAULT_LIMITS));
    expect([error.status, error.code, error.retryAfter]).toEqual([429, 'limit_reached', 90]);
  });

  it('limit_reached per day: 100, or 10 in the first week', () => {
    const lastDay = { count: 10, oldestAt: now.getTime() - 1000 };
    expect(() => checkCreationLimits({ live: 0, lastHour: none, lastDay }, old, now, DEFAULT_LIMITS)).not.toThrow();
    const young = new Date(now.getTime() - 6 * 86_400_000);
    expect(errorOf(() => checkCreationLimits({ live: 0, lastHour: none, lastDay }, young, now, DEFAULT_LIMITS)).code).toBe('limit_reached');
    const full = { count: 100, oldestAt: now.getTime() - 1000 };
    expect(errorOf(() => checkCreationLimits({ live: 0, lastHour: none, lastDay: full }, old, now, DEFAULT_LIMITS)).code).toBe('limit_reached');
  });

  it('limit_reached past 60 changes an hour', () => {
    expect(() => checkChangeLimit({ count: 59, oldestAt: 0 }, now, DEFAULT_LIMITS)).not.toThrow();
    expect(errorOf(() => checkChangeLimit({ count: 60, oldestAt: now.getTime() }, now, DEFAULT_LIMITS)).retryAfter).toBe(3600);
  });

  it('says a limit of one in the singular, and the wait in words a person reads', () => {
    const ones = { ...DEFAULT_LIMITS, maxLinksPerTeam: 1, perHour: 1, changesPerHour: 1 };
    const at = (secondsAgo: number) => ({ count: 1, oldestAt: now.getTime() - secondsAgo * 1000 });
    expect(errorOf(() => checkCreationLimits({ live: 1, lastHour: none, lastDay: none }, old, now, ones)).detail).toBe(
      'The team already holds 1 link; delete one to make room.',
    );
    expect(errorOf(() => checkCreationLimits({ live: 0, lastHour: at(3_599), lastDay: none }, old, now, ones)).detail).toBe(
      "The team made 1 link in the last hour. That is the operator's limit of new links per team per hour. Try again in 1 second.",
    );
    const changes = errorOf(() => checkChangeLimit(at(1_800), now, ones));
    expect([changes.detail, changes.retryAfter]).toEqual(["The team made 1 change in the last hour. That is the operator's limit of changes per team per hour. Try again in 30 minutes.", 1800]);
  });

  it("names the daily limit, not the first week's, when the first week allows as many", () => {
    const young = new Date(now.getTime() - 1000);
    const limits = { ...DEFAULT_LIMITS, perDay: 5, firstWeekPerDay: 10 };
    const lastDay = { count: 5, oldestAt: now.getTime() };
    expect(errorOf(() => checkCreationLimits({ live: 0, lastHour: none, lastDay }, young, now, limits)).detail).toBe(
      "The team made 5 links in the last day. That is the operator's limit of new links per team per day. Try again in 24 hours.",
    );
  });
});

describe('days', () => {
  it('are 30 UTC dates ending today, oldest first', () => {
    const days = lastDays(new Date('2026-03-01T23:30:00-05:00'), 30);
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toBe('2026-03-02');
    expect(days[0]).toBe('2026-02-01');
  });
});
