import { describe, expect, it } from 'vitest';
import { checkExpiresAt, checkPassword, checkTags } from '../../src/domain/link-options.js';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const codeOf = (check: () => unknown) => {
  try {
    check();
    return 'accepted';
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('checkExpiresAt', () => {
  it.each([
    ['Z, answered as UTC with milliseconds', '2027-01-31T18:00:00Z', '2027-01-31T18:00:00.000Z'],
    ['an offset', '2027-01-31T19:00:00+01:00', '2027-01-31T18:00:00.000Z'],
    ['fractions of a second', '2027-01-31T18:00:00.5-00:30', '2027-01-31T18:30:00.500Z'],
    ['a leap day', '2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
  ])('%s', (_what, sent, stored) => {
    expect(checkExpiresAt(sent, NOW)).toBe(stored);
  });

  it.each([
    ['February 30th', '2027-02-30T12:00:00Z'],
    ['April 31st', '2027-04-31T12:00:00Z'],
    ['a leap day of a year without one', '2027-02-29T12:00:00Z'],
    ['24:00', '2027-01-31T24:00:00Z'],
    ['minute 60', '2027-01-31T12:60:00Z'],
    ['second 60', '2027-01-31T12:00:60Z'],
    ['month 13', '2027-13-01T12:00:00Z'],
    ['day 0', '2027-01-00T12:00:00Z'],
    ['an offset past a day', '2027-01-31T12:00:00+24:00'],
    ['no offset', '2027-01-31T12:00:00'],
    ['a date alone', '2027-01-31'],
    ['a number as text', '1800000000000'],
    ['now', NOW.toISOString()],
  ])('%s: invalid_expiry', (_what, sent) => {
    expect(codeOf(() => checkExpiresAt(sent, NOW))).toBe('invalid_expiry');
  });
});

describe('checkPassword', () => {
  it.each([
    ['a C0 control', 'pass\u0007word-long'],
    ['a C1 control', 'pass\u0085word-long'],
    ['a right-to-left override', 'pass\u202eword-long'],
  ])('%s: invalid_password', (_what, password) => {
    expect(codeOf(() => checkPassword(password))).toBe('invalid_password');
  });

  it('takes spaces, punctuation and letters of any script', () => {
    expect(checkPassword('открой сезам, 42!')).toBe('открой сезам, 42!');
  });
});

describe('checkTags', () => {
  it('keeps each tag once, sorted; names the first bad one', () => {
    expect(checkTags(['b', 'a', 'b'])).toEqual(['a', 'b']);
    expect(() => checkTags(['ok', 'Not-ok'])).toThrow(expect.objectContaining({ code: 'invalid_tag', field: 'tags[1]' }));
    expect(() => checkTags([''])).toThrow(expect.objectContaining({ code: 'invalid_tag', field: 'tags[0]' }));
  });
});
