import type { Express } from 'express';
import { listReports, listReviews } from '../../cli/moderation.js';
import type { Report, ReviewRequest, Store } from '../../store/ports.js';
import { html, when, type Html } from '../../views/html.js';
import { commandArgs, operatorOnly, renderOperatorPage } from '../operator-pages.js';
import type { PageDeps } from '../request.js';

/**
 * The operator's moderation page, `/admin`: open reports (each marked whether it counts towards flagging, as
 * `reports list` marks them) and open review requests, oldest first, read by the CLI's own functions. Each names
 * its link, which leads to the page that flags, disables and restores it.
 */
export function adminModerationPages(app: Express, deps: PageDeps): void {
  const { store, clock } = deps.ctx;

  app.get(
    '/admin',
    operatorOnly(deps, async (_req, res) => {
      const { reports } = await listReports(commandArgs(), store, clock.now());
      const { reviews } = await listReviews(commandArgs(), store);
      const emails = await emailsOf(store, [...reports, ...reviews]);
      const reportItems = reports.map((r) => entry(r, emails, 'reported', r.counts ? html`counts` : html`<strong>not established: does not count</strong>`));
      const reviewItems = reviews.map((r) => entry(r, emails, 'asked for a review', html``));
      renderOperatorPage(
        res,
        200,
        'Moderation',
        '/admin',
        html`<h1>Moderation</h1>
<p>Restoring a link resolves its open reports and review requests. Reports of people not yet established are kept
but do not count towards flagging.</p>
<h2>Open reports (${reports.length})</h2>
${reports.length ? html`<ul style="list-style:none;padding:0">${reportItems}</ul>` : html`<p class="muted">No open reports.</p>`}
<h2>Open review requests (${reviews.length})</h2>
${reviews.length ? html`<ul style="list-style:none;padding:0">${reviewItems}</ul>` : html`<p class="muted">No open review requests.</p>`}`,
      );
    }),
  );
}

/** One report or review request as a list item (not a table row: it stays within a phone's width). */
function entry(e: ReviewRequest, emails: Map<string, string>, verb: string, mark: Html): Html {
  const who = emails.get(e.personId) ?? e.personId;
  return html`<li class="card" style="overflow-wrap:anywhere"><a href="/admin/links?code=${e.linkCode}"><code>${e.linkCode}</code></a>
${verb} by ${who} on ${when(e.createdAt)}${mark.text ? html` · ${mark}` : html``}
<br>${e.reason === null ? html`<span class="muted">No reason given.</span>` : html`Reason: “${e.reason}”`}</li>`;
}

/** The reporters' emails, each read once: the operator knows people by email, the CLI prints their ids. */
async function emailsOf(store: Store, entries: Array<Report | ReviewRequest>): Promise<Map<string, string>> {
  const ids = [...new Set(entries.map((e) => e.personId))];
  const people = await Promise.all(ids.map((id) => store.people.get(id)));
  return new Map(people.flatMap((p) => (p ? [[p.id, p.email] as const] : [])));
}
