import { describe, expect, it } from 'vitest';
import { SlidingLog } from '../../src/support/sliding-log.js';

/**
 * What the in-memory sliding log (src/support/sliding-log.ts) spends memory on: a key holds at most its limit of
 * times, and quiet keys are swept.
 */

const MINUTE = 60_000;

describe('the in-memory sliding log', () => {
  it('holds at most `limit` times for a key, however many calls it refuses', () => {
    const log = new SlidingLog();
    for (let i = 0; i < 10_000; i++) log.take('busy', 600, MINUTE, i);
    expect(log.held('busy')).toBe(600);
    log.take('once', 600, MINUTE, 0);
    expect(log.held('once')).toBe(1);
  });

  it('keeps only the newest `limit` times once a limit is lowered', () => {
    const log = new SlidingLog();
    for (let i = 0; i < 10; i++) log.take('k', 10, MINUTE, i);
    log.take('k', 3, MINUTE, 10);
    expect(log.held('k')).toBe(3);
  });

  it('forgets keys whose window emptied, and keeps those still counting', () => {
    const log = new SlidingLog();
    log.take('first', 5, MINUTE, 0); // the first take sweeps (nothing yet) and starts the minute until the next
    for (let i = 0; i < 1_000; i++) log.take(`quiet-${i}`, 5, MINUTE, 1_000);
    log.take('recent', 5, MINUTE, 30_000);
    expect(log.held()).toBe(1_002);
    log.take('late', 5, MINUTE, 61_000);
    expect(log.held()).toBe(2);
    expect(log.held('recent')).toBe(1);
  });
});
