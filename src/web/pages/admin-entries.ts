import type { Report, ReviewRequest, Store } from '../../store/ports.js';
import { html, when, type Html } from '../../views/html.js';

/**
 * Open reports and review requests as the operator pages list them (all of them on /admin, one link's on its
 * page): each names its link, who and when, whether it counts (reports), and the reason.
 */
export async function moderationLists(store: Store, reports: Report[], reviews: ReviewRequest[]): Promise<{ reports: Html; reviews: Html }> {
  const emails = await emailsOf(store, [...reports, ...reviews]);
  const mark = (r: Report) => (r.counts ? html`counts` : html`<strong>not established: does not count</strong>`);
  return {
    reports: list(reports.map((r) => entry(r, emails, 'reported', mark(r))), 'No open reports.'),
    reviews: list(reviews.map((r) => entry(r, emails, 'asked for a review', null)), 'No open review requests.'),
  };
}

function list(items: Html[], none: string): Html {
  return items.length ? html`<ul style="list-style:none;padding:0">${items}</ul>` : html`<p class="muted">${none}</p>`;
}

/** One report or review request as a list item (not a table row: it stays within a phone's width). */
function entry(e: ReviewRequest, emails: Map<string, string>, verb: string, mark: Html | null): Html {
  const who = emails.get(e.personId) ?? e.personId;
  return html`<li class="card" style="overflow-wrap:anywhere"><a href="/admin/links?code=${e.linkCode}"><code>${e.linkCode}</code></a>
${verb} by ${who} on ${when(e.createdAt)}${mark ? html` · ${mark}` : html``}
<br>${e.reason === null ? html`<span class="muted">No reason given.</span>` : html`Reason: “${e.reason}”`}</li>`;
}

/** The reporters' emails, each read once: the operator knows people by email, the CLI prints their ids. */
async function emailsOf(store: Store, entries: Array<Report | ReviewRequest>): Promise<Map<string, string>> {
  const ids = [...new Set(entries.map((e) => e.personId))];
  const people = await Promise.all(ids.map((id) => store.people.get(id)));
  return new Map(people.flatMap((p) => (p ? [[p.id, p.email] as const] : [])));
}
