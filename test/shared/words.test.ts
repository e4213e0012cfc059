import { describe, expect, it } from 'vitest';
import { count, timeToWait } from '../../src/shared/words.js';

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
