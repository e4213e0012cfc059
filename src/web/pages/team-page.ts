import type { Request, Response } from 'express';
import { MAX_TEAM_NAME } from '../../domain/account-rules.js';
import { refusalToManage } from '../../domain/team-roles.js';
import type { Member, Team } from '../../store/ports.js';
import { queryText, render, type PageDeps } from '../request.js';
import type { SignedIn } from '../../auth/web-sessions.js';
import { alertBox, buttonForm, csrfField, noticeBox, textField, type FieldErrors } from '../../views/forms.js';
import { html, when } from '../../views/html.js';
import { teamToRead } from '../../tools/access.js';
import { callerOf, runTool } from '../run-tool.js';
import { teamTags } from '../../tools/team-tags.js';
import { count } from '../../shared/words.js';
import { analyticsSection, pageDays } from '../click-analytics.js';
import { pendingInvitations } from './invitation-views.js';
import { DOMAIN_NOTICES, domainSection, type DomainFix } from '../../views/team-domains.js';

/** What `?done=` says after a change, on the team's page or the list of teams. */
export const NOTICES: Record<string, string> = {
  invited: 'Invitation made. They join once they accept it on their Teams page, within a week.',
  taken_back: 'Invitation taken back.',
  joined: 'You joined the team.',
  declined: 'Invitation declined.',
  not_open: 'That invitation is not open any more: it was taken back, answered, or is over a week old.',
  removed: 'Removed from the team.',
  promoted: 'They are an owner of the team now.',
  left: 'You left the team. Your tokens for it stop working until you rejoin.',
  made: 'Team made. Invite members by email below.',
  renamed: 'Team renamed.',
  deleted: 'Team deleted, with its links.',
  ...DOMAIN_NOTICES,
};

/** Beside the name field when making or renaming a team. */
export const TEAM_NAME_RULE = `Give the team a name of 1 to ${MAX_TEAM_NAME} characters.`;

/** What the team's page shows again after a refused form: the values typed, messages beside fields, an alert. */
export interface TeamFix {
  name?: string;
  email?: string;
  errors?: FieldErrors;
  alert?: string;
  /** A refused form of the Domains section (team-domains.ts). */
  domains?: DomainFix;
}

/** The team's tags, each with its links, each leading to the dashboard's list of the links carrying it. */
function tagList(team: Team, tags: Array<{ tag: string; links: number }>) {
  if (tags.length === 0) return html``;
  const items = tags.map(
    ({ tag, links }) => html`<li><a href="/app?team=${team.id}&amp;tag=${tag}">${tag}</a> <span class="muted">${count(links, 'link')}</span></li>`,
  );
  return html`<h2>Tags</h2><ul class="tags">${items}</ul>`;
}

