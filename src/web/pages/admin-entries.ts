import type { Report, ReviewRequest, Store } from '../../store/ports.js';
import { html, when, type Html } from '../../views/html.js';

/**
 * Open reports and review requests as the operator pages list them (all of them on /admin, one link's on its
 * page): each names its link, who and when, whether it counts (reports), and the reason.
 */
export async function moderationLists(store: Store, reports: Report[], reviews: ReviewRequest[]): Promise<{ reports: Html; reviews: Html }> {
  const [someReports, someReviews] = [reports.slice(0, SHOWN), reviews.slice(0, SHOWN)];
  const emails = await emailsOf(store, [...someReports, ...someReviews]);
  const mark = (r: Report) => (r.counts ? html`counts` : html`<strong>not established: does not count</strong>`);
  return {
    reports: list(someReports.map((r) => entry(r, emails, 'reported', mark(r))), reports.length, 'No open reports.', 'reports list'),
    reviews: list(someReviews.map((r) => entry(r, emails, 'asked for a review', null)), reviews.length, 'No open review requests.', 'reviews list'),
  };
}

/** The most entries of each kind a page shows (the oldest, which wait longest); the CLI lists them all. */
const SHOWN = 200;

function list(items: Html[], total: number, none: string, command: string): Html {
  if (items.length === 0) return html`<p class="muted">${none}</p>`;
  const more = total > items.length ? html`<p class="muted">The oldest ${items.length} of ${total}; <code>shortlinks ${command}</code> lists them all.</p>` : html``;
  return html`<ul style="list-style:none;padding:0">${items}</ul>${more}`;
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
