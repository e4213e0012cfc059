import type { Express, Request, Response } from 'express';
import { MAX_TEAM_NAME, teamNameOrNull } from '../../domain/account-rules.js';
import { HOUR_MS } from '../../domain/limits.js';
import { nextField, nextOf, queryText, render, signedInOnly, text, type PageDeps } from '../request.js';
import type { SignedIn } from '../../auth/web-sessions.js';
import { alertBox, csrfField, noticeBox, textField } from '../../views/forms.js';
import { html } from '../../views/html.js';
import { timeToWait } from '../../shared/words.js';
import { setRetryAfter } from '../../http/retry-after.js';
import { NOTICES, TEAM_NAME_RULE, teamPage } from './team-page.js';
import { teamNotFound } from '../../domain/team-roles.js';
import { teamsOf } from '../teams-of.js';
import { invitationList } from './invitation-views.js';

/**
 * Teams: make one, see its members and the invitations to it, rename (owners). Only members see a team. Leaving,
 * removing, deleting and invitations have pages of their own (team-members.ts, team-deletion.ts,
 * team-invitations.ts).
 */
export function teamPages(app: Express, deps: PageDeps): void {
  const { ctx, gate } = deps;
  const { teams, invitations } = ctx.store;
  const { teamOf, show } = teamPage(deps);
  /**
   * Takes one new team from the address's and the person's allowance in any hour (both, or neither when either is
   * used up); the seconds to wait, or 0. A team is what makes a new account look established (with time), so
   * making them in bulk is kept slow.
   */
  async function waitForTeam(req: Request, me: SignedIn): Promise<number> {
    const limit = (await ctx.store.settings.limits()).teamsPerHour;
    const keys = [[`teams:address:${gate.addressKey(req)}`, limit], [`teams:person:${me.person.id}`, limit]] as const;
    const answers = await gate.rates.takeAll(keys, HOUR_MS, ctx.clock.now().getTime());
    return Math.max(0, ...answers.filter((answer) => !answer.allowed).map((answer) => answer.resetSeconds));
  }

  async function list(req: Request, res: Response, me: SignedIn, status = 200, name = '', error?: string, alert?: string) {
    const mine = await teamsOf(ctx.store, me.person.id);
    const items = mine.map((t) => html`<li><a href="/teams/${t.id}">${t.name}</a></li>`);
    const invited = await invitations.forEmail(me.person.email, ctx.clock.now());
    // Where the first step goes on to (welcome.ts), kept through making a team or accepting an invitation.
    const next = nextOf(req);
    const noTeam = html`<p>You are in no team yet. Make one${invited.length ? html`, or accept an invitation above,` : html``} to start making short links.${
      next ? html` Or <a href="${next}">go on without a team</a>.` : html``
    }</p>`;
    render(
      res,
      status,
      'Teams',
      html`<h1>Teams</h1>${noticeBox(NOTICES[queryText(req, 'done')])}${alertBox(alert)}
${invited.length ? invitationList(invited, me, next) : html``}
${mine.length ? html`<ul>${items}</ul>` : noTeam}
<form method="post" action="/teams" class="card" novalidate>
<h2 style="margin-top:0">Make a team</h2>${csrfField(me.csrf)}${nextField(next)}
${textField({ name: 'name', label: 'Team name', value: name, error, required: true, maxlength: MAX_TEAM_NAME })}
<button type="submit">Make team</button>
</form>`,
      'teams',
    );
  }

  app.get('/teams', signedInOnly(deps, async (req, res, me) => list(req, res, me)));

  app.post(
    '/teams',
    signedInOnly(deps, async (req, res, me) => {
      const name = teamNameOrNull(text(req, 'name'));
      if (name === null) return list(req, res, me, 400, text(req, 'name'), TEAM_NAME_RULE);
      const wait = await waitForTeam(req, me);
      if (wait > 0) {
        setRetryAfter(res, wait);
        const alert = `Too many teams were made from your network or your account in the last hour. Try again in ${timeToWait(wait)}.`;
        return list(req, res, me, 429, name, undefined, alert);
      }
      const team = await teams.add({ name, ownerId: me.person.id }, ctx.clock.now());
      res.redirect(303, nextOf(req) ?? `/teams/${team.id}?done=made`);
    }),
  );

  app.get('/teams/:id', signedInOnly(deps, async (req, res, me) => show(req, res, me, await teamOf(req, me))));

  app.post(
    '/teams/:id/name',
    signedInOnly(deps, async (req, res, me) => {
      const team = await teamOf(req, me);
      const raw = text(req, 'name');
      const name = teamNameOrNull(raw);
      if (name === null) return show(req, res, me, team, 400, { name: raw, errors: { name: TEAM_NAME_RULE } });
      const renamed = await teams.rename(team.id, name, { personId: me.person.id });
      if (renamed === 'no_team') throw teamNotFound();
      if (renamed === 'not_owner') return show(req, res, me, team, 403, { alert: 'Only an owner of the team may rename it.' });
      res.redirect(303, `/teams/${team.id}?done=renamed`);
    }),
  );
}