/** One team's page and how a request finds its team; shared by the pages that change a team. */
export function teamPage(deps: PageDeps) {
  const { teams, invitations } = deps.ctx.store;

  /** The team, if the person is in it; a 404 for everyone else, so a team's existence does not leak (the tools' rule). */
  function teamOf(req: Request, me: SignedIn): Promise<Team> {
    return teamToRead(deps.ctx, callerOf(me), String(req.params.id ?? ''));
  }

  /**
   * Members and where the team's clicks came from (`?days=`, with its CSV download) for everyone in the team;
   * renaming and deleting for its owners (the store checks again).
   */
  async function show(req: Request, res: Response, me: SignedIn, team: Team, status = 200, fix: TeamFix = {}) {
    const members = await teams.members(team.id);
    const days = pageDays(queryText(req, 'days'));
    const analytics = await analyticsSection(deps.ctx, me, { team: team.id }, days, `/teams/${team.id}/clicks.csv?days=${days}`);
    const pending = await invitations.ofTeam(team.id, deps.ctx.clock.now());
    const owner = refusalToManage(members, { personId: me.person.id }) === null;
    const rows = members.map((m) => memberRow(team, m, me, owner));
    const { data: tags } = await runTool(deps.ctx, teamTags, me, { team: team.id });
    const domains = await deps.ctx.store.domains.list(team.id);
    const { teamDomains: limit } = await deps.ctx.store.settings.limits();
    render(
      res,
      status,
      team.name,
      html`<h1>${team.name}</h1>${noticeBox(NOTICES[queryText(req, 'done')])}${alertBox(fix.alert)}
<p class="muted">Team id <code>${team.id}</code> · made ${when(team.createdAt)}</p>
<h2>Members</h2>
<table class="stack"><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table>
${pendingInvitations(team, pending, me)}
${tagList(team, tags)}
${domainSection({ team, domains, owner, csrf: me.csrf, limit, publicUrl: deps.ctx.config.publicUrl, fix: fix.domains })}
${linksInAndOut(team, owner)}
<form method="post" action="/teams/${team.id}/members" class="card" novalidate>
<h2 style="margin-top:0">Invite someone</h2>${csrfField(me.csrf)}
${textField({ name: 'email', label: 'Their email', type: 'email', value: fix.email ?? '', error: fix.errors?.email, required: true, hint: 'They join once they accept, on their Teams page, within a week. Emails are not checked here: invite the address they signed up with.' })}
<button type="submit">Invite</button>
</form>
${analytics}
${owner ? ownerForms(team, me, fix) : html``}`,
      'teams',
    );
  }

  /** The team's links in bulk: downloads for everyone in it, an import for its members, its webhooks for its owners. */
  function linksInAndOut(team: Team, owner: boolean) {
    return html`<h2>Links in and out</h2>
<ul>
<li>Download the team's links as <a href="/teams/${team.id}/links.csv" download>CSV</a> or <a href="/teams/${team.id}/links.jsonl" download>JSON lines</a></li>
<li><a href="/teams/${team.id}/import">Import links</a> from Bitly, Shlink, Kutt, YOURLS or a CSV file</li>
${owner ? html`<li><a href="/teams/${team.id}/webhooks">Webhooks</a>: tell other systems when the team's links change</li>` : html``}
</ul>`;
  }

  function ownerForms(team: Team, me: SignedIn, fix: TeamFix) {
    return html`<form method="post" action="/teams/${team.id}/name" class="card" novalidate>
<h2 style="margin-top:0">Rename the team</h2>${csrfField(me.csrf)}
${textField({ name: 'name', label: 'Team name', value: fix.name ?? team.name, error: fix.errors?.name, required: true, maxlength: MAX_TEAM_NAME })}
<button type="submit">Rename team</button>
</form>
<h2>Delete the team</h2>
<p>Deletes the team with all its short links. You are asked to confirm first.</p>
<p><a href="/teams/${team.id}/delete">Delete this team…</a></p>`;
  }

  function memberRow(team: Team, m: Member, me: SignedIn, owner: boolean) {
    const self = m.personId === me.person.id;
    const promote = buttonForm({ action: `/teams/${team.id}/members/owner`, csrf: me.csrf, label: 'Make owner', className: 'quiet', hidden: { person: m.personId }, ariaLabel: `Make owner: ${m.email}` });
    // Leaving and removing ask first (confirmations.ts), as deleting a link does.
    const actions = self
      ? [html`<a href="/teams/${team.id}/leave">Leave team…</a>`]
      : owner
        ? [m.role === 'member' ? promote : html``, html` `, html`<a href="/teams/${team.id}/members/remove?person=${m.personId}" aria-label="Remove: ${m.email}…">Remove…</a>`]
        : [];
    return html`<tr><td data-label="Email" class="wrap">${m.email}${self ? ' (you)' : ''}</td><td data-label="Role">${m.role}</td><td data-label="Since">${when(m.addedAt)}</td><td>${actions}</td></tr>`;
  }

  return { teamOf, show };
}
