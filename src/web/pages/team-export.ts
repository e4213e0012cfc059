import { once } from 'node:events';
import type { Express, Response } from 'express';
import { exported, teamLinks, type ExportFormat } from '../../exports/links-export.js';
import { PAGE_HEADERS } from '../../views/layout.js';
import { signedInOnly, type PageDeps } from '../request.js';
import { teamPage } from './team-page.js';

const TYPES: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', jsonl: 'application/jsonl; charset=utf-8' };

/**
 * `/teams/<id>/links.csv` and `/teams/<id>/links.jsonl`: the team's links as a download, the very file
 * `shortlinks export` prints, for its members (anyone else gets the not-found page, as for the team's page).
 * Written as the store pages through the links, each piece waiting for the connection to take the last, and
 * stopped when the person goes away: a team of 100,000 links costs one page of memory.
 */
export function teamExportPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  const { teamOf } = teamPage(deps);

  for (const format of ['csv', 'jsonl'] as const) {
    app.get(
      `/teams/:id/links.${format}`,
      signedInOnly(deps, async (req, res, me) => {
        const team = await teamOf(req, me);
        const base = (await ctx.domains.directory.addresses())(team.id);
        res.status(200).set({
          'Cache-Control': PAGE_HEADERS['Cache-Control']!,
          'X-Content-Type-Options': PAGE_HEADERS['X-Content-Type-Options']!,
          'Content-Type': TYPES[format],
          // Team ids are letters, digits and `_` (ids.ts): safe in the header as they are.
          'Content-Disposition': `attachment; filename="${team.id}-links-${ctx.clock.now().toISOString().slice(0, 10)}.${format}"`,
        });
        await streamed(res, exported(format, teamLinks(ctx.store, team.id, base)));
      }),
    );
  }
}

async function streamed(res: Response, pieces: AsyncIterable<string>): Promise<void> {
  for await (const piece of pieces) {
    if (res.destroyed) return;
    if (!res.write(piece)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  res.end();
}
