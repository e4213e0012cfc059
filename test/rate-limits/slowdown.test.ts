import { describe, expect, it } from 'vitest';
import type { SlowdownRule } from '../../src/support/rate-limiter.js';
import { eachTestWith, LIMITERS } from './limiters.js';

/**
 * The sign-in slowdown's streaks (RateLimiter.startAttempt; docs/behaviour.md "Signing in"), against every
 * implementation: 5 failures free, then each attempt waits twice as long as the one before after the last
 * failure, up to the most; a streak ends after a quiet spell.
 */

const RULE: SlowdownRule = { freeFailures: 5, firstWaitMs: 1_000, maxWaitMs: 900_000, quietMs: 900_000 };
const KEYS = ['email:a@example.com', 'address:192.0.2.1'];

describe.each(LIMITERS)('the sign-in slowdown, %s', (_name, make) => {
  const limiter = eachTestWith(make);

  it('counts 5 attempts free, then makes each wait twice as long as the one before, up to the most', async () => {
    for (let i = 0; i < 5; i++) expect(await limiter().startAttempt(KEYS, RULE, 0)).toBe(0);
    expect(await limiter().startAttempt(KEYS, RULE, 0)).toBe(1_000);
    expect(await limiter().startAttempt(KEYS, RULE, 999)).toBe(1);
    let at = 1_000;
    for (const wait of [2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 900_000, 900_000]) {
      expect(await limiter().startAttempt(KEYS, RULE, at)).toBe(0);
      expect(await limiter().startAttempt(KEYS, RULE, at)).toBe(wait);
      at += wait;
    }
  });

  it('waits for the longest of the keys, and a refused attempt counts for none of them', async () => {
    for (let i = 0; i < 6; i++) await limiter().startAttempt(['email:a'], RULE, 0);
    expect(await limiter().startAttempt(['email:a', 'address:x'], RULE, 500)).toBe(500);
    // The address got nothing from the refusal: its 5 free attempts are all left.
    for (let i = 0; i < 5; i++) expect(await limiter().startAttempt(['email:b', 'address:x'], RULE, 600)).toBe(0);
    expect(await limiter().startAttempt(['email:c', 'address:x'], RULE, 600)).toBe(1_000);
  });

  it('ends a streak after 15 quiet minutes, and not a moment before', async () => {
    for (let i = 0; i < 5; i++) await limiter().startAttempt(KEYS, RULE, 0);
    expect(await limiter().startAttempt(KEYS, RULE, 1_000)).toBe(0);
    // The 6th failure was at 1 s: its streak lasts until 15 minutes after it.
    expect(await limiter().startAttempt(KEYS, RULE, 1_000 + 900_000)).toBe(0);
    expect(await limiter().startAttempt(KEYS, RULE, 1_000 + 900_000)).toBe(4_000);
    for (let i = 0; i < 5; i++) expect(await limiter().startAttempt(KEYS, RULE, 1_000 + 900_000 + 900_001)).toBe(0);
  });

  it('on success ends the email\'s streak and takes the failure counted in advance back from the others', async () => {
    for (let i = 0; i < 5; i++) await limiter().startAttempt(KEYS, RULE, 0);
    await limiter().attemptSucceeded(KEYS[0]!, [KEYS[1]!]);
    // The address has 4 failures left, so one more attempt is free; the email starts again.
    expect(await limiter().startAttempt([KEYS[1]!], RULE, 0)).toBe(0);
    expect(await limiter().startAttempt([KEYS[1]!], RULE, 0)).toBe(1_000);
    for (let i = 0; i < 5; i++) expect(await limiter().startAttempt([KEYS[0]!], RULE, 0)).toBe(0);
  });

  it('forgets a key whose only failure was taken back', async () => {
    await limiter().startAttempt(KEYS, RULE, 0);
    await limiter().attemptSucceeded(KEYS[0]!, [KEYS[1]!]);
    for (let i = 0; i < 5; i++) expect(await limiter().startAttempt([KEYS[1]!], RULE, 0)).toBe(0);
    expect(await limiter().startAttempt([KEYS[1]!], RULE, 0)).toBe(1_000);
  });
});
