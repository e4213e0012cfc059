import type { Express } from 'express';
import { listReports, listReviews } from '../../operator/moderation.js';
import { html } from '../../views/html.js';
import { operatorOnly, renderOperatorPage } from '../operator-pages.js';
import type { PageDeps } from '../request.js';
import { moderationLists } from './admin-entries.js';

/**
 * The operator's moderation page, `/admin`: open reports (each marked whether it counts towards flagging, as
 * `reports list` marks them) and open review requests, oldest first, read by the operator layer as the CLI reads
 * them. Each names its link, which leads to the page that flags, disables and restores it.
 */
export function adminModerationPages(app: Express, deps: PageDeps): void {
  const { store, clock } = deps.ctx;

  app.get(
    '/admin',
    operatorOnly(deps, async (_req, res) => {
      const { reports } = await listReports(store, clock.now());
      const { reviews } = await listReviews(store);
      const lists = await moderationLists(store, reports, reviews);
      renderOperatorPage(
        res,
        200,
        'Moderation',
        '/admin',
        html`<h1>Moderation</h1>
<p>Restoring a link resolves its open reports and review requests. Reports of people not yet established are kept
but do not count towards flagging.</p>
<h2>Open reports (${reports.length})</h2>
${lists.reports}
<h2>Open review requests (${reviews.length})</h2>
${lists.reviews}`,
      );
    }),
  );
}
