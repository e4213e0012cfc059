import { describe, expect, it } from 'vitest';
import { clicksChart, dayName, yTicks } from '../../src/views/clicks-chart.js';

describe('the clicks chart', () => {
  it.each([
    [0, [0, 1, 2, 3, 4]],
    [1, [0, 1]],
    [3, [0, 1, 2, 3]],
    [7, [0, 2, 4, 6, 8]],
    [40, [0, 10, 20, 30, 40]],
    [41, [0, 20, 40, 60]],
    [1234, [0, 500, 1000, 1500]],
  ])('a highest day of %d gets round y ticks %j, the top at or above it', (max, ticks) => {
    expect(yTicks(max)).toEqual(ticks);
  });

  it('names days as people say them', () => {
    expect(dayName('2026-11-03')).toBe('3 November');
    expect(dayName('2026-01-31')).toBe('31 January');
  });

  it('draws one named bar a day and escapes nothing it should not', () => {
    const days = [{ date: '2026-11-20', clicks: 1 }, { date: '2026-11-21', clicks: 12 }];
    const drawn = clicksChart(days, { last7: 13, last30: 13 }).text;
    expect(drawn.match(/<g class="bar" /g)).toHaveLength(2);
    expect(drawn).toContain('aria-label="1 click on 20 November"');
    expect(drawn).toContain('<title>12 clicks on 21 November</title>');
    expect(drawn).not.toMatch(/NaN|undefined/);
  });
});
