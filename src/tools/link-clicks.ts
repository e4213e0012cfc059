import { z } from 'zod';
import { codeParam } from './schemas.js';
import { defineTool } from './define-tool.js';
import { linkToRead } from './access.js';
import { CLICK_DAYS, lastDays, RECENT_CLICK_DAYS } from '../domain/days.js';

export const linkClicks = defineTool({
  name: 'linkClicks',
  operation: 'linkClicks',
  title: 'Clicks of a link',
  description:
    `Estimated clicks of one link per day for the last ${CLICK_DAYS} days (UTC dates, oldest first, today last, days without ` +
    `clicks as 0), with totals for ${RECENT_CLICK_DAYS} and ${CLICK_DAYS} days. Bots, link previews and link checkers are not counted.`,
  input: z.strictObject({ code: codeParam }),
  output: z.object({
    days: z.array(z.object({ date: z.string().meta({ format: 'date' }), clicks: z.number().int() })),
    last7: z.number().int(),
    last30: z.number().int(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errors: [],
  takesIdempotencyKey: false,
  view: 'clicks-chart',
  async run({ code }, caller, ctx) {
    const link = await linkToRead(ctx, caller, code);
    const dates = lastDays(ctx.clock.now(), CLICK_DAYS);
    const counted = await ctx.store.clicks.daily(link.id, dates[0]!, dates.at(-1)!);
    const byDay = new Map(counted.map((row) => [row.day, row.clicks]));
    const days = dates.map((date) => ({ date, clicks: byDay.get(date) ?? 0 }));
    const sum = (rows: typeof days) => rows.reduce((total, row) => total + row.clicks, 0);
    return { days, last7: sum(days.slice(-RECENT_CLICK_DAYS)), last30: sum(days) };
  },
});
