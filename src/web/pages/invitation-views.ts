import type { SignedIn } from '../../auth/web-sessions.js';
import type { Invitation, Team } from '../../store/ports.js';
import { buttonForm } from '../../views/forms.js';
import { html, when, type Html } from '../../views/html.js';

/**
 * On the Teams page of the person invited: each team that asks them in, with Accept and Decline. Accepting goes on
 * to `next` when the page is a step on the way (welcome.ts).
 */
export function invitationList(invited: readonly Invitation[], me: SignedIn, next: string | null = null): Html {
  const hidden: Record<string, string> = next === null ? {} : { next };
  const rows = invited.map((invitation) => {
    const action = (verb: 'accept' | 'decline', label: string, className: string) =>
      buttonForm({ action: `/teams/${invitation.teamId}/${verb}`, csrf: me.csrf, label, className, hidden, ariaLabel: `${label}: ${invitation.teamName}` });
    const from = invitation.invitedBy === null ? html`` : html` by ${invitation.invitedBy}`;
    return html`<li><strong>${invitation.teamName}</strong> <span class="muted">invited you${from}, ${when(invitation.createdAt)}</span>
${action('accept', 'Accept', '')} ${action('decline', 'Decline', 'quiet')}</li>`;
  });
  return html`<section class="card" aria-labelledby="invitations-heading">
<h2 id="invitations-heading" style="margin-top:0">Invitations</h2>
<p class="muted">Accepting puts you in the team: you see and change its links. Invitations stand for a week.</p>
<ul>${rows}</ul>
</section>`;
}

/** On a team's page: the invitations not yet answered, each with Take back. */
export function pendingInvitations(team: Team, pending: readonly Invitation[], me: SignedIn): Html {
  if (pending.length === 0) return html``;
  const rows = pending.map(
    (invitation) => html`<tr><td data-label="Email" class="wrap">${invitation.email}</td><td data-label="Invited">${when(invitation.createdAt)}${
      invitation.invitedBy === null ? html`` : html` by ${invitation.invitedBy}`
    }</td><td>${buttonForm({
      action: `/teams/${team.id}/invitations/remove`,
      csrf: me.csrf,
      label: 'Take back',
      className: 'quiet',
      hidden: { email: invitation.email },
      ariaLabel: `Take back the invitation of ${invitation.email}`,
    })}</td></tr>`,
  );
  return html`<h2>Invitations not yet accepted</h2>
<table class="stack"><thead><tr><th scope="col">Email</th><th scope="col">Invited</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table>`;
}
