import { describe, expect, it } from 'vitest';
import { checkAddress } from '../../src/domain/destination.js';
import { isWellFormedName } from '../../src/domain/link-name.js';
import { checkNote } from '../../src/domain/note.js';
import { checkExpiresAt, checkMaxClicks, checkPassword, checkTags } from '../../src/domain/link-options.js';
import { errorCatalogue, type ErrorCode } from '../../src/errors.js';

/**
 * The error table's default sentences tell people the lengths of a link's fields; the domain's rules enforce them.
 * Each number a sentence states is read back from the sentence and tried on the rule at its edges, so a sentence
 * and a rule that disagree (a number written by hand, a rule changed on its own) fail here.
 */

const detailOf = (code: ErrorCode) => errorCatalogue().find((entry) => entry.code === code)!.detail;

/** The numbers a sentence states, as written ("2,048" is 2048); a digit inside a word ("/v1") is no number. */
const numbersIn = (text: string) =>
  [...text.matchAll(/(?<!\w)\d(?:[\d,]*\d)?/g)].map((match) => Number(match[0].replaceAll(',', '')));

const refused = (check: () => unknown) => {
  try {
    check();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return 'accepted';
};

describe("the numbers in the error table's sentences", () => {
  it('are stated by the sentences checked below and by no other', () => {
    const stating = errorCatalogue().filter((entry) => numbersIn(entry.detail).length > 0).map((entry) => entry.code);
    expect(stating).toEqual([
      'invalid_destination',
      'invalid_name',
      'invalid_note',
      'invalid_expiry',
      'invalid_max_clicks',
      'invalid_password',
      'invalid_tag',
    ]);
  });

  it('invalid_expiry: the furthest ahead the rule accepts, in years', () => {
    const [years] = numbersIn(detailOf('invalid_expiry'));
    const now = new Date('2026-11-28T12:00:00.000Z');
    const ahead = (ms: number) => new Date(Date.UTC(2026 + years!, 10, 28, 12) + ms).toISOString();
    expect(refused(() => checkExpiresAt(ahead(0), now))).toBe('accepted');
    expect(refused(() => checkExpiresAt(ahead(1), now))).toBe('invalid_expiry');
  });

  it('invalid_max_clicks: the least and most the rule accepts', () => {
    const [least, most] = numbersIn(detailOf('invalid_max_clicks'));
    expect([least! - 1, least!, most!, most! + 1].map((n) => refused(() => checkMaxClicks(n)))).toEqual([
      'invalid_max_clicks',
      'accepted',
      'accepted',
      'invalid_max_clicks',
    ]);
  });

  it('invalid_password: the shortest and longest password the rule accepts', () => {
    const [least, most] = numbersIn(detailOf('invalid_password'));
    expect([least! - 1, least!, most!, most! + 1].map((n) => refused(() => checkPassword('p'.repeat(n))))).toEqual([
      'invalid_password',
      'accepted',
      'accepted',
      'invalid_password',
    ]);
  });

  it('invalid_tag: the most tags, and the shortest and longest tag, the rule accepts', () => {
    const [most, shortest, longest] = numbersIn(detailOf('invalid_tag'));
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `tag-${i}`);
    expect(refused(() => checkTags(tags(most!)))).toBe('accepted');
    expect(refused(() => checkTags(tags(most! + 1)))).toBe('invalid_tag');
    const lengths = [shortest! - 1, shortest!, longest!, longest! + 1];
    expect(lengths.map((n) => refused(() => checkTags(['t'.repeat(n)])))).toEqual(['invalid_tag', 'accepted', 'accepted', 'invalid_tag']);
  });

  it('invalid_destination: the longest destination the rule accepts', () => {
    const [most] = numbersIn(detailOf('invalid_destination'));
    const of = (length: number) => `https://example.com/${'a'.repeat(length - 'https://example.com/'.length)}`;
    expect(refused(() => checkAddress(of(most!)))).toBe('accepted');
    expect(refused(() => checkAddress(of(most! + 1)))).toBe('invalid_destination');
  });

  it('invalid_name: the shortest and longest name the rule accepts', () => {
    const [least, most] = numbersIn(detailOf('invalid_name'));
    const lengths = [least! - 1, least!, most!, most! + 1];
    expect(lengths.map((length) => isWellFormedName('a'.repeat(length)))).toEqual([false, true, true, false]);
  });

  it('invalid_note: the longest note the rule accepts', () => {
    const [most] = numbersIn(detailOf('invalid_note'));
    expect(refused(() => checkNote('a'.repeat(most!)))).toBe('accepted');
    expect(refused(() => checkNote('a'.repeat(most! + 1)))).toBe('invalid_note');
  });
});
