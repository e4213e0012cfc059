import type { Express } from 'express';
import { deleteLink } from '../../tools/delete-link.js';
import { alertBox, confirmForm } from '../../views/forms.js';
import { html } from '../../views/html.js';
import { linkActionRoutes } from '../link-action-routes.js';
import { shortAddresses } from '../link-of.js';
import { render, type PageDeps } from '../request.js';
import { runTool } from '../run-tool.js';
import { backToLink } from './link-actions.js';

/**
 * Deleting a link, `/app/links/<code>/delete`: a page names the link, where it leads and what deleting does, and
 * only its form deletes, through the deleteLink tool (so its change limit is the API's). The person lands on the
 * dashboard, which says what was deleted.
 */
export function linkDeletePages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;

  linkActionRoutes(app, deps, {
    path: 'delete',
    show(_req, res, me, link, refusal) {
      const addresses = shortAddresses(link).map((address) => html`<li><code>${address}</code></li>`);
      render(
        res,
        refusal?.status ?? 200,
        `Delete link ${link.code}?`,
        html`${backToLink(link)}
<h1>Delete the link <code>${link.code}</code>?</h1>
${alertBox(refusal?.detail)}
<div class="card">
<p>It leads to <strong style="overflow-wrap:anywhere">${link.destination}</strong>.</p>
<p>These short addresses stop working at once, for everyone who has them, printed QR codes included:</p>
<ul class="addresses">${addresses}</ul>
<p>Its code and name are never issued again. This cannot be undone.</p>
${confirmForm({ action: `/app/links/${link.code}/delete`, csrf: me.csrf, confirm: 'Delete the link', keep: { href: `/app/links/${link.code}`, label: 'Keep the link' } })}
</div>`,
        'app',
      );
    },
    async act(_req, me, link) {
      await runTool(ctx, deleteLink, me, { code: link.code });
      return `/app?deleted=${link.code}`;
    },
  });
}
