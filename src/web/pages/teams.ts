import type { Express, Request, Response } from 'express';
import { emailOrNull, MAX_TEAM_NAME, teamNameOrNull } from '../../domain/account-rules.js';
import { apiError } from '../../errors.js';
import { HOUR_MS } from '../../domain/limits.js';
import { addressGroup } from '../../support/address-group.js';
import type { Member, Team } from '../../store/ports.js';
import { queryText, render, signedInOnly, text, type PageDeps } from '../request.js';
import type { SignedIn } from '../../auth/web-sessions.js';
import { alertBox, buttonForm, csrfField, noticeBox, textField, type FieldErrors } from '../../views/forms.js';
import { html, when } from '../../views/html.js';
import { minutesToWait } from '../../views/wait.js';
import { setRetryAfter } from '../../http/retry-after.js';

const NOTICES: Record<string, string> = {
  added: 'Added to the team.',
  removed: 'Removed from the team.',
  left: 'You left the team. Your tokens for it stop working until you rejoin.',
  made: 'Team made. Add members by email below.',
};

/** Teams: make one, see its members, add by email, remove (owners), leave (anyone). Only members see a team. */
export function teamPages(app: Express, deps: PageDeps): void {
  const { ctx, gate } = deps;
  const { teams, people } = ctx.store;
  /**
   * Takes one new team from the address's and the person's allowance in any hour (both, or neither when either is
   * used up); the seconds to wait, or 0. A team is what makes a new account look established (with time), so
   * making them in bulk is kept slow.
   */
  async function waitForTeam(req: Request, me: SignedIn): Promise<number> {
    const limit = (await ctx.store.settings.limits()).teamsPerHour;
    const keys = [[`teams:address:${addressGroup(gate.address(req))}`, limit], [`teams:person:${me.person.id}`, limit]] as const;
    const answers = await gate.rates.takeAll(keys, HOUR_MS, ctx.clock.now().getTime());
    return Math.max(0, ...answers.filter((answer) => !answer.allowed).map((answer) => answer.resetSeconds));
  }

  /** The team, if the person is in it; a 404 for everyone else, so a team's existence does not leak. */
  async function teamOf(req: Request, me: SignedIn): Promise<Team> {
    const id = String(req.params.id ?? '');
    const team = await teams.get(id);
    if (!team || !(await teams.isMember(team.id, me.person.id))) throw apiError.notFound('There is no such team among yours.');
    return team;
  }

  async function list(req: Request, res: Response, me: SignedIn, status = 200, name = '', error?: string, alert?: string) {
    const mine = await teams.listForPerson(me.person.id, { limit: 100, after: null });
    const items = mine.map((t) => html`<li><a href="/teams/${t.id}">${t.name}</a></li>`);
    render(
      res,
      status,
      'Teams',
      html`<h1>Teams</h1>${noticeBox(NOTICES[queryText(req, 'done')])}${alertBox(alert)}
${mine.length ? html`<ul>${items}</ul>` : html`<p>You are in no team yet.</p>`}
<form method="post" action="/teams" class="card" novalidate>
<h2 style="margin-top:0">Make a team</h2>${csrfField(me.csrf)}
${textField({ name: 'name', label: 'Team name', value: name, error, required: true, maxlength: MAX_TEAM_NAME })}
<button type="submit">Make team</button>
</form>`,
      'teams',
    );
  }

  async function show(req: Request, res: Response, me: SignedIn, team: Team, status = 200, fix: { email?: string; errors?: FieldErrors; alert?: string } = {}) {
    const members = await teams.members(team.id);
    const owner = members.some((m) => m.personId === me.person.id && m.role === 'owner');
    const rows = members.map((m) => memberRow(team, m, me, owner));
    render(
      res,
      status,
      team.name,
      html`<h1>${team.name}</h1>${noticeBox(NOTICES[queryText(req, 'done')])}${alertBox(fix.alert)}
<p class="muted">Team id <code>${team.id}</code> · made ${when(team.createdAt)}</p>
<h2>Members</h2>
<table><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table>
<form method="post" action="/teams/${team.id}/members" class="card" novalidate>
<h2 style="margin-top:0">Add a member</h2>${csrfField(me.csrf)}
${textField({ name: 'email', label: 'Their email', type: 'email', value: fix.email ?? '', error: fix.errors?.email, required: true, hint: 'They need an account here first.' })}
<button type="submit">Add member</button>
</form>`,
      'teams',
    );
  }

  function memberRow(team: Team, m: Member, me: SignedIn, owner: boolean) {
    const self = m.personId === me.person.id;
    const action = self
      ? buttonForm({ action: `/teams/${team.id}/leave`, csrf: me.csrf, label: 'Leave team', className: 'danger' })
      : owner
        ? buttonForm({ action: `/teams/${team.id}/members/remove`, csrf: me.csrf, label: 'Remove', className: 'danger', hidden: { person: m.personId }, ariaLabel: `Remove ${m.email}` })
        : html``;
    return html`<tr><td>${m.email}${self ? ' (you)' : ''}</td><td>${m.role}</td><td>${when(m.addedAt)}</td><td>${action}</td></tr>`;
  }

  app.get('/teams', signedInOnly(deps, async (req, res, me) => list(req, res, me)));

  app.post(
    '/teams',
    signedInOnly(deps, async (req, res, me) => {
      const name = teamNameOrNull(text(req, 'name'));
      if (name === null) return list(req, res, me, 400, text(req, 'name'), `Give the team a name of 1 to ${MAX_TEAM_NAME} characters.`);
      const wait = await waitForTeam(req, me);
      if (wait > 0) {
        setRetryAfter(res, wait);
        const alert = `Too many teams were made from your network or your account in the last hour. Try again in ${minutesToWait(wait)}.`;
        return list(req, res, me, 429, name, undefined, alert);
      }
      const team = await teams.add({ name, ownerId: me.person.id }, ctx.clock.now());
      res.redirect(303, `/teams/${team.id}?done=made`);
    }),
  );

  app.get('/teams/:id', signedInOnly(deps, async (req, res, me) => show(req, res, me, await teamOf(req, me))));

  app.post(
    '/teams/:id/members',
    signedInOnly(deps, async (req, res, me) => {
      const team = await teamOf(req, me);
      const raw = text(req, 'email');
      const email = emailOrNull(raw);
      const person = email === null ? null : await people.findByEmail(email);
      if (!person) {
        const message = email === null ? 'Enter an email address, like name@example.com.' : 'No one has an account with this email.';
        return show(req, res, me, team, 400, { email: raw, errors: { email: message } });
      }
      if (!(await teams.addMember(team.id, person.id, ctx.clock.now()))) {
        return show(req, res, me, team, 409, { email: raw, errors: { email: 'They already are a member.' } });
      }
      res.redirect(303, `/teams/${team.id}?done=added`);
    }),
  );

  app.post(
    '/teams/:id/members/remove',
    signedInOnly(deps, async (req, res, me) => {
      const team = await teamOf(req, me);
      const members = await teams.members(team.id);
      const target = members.find((m) => m.personId === text(req, 'person'));
      if (!target) return show(req, res, me, team, 404, { alert: 'That person is not a member of this team.' });
      const iOwn = members.some((m) => m.personId === me.person.id && m.role === 'owner');
      if (target.personId !== me.person.id && !iOwn) {
        return show(req, res, me, team, 403, { alert: 'Only an owner of the team may remove others.' });
      }
      return leaveOrRemove(req, res, me, team, members, target);
    }),
  );

  app.post(
    '/teams/:id/leave',
    signedInOnly(deps, async (req, res, me) => {
      const team = await teamOf(req, me);
      const members = await teams.members(team.id);
      return leaveOrRemove(req, res, me, team, members, members.find((m) => m.personId === me.person.id)!);
    }),
  );

  async function leaveOrRemove(req: Request, res: Response, me: SignedIn, team: Team, members: Member[], target: Member) {
    const owners = members.filter((m) => m.role === 'owner');
    if (target.role === 'owner' && owners.length === 1 && members.length > 1) {
      const alert = 'You are the only owner: remove the other members before leaving.';
      return show(req, res, me, team, 409, { alert });
    }
    await teams.removeMember(team.id, target.personId);
    const self = target.personId === me.person.id;
    res.redirect(303, self ? '/teams?done=left' : `/teams/${team.id}?done=removed`);
  }
}
