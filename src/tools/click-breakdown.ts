import { z } from 'zod';
import { codeParam, teamParam } from './schemas.js';
import { defineTool, type ToolContext } from './define-tool.js';
import { linkToRead, teamToRead } from './access.js';
import { apiError } from '../errors.js';
import {
  BREAKDOWN_BY,
  BREAKDOWN_DAYS,
  BREAKDOWN_ROWS,
  DIRECT,
  foldOther,
  THIS_SERVICE,
  UNCOUNTED_CLASSES,
  UNKNOWN,
  type ClickFacet,
  type UncountedClass,
} from '../domain/analytics.js';
import { lastDays } from '../domain/days.js';
import { shortLinkOf } from '../domain/short-link.js';
import type { AnalyticsScope, DayTotal, Ranked } from '../store/ports.js';

const rowSchema = z.object({
  value: z.string().meta({
    description: "What the clicks share: a country's code, a host, a family, a date, a link's code; `other` sums the rest.",
  }),
  label: z.string().meta({ description: 'The value in words, for a person.' }),
  clicks: z.number().int(),
  share: z.number().meta({ description: 'Of all counted clicks in the days, 0 to 1, 4 decimals.' }),
  visitors: z.number().int().optional().meta({ description: 'Estimated unique visitors: only when `by` is visitor or link.' }),
});

type Row = z.output<typeof rowSchema>;

