import type { Express, Request, Response } from 'express';
import { refusalToManage, teamNotFound } from '../../domain/team-roles.js';
import type { Team } from '../../store/ports.js';
import { render, signedInOnly, type PageDeps } from '../request.js';
import type { SignedIn } from '../../auth/web-sessions.js';
import { confirmForm } from '../../views/forms.js';
import { count } from '../../shared/words.js';
import { html } from '../../views/html.js';
import { teamPage } from './team-page.js';

const ONLY_OWNERS = 'Only an owner of the team may delete it.';

/**
 * Deleting a team: its owners confirm on a page of its own, which names the team and what goes with it, and only
 * that page's form deletes. The store checks again that the person is an owner when it deletes.
 */
export function teamDeletionPages(app: Express, deps: PageDeps): void {
  const { teams } = deps.ctx.store;
  const { teamOf, show } = teamPage(deps);

  async function confirm(req: Request, res: Response, me: SignedIn, team: Team) {
    const members = await teams.members(team.id);
    if (refusalToManage(members, { personId: me.person.id })) return show(req, res, me, team, 403, { alert: ONLY_OWNERS });
    const links = (await teams.linkCount(team.id)) ?? 0;
    const others = members.length - 1;
    render(
      res,
      200,
      `Delete ${team.name}?`,
      html`<h1>Delete the team “${team.name}”?</h1>
<div class="card">
<p>${links === 0 ? 'The team holds no short links.' : html`Deleting it also deletes <strong>${count(links, 'short link')}</strong>. Deleted links stop redirecting at once, and their codes and names are never issued again.`}</p>
<p>${others === 0 ? 'You are its only member.' : `Its ${count(others, 'other member')} lose${others === 1 ? 's' : ''} access to it.`} Tokens made for it stop working.</p>
<p>This cannot be undone.</p>
${confirmForm({ action: `/teams/${team.id}/delete`, csrf: me.csrf, confirm: `Delete the team and its ${count(links, 'link')}`, keep: { href: `/teams/${team.id}`, label: 'Keep the team' } })}
</div>`,
      'teams',
    );
  }

  app.get('/teams/:id/delete', signedInOnly(deps, async (req, res, me) => confirm(req, res, me, await teamOf(req, me))));

  app.post(
    '/teams/:id/delete',
    signedInOnly(deps, async (req, res, me) => {
      const team = await teamOf(req, me);
      const deleted = await teams.delete(team.id, { personId: me.person.id });
      if (deleted === 'no_team') throw teamNotFound();
      if (deleted === 'not_owner') return show(req, res, me, team, 403, { alert: ONLY_OWNERS });
      res.redirect(303, '/teams?done=deleted');
    }),
  );
}
