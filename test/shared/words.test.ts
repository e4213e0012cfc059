import { describe, expect, it } from 'vitest';
import { clipped, count, someOf, timeToWait } from '../../src/shared/words.js';

describe('count', () => {
  it.each([
    [0, 'links'],
    [1, 'link'],
    [2, 'links'],
  ])('%i link(s): the plural unless one', (n, noun) => {
    expect(count(n, 'link')).toBe(`${n} ${noun}`);
  });
});

describe('timeToWait', () => {
  it.each([
    [0.2, '1 second'],
    [1, '1 second'],
    [59, '59 seconds'],
    [119, '119 seconds'],
    [120, '2 minutes'],
    [121, '3 minutes'],
    [3_540, '59 minutes'],
    [7_199, '120 minutes'],
    [7_200, '2 hours'],
    [86_375, '24 hours'],
  ])('%s s reads "%s", rounded up', (seconds, words) => {
    expect(timeToWait(seconds)).toBe(words);
  });
});

describe('clipped', () => {
  it('keeps text of up to 40 characters whole, and cuts longer text to its first 40 and an ellipsis', () => {
    expect(clipped('x'.repeat(40))).toBe('x'.repeat(40));
    expect(clipped('x'.repeat(100_000))).toBe(`${'x'.repeat(40)}…`);
    expect(clipped('abcdef', 3)).toBe('abc…');
  });

  it('counts characters, not UTF-16 units: an emoji is never cut in half', () => {
    const emoji = '😀'.repeat(40);
    expect(clipped(emoji)).toBe(emoji);
    expect(clipped('😀'.repeat(41))).toBe(`${emoji}…`);
    expect(clipped(`a${'😀'.repeat(3)}`, 2)).toBe('a😀…');
  });
});

describe('someOf', () => {
  it.each([
    [[], ''],
    [['a'], 'a'],
    [['a', 'b'], 'a and b'],
    [['a', 'b', 'c'], 'a, b and c'],
    [['a', 'b', 'c', 'd', 'e'], 'a, b, c and 2 more'],
  ])('%j reads "%s"', (values, words) => {
    expect(someOf(values)).toBe(words);
  });

  it('clips each value it names', () => {
    expect(someOf(['y'.repeat(1_000), 'b'])).toBe(`${'y'.repeat(40)}… and b`);
  });
});
