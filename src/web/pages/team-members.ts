import type { Express, Request, Response } from 'express';
import { signedInOnly, text, type PageDeps } from '../request.js';
import type { SignedIn } from '../../auth/web-sessions.js';
import { teamPage } from './team-page.js';
import { teamNotFound } from '../../domain/team-roles.js';

const NOT_MEMBER = 'That person is not a member of this team.';

/**
 * Leaving a team, removing others from it, making a member an owner. The store judges each on the members as they
 * are within it (domain/team-roles.ts), so the page only says what came of it.
 */
export function teamMemberPages(app: Express, deps: PageDeps): void {
  const { teams } = deps.ctx.store;
  const { teamOf, show } = teamPage(deps);

  async function remove(req: Request, res: Response, me: SignedIn, targetId: string) {
    const team = await teamOf(req, me);
    const removal = await teams.removeMember(team.id, targetId, { personId: me.person.id });
    switch (removal) {
      case 'removed':
        return res.redirect(303, targetId === me.person.id ? '/teams?done=left' : `/teams/${team.id}?done=removed`);
      case 'no_team':
        throw teamNotFound();
      case 'not_member':
        return show(req, res, me, team, 404, { alert: NOT_MEMBER });
      case 'not_owner':
        return show(req, res, me, team, 403, { alert: 'Only an owner of the team may remove others.' });
      case 'last_owner':
        // Only ever oneself: an owner removing another owner leaves at least themselves.
        return show(req, res, me, team, 409, {
          alert: 'You are the only owner of this team, and a team keeps an owner while it exists: make another member an owner first, or delete the team.',
        });
    }
  }

  async function promote(req: Request, res: Response, me: SignedIn) {
    const team = await teamOf(req, me);
    switch (await teams.makeOwner(team.id, text(req, 'person'), { personId: me.person.id })) {
      case 'made':
      case 'already':
        return res.redirect(303, `/teams/${team.id}?done=promoted`);
      case 'no_team':
        throw teamNotFound();
      case 'not_member':
        return show(req, res, me, team, 404, { alert: NOT_MEMBER });
      case 'not_owner':
        return show(req, res, me, team, 403, { alert: 'Only an owner of the team may make others owners.' });
    }
  }

  app.post('/teams/:id/members/remove', signedInOnly(deps, async (req, res, me) => remove(req, res, me, text(req, 'person'))));
  app.post('/teams/:id/members/owner', signedInOnly(deps, async (req, res, me) => promote(req, res, me)));
  app.post('/teams/:id/leave', signedInOnly(deps, async (req, res, me) => remove(req, res, me, me.person.id)));
}
