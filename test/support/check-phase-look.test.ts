import { describe, expect, it } from 'vitest';
import { checkPhaseLook } from '../../src/support/check-phase-look.js';

describe('checkPhaseLook', () => {
  it('runs one look for every caller of a turn, after the callers, and a new one for the next turn', async () => {
    let looks = 0;
    const catchUp = checkPhaseLook(() => void (looks += 1));
    const first = catchUp();
    expect(catchUp()).toBe(first);
    expect(looks).toBe(0);
    await first;
    expect(looks).toBe(1);
    const second = catchUp();
    expect(second).not.toBe(first);
    await second;
    expect(looks).toBe(2);
  });

  it('rejects every caller of a turn whose look failed, and looks again for the next', async () => {
    let fail = true;
    const catchUp = checkPhaseLook(() => {
      if (fail) throw new Error('database gone');
    });
    const both = Promise.allSettled([catchUp(), catchUp()]);
    expect((await both).map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(catchUp()).resolves.toBeUndefined();
  });
});