export const clickBreakdown = defineTool({
  name: 'clickBreakdown',
  operation: 'clickBreakdown',
  title: 'Where clicks come from',
  description:
    `Counted clicks of one link (\`code\`) or of all a team's links (\`team\`) over the last \`days\` UTC dates (1 to ` +
    `${BREAKDOWN_DAYS.max}, default ${BREAKDOWN_DAYS.default}, today last), broken down \`by\`: \`country\` (from the ` +
    'visitor\'s address, `unknown` when not found), `referrer` (the host of the page the visit came from; `direct` when ' +
    'none, `this service` for our own pages), `device` (desktop, phone, tablet, other), `browser` and `os` (by family), ' +
    '`source` (`qr`: a scan of the link\'s QR code, or `link`), `visitor` (estimated unique visitors and clicks per day, ' +
    `oldest first), or \`link\` (a team's links, most clicked first; with \`team\` only). At most ${BREAKDOWN_ROWS} rows, ` +
    'most clicks first, the rest summed as `other`. Bots, link previews, AI assistants fetching a page and link ' +
    'checkers are not counted; `notCounted` gives their requests by class. Nothing that identifies a visitor is stored: ' +
    'only these sums per link and day.',
  input: z.strictObject({
    code: codeParam.optional().meta({ description: `${codeParam.description} For one link's clicks; or send team.` }),
    team: teamParam.optional().meta({ description: "A team, `team_…`, for all its links' clicks; or send code." }),
    by: z.enum(BREAKDOWN_BY).meta({ description: 'What to break the clicks down by; `link` needs `team`.' }),
    days: z
      .number()
      .int()
      .min(BREAKDOWN_DAYS.min)
      .max(BREAKDOWN_DAYS.max)
      .default(BREAKDOWN_DAYS.default)
      .meta({ description: `UTC dates to cover, today last: ${BREAKDOWN_DAYS.min} to ${BREAKDOWN_DAYS.max}.` }),
  }),
  output: z.object({
    by: z.enum(BREAKDOWN_BY),
    days: z.number().int(),
    from: z.string().meta({ format: 'date', description: 'The first date covered (UTC).' }),
    to: z.string().meta({ format: 'date', description: 'The last date covered: today (UTC).' }),
    rows: z.array(rowSchema),
    total: z.object({ clicks: z.number().int(), visitors: z.number().int() }),
    notCounted: z
      .object({ bot: z.number().int(), preview: z.number().int(), assistant: z.number().int(), checker: z.number().int() })
      .meta({ description: 'Requests not counted as clicks, by class, in the same days.' }),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errors: [],
  takesIdempotencyKey: false,
  async run({ code, team, by, days }, caller, ctx) {
    if ((code === undefined) === (team === undefined)) {
      throw apiError.badRequest('Send either code (one link) or team (all its links), not both or neither.');
    }
    if (by === 'link' && code !== undefined) {
      throw apiError.badRequest("by link breaks a team's clicks down by its links: send team instead of code.", 'by');
    }
    const scope: AnalyticsScope =
      code !== undefined ? { linkId: (await linkToRead(ctx, caller, code)).id } : { teamId: (await teamToRead(ctx, caller, team!)).id };
    const dates = lastDays(ctx.clock.now(), days);
    const [from, to] = [dates[0]!, dates.at(-1)!];
    const [totals, perDay, rows] = await Promise.all([
      ctx.store.analytics.totals(scope, from, to),
      ctx.store.analytics.byDay(scope, from, to),
      by === 'visitor' ? null : by === 'link' ? linkRows(ctx, team!, from, to) : facetRows(ctx, scope, by, from, to),
    ]);
    const total = { clicks: totals.clicks, visitors: perDay.reduce((sum, day) => sum + day.visitors, 0) };
    const share = (clicks: number) => (total.clicks === 0 ? 0 : Math.round((clicks / total.clicks) * 10_000) / 10_000);
    const counted = rows ?? series(dates, perDay);
    return {
      by,
      days,
      from,
      to,
      rows: counted.map((row) => ({ ...row, share: share(row.clicks) })),
      total,
      notCounted: Object.fromEntries(UNCOUNTED_CLASSES.map((c) => [c, totals.uncounted[c] ?? 0])) as Record<UncountedClass, number>,
    };
  },
});

/** What clickBreakdown answers, for the pages that draw it. */
export type ClickBreakdown = z.output<(typeof clickBreakdown)['output']>;

/** A row before its share of the total is known. */
type Unshared = Omit<Row, 'share'>;

/** by=visitor: every date of the range, oldest first, days without clicks as 0 (a series, not a ranking). */
function series(dates: string[], perDay: DayTotal[]): Unshared[] {
  const byDay = new Map(perDay.map((day) => [day.day, day]));
  return dates.map((date) => ({ value: date, label: date, clicks: byDay.get(date)?.clicks ?? 0, visitors: byDay.get(date)?.visitors ?? 0 }));
}

/** A facet's values, most clicks first. */
async function facetRows(ctx: ToolContext, scope: AnalyticsScope, facet: ClickFacet, from: string, to: string): Promise<Unshared[]> {
  const ranked = await ctx.store.analytics.byFacet(scope, facet, from, to, BREAKDOWN_ROWS);
  return folded(ranked, (row) => ({ value: row.value, label: labelOf(facet, row.value), clicks: row.clicks }));
}

/** A team's links, most clicks first, each named by its code and short address. */
async function linkRows(ctx: ToolContext, teamId: string, from: string, to: string): Promise<Unshared[]> {
  const ranked = await ctx.store.analytics.byLink(teamId, from, to, BREAKDOWN_ROWS);
  // The links' codes and names in one read; a link deleted since the ranking took its counts with it.
  const links = new Map((await ctx.store.links.findByIds(ranked.rows.map((row) => row.linkId))).map((link) => [link.id, link]));
  // At the team's address: its primary domain, or PUBLIC_URL.
  const base = (await ctx.domains.directory.addresses())(teamId);
  const live = { rows: ranked.rows.filter((row) => links.has(row.linkId)), rest: ranked.rest };
  return folded(live, (row) => {
    const link = links.get(row.linkId)!;
    return { value: link.code, label: shortLinkOf(base, link), clicks: row.clicks, visitors: row.visitors };
  });
}

/**
 * At most BREAKDOWN_ROWS rows: the store ranks that many and sums the rest; past them, the last row answered gives
 * way to `other`, which sums it and the rest, so a caller never gets more rows than the cap.
 */
function folded<R extends { clicks: number }>(ranked: Ranked<R>, row: (r: R) => Unshared): Unshared[] {
  return foldOther(ranked.rows.map(row), BREAKDOWN_ROWS, ranked.rest);
}

const countries = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

// Maps, not objects: a value is the visitor's text (a host, a family), and `constructor` is in every object.
const WORDS: Partial<Record<ClickFacet, Map<string, string>>> = {
  referrer: new Map([[DIRECT, 'Direct'], [THIS_SERVICE, 'This service']]),
  source: new Map([['qr', 'QR code'], ['link', 'Link']]),
};

/** A facet's value in words: a country's English name, a source or a sentinel said plainly, else the value itself. */
function labelOf(facet: ClickFacet, value: string): string {
  if (value === UNKNOWN) return 'Unknown';
  return WORDS[facet]?.get(value) ?? (facet === 'country' ? countryName(value) : value);
}

function countryName(code: string): string {
  try {
    return countries.of(code) ?? code;
  } catch {
    // Not a region code DisplayNames knows the shape of (none is stored, but a label must never fail a call).
    return code;
  }
}
