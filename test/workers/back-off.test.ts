import { describe, expect, it } from 'vitest';
import { RestartBackOff } from '../../src/workers/back-off.js';
import { loadConfig } from '../../src/config.js';

describe('the wait before a worker is started again', () => {
  it('doubles with each unexpected exit within a minute, from 250 ms up to 30 s', () => {
    const backOff = new RestartBackOff();
    const waits = Array.from({ length: 10 }, (_, i) => backOff.next(1_000_000 + i * 100));
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('starts from 250 ms again once the earlier exits are a minute old', () => {
    const backOff = new RestartBackOff();
    expect([backOff.next(0), backOff.next(10_000), backOff.next(20_000)]).toEqual([250, 500, 1000]);
    // At 65 s the exit at 0 s no longer counts; at 140 s none does.
    expect(backOff.next(65_000)).toBe(1000);
    expect(backOff.next(140_000)).toBe(250);
  });
});

describe('WORKERS', () => {
  it('is a whole number from 1 to 64, 1 when unset', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(loadConfig({ WORKERS: '64' }).workers).toBe(64);
    for (const bad of ['0', '65', '-2', '2.5', 'four', '']) {
      expect(() => loadConfig({ WORKERS: bad })).toThrow('Bad configuration: WORKERS: must be a whole number from 1 to 64');
    }
  });
});
