import type { Link } from '../../tools/schemas.js';
import { noticeBox } from '../../views/forms.js';
import { html, type Html } from '../../views/html.js';

/** The way back from an action's page to the link's own page. */
export function backToLink(link: Pick<Link, 'code'>): Html {
  return html`<p><a href="/app/links/${link.code}">← Link ${link.code}</a></p>`;
}

/** What a flagged or disabled link can no longer do, and the way out, before a person tries. */
export function stateNote(link: Pick<Link, 'code' | 'state'>): Html {
  if (link.state === 'flagged') {
    // Reports, the operator or the daily unsafe-site re-check may have flagged it: the note says what, not who.
    return html`<p class="alert">The service flagged this link for review: its destination and name cannot change until the review, and visitors see a warning first. <a href="/app/links/${link.code}/review">Ask for a review</a>.</p>`;
  }
  if (link.state === 'disabled') {
    return html`<p class="alert">The service disabled this link: visitors see that it was turned off, and it cannot be changed, only deleted.</p>`;
  }
  return html``;
}

/**
 * The actions on a link's page, as plain links to pages that work without scripts: edit (not for a disabled link,
 * which takes no change), delete (after a confirmation page), and a review request when the link is flagged.
 */
export function linkActions(link: Pick<Link, 'code' | 'state'>): Html {
  const edit = link.state === 'disabled' ? html`` : html`<li><a href="/app/links/${link.code}/edit">Edit</a></li>`;
  const review = link.state === 'flagged' ? html`<li><a href="/app/links/${link.code}/review">Ask for a review</a></li>` : html``;
  return html`<nav aria-label="Link actions"><ul style="list-style:none;padding:0;margin:1rem 0;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem">
${edit}${review}
<li><a href="/app/links/${link.code}/delete" style="color:var(--bad)">Delete</a></li>
</ul></nav>`;
}

const DONE: Record<string, string> = {
  edited: 'Saved your changes.',
  unchanged: 'Nothing changed: the form held the link as it was.',
  review: 'Asked for a review. The service reviews the link and restores it if it is fine.',
};

/** The notice after an action on the link's page sent the person back to it (post/redirect/get). */
export function doneNotice(done: string): Html {
  return noticeBox(Object.hasOwn(DONE, done) ? DONE[done] : undefined);
}
