import type { Express } from 'express';
import { clicksCsv, teamClicks } from '../../operator/clicks-export.js';
import { PAGE_HEADERS } from '../../views/layout.js';
import { pageDays } from '../click-analytics.js';
import { queryText, signedInOnly, type PageDeps } from '../request.js';
import { teamPage } from './team-page.js';

/**
 * `/teams/<id>/clicks.csv?days=N`: the team's counted clicks and visitors per link and day as a CSV download, the
 * very file `shortlinks clicks export` prints, over the days the team's page shows. Members only: anyone else gets
 * the not-found page, as for the team's page.
 */
export function teamClicksPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  const { teamOf } = teamPage(deps);

  app.get(
    '/teams/:id/clicks.csv',
    signedInOnly(deps, async (req, res, me) => {
      const team = await teamOf(req, me);
      const base = (await ctx.domains.directory.addresses())(team.id);
      const clicks = await teamClicks(ctx.store, team.id, pageDays(queryText(req, 'days')), ctx.clock.now(), base);
      res.set({
        'Cache-Control': PAGE_HEADERS['Cache-Control']!,
        'X-Content-Type-Options': PAGE_HEADERS['X-Content-Type-Options']!,
        'Content-Type': 'text/csv; charset=utf-8',
        // Team ids are letters, digits and `_` (ids.ts): safe in the header as they are.
        'Content-Disposition': `attachment; filename="${team.id}-clicks-${clicks.from}-to-${clicks.to}.csv"`,
      });
      res.status(200).send(clicksCsv(clicks));
    }),
  );
}
