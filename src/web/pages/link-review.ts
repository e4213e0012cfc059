import { REASON_MAX } from '../../domain/reason.js';
import type { Express } from 'express';
import { askForReview } from '../../tools/ask-for-review.js';
import { alertBox, csrfField, textField } from '../../views/forms.js';
import { html } from '../../views/html.js';
import { linkActionRoutes } from '../link-action-routes.js';
import { render, text, type PageDeps } from '../request.js';
import { runTool } from '../run-tool.js';
import { backToLink } from './link-actions.js';

/**
 * Asking for a review of a flagged link, `/app/links/<code>/review`, through the askForReview tool: an optional
 * reason for the reviewer. Offered on the link's page only while the link is flagged; the tool refuses any other
 * state (409), and its message shows on the form.
 */
export function linkReviewPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;

  linkActionRoutes(app, deps, {
    path: 'review',
    show(req, res, me, link, refusal) {
      // A 409 from the tool: the link stopped being flagged while the form was open, so no form again.
      const notFlagged = link.state !== 'flagged' || refusal?.code === 'conflict';
      const atReason = refusal?.field === 'reason' ? refusal.detail : undefined;
      render(
        res,
        refusal?.status ?? (notFlagged ? 409 : 200),
        `Ask for a review of ${link.code}`,
        html`${backToLink(link)}
<h1>Ask for a review of <code>${link.code}</code></h1>
${alertBox(atReason === undefined ? refusal?.detail : undefined)}
${notFlagged
  ? html`<p class="alert" role="alert">This link is ${link.state}: only a flagged link can be reviewed.</p>`
  : html`<p>The service checks the link, and restores it when it is fine: its destination and name can then change again and visitors no longer see a warning.</p>
<form method="post" action="/app/links/${link.code}/review" class="card" novalidate>
${csrfField(me.csrf)}
${textField({ name: 'reason', label: 'Why the link is fine (optional)', value: text(req, 'reason'), error: atReason, hint: `Up to ${REASON_MAX} characters, for the reviewer.`, maxlength: REASON_MAX })}
<button type="submit">Ask for a review</button>
</form>`}`,
        'app',
      );
    },
    async act(req, me, link) {
      const reason = text(req, 'reason');
      await runTool(ctx, askForReview, me, { code: link.code, reason: reason === '' ? null : reason });
      return `/app/links/${link.code}?done=review`;
    },
  });
}
