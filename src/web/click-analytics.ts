import type { SignedIn } from '../auth/web-sessions.js';
import { BREAKDOWN_DAYS, CLICK_FACETS, type BreakdownBy } from '../domain/analytics.js';
import { clickBreakdown } from '../tools/click-breakdown.js';
import type { ToolContext } from '../tools/define-tool.js';
import { clickAnalytics, PAGE_DAYS, showsDbIpAttribution, type Breakdown } from '../views/click-breakdown.js';
import type { Html } from '../views/html.js';
import { runTool } from './run-tool.js';

/** The days a page's `?days=` asks for, when one of PAGE_DAYS; anything else shows the tool's default. */
export function pageDays(raw: string): number {
  const days = Number(raw);
  return (PAGE_DAYS as readonly number[]).includes(days) ? days : BREAKDOWN_DAYS.default;
}

/**
 * A link's (`code`) or a team's (`team`) click analytics for a page, read through the clickBreakdown tool, so a page
 * shows no more than the API answers the same person: every facet and the visitors per day, and a team's top links.
 */
export async function analyticsSection(
  ctx: ToolContext,
  me: SignedIn,
  of: { code: string } | { team: string },
  days: number,
  download?: string,
): Promise<Html> {
  const bys: BreakdownBy[] = ['team' in of ? ['link' as const] : [], CLICK_FACETS, ['visitor' as const]].flat();
  const answers = await Promise.all(bys.map((by) => runTool(ctx, clickBreakdown, me, { ...of, by, days })));
  return clickAnalytics({
    days,
    answers: Object.fromEntries(bys.map((by, i) => [by, answers[i]!])) as Partial<Record<BreakdownBy, Breakdown>>,
    dbIpAttribution: showsDbIpAttribution(ctx.config),
    recording: ctx.config.analytics,
    ...(download === undefined ? {} : { download }),
  });
}
