import type { Express } from 'express';
import { emailOrNull } from '../../domain/account-rules.js';
import { HOUR_MS } from '../../domain/limits.js';
import { teamNotFound } from '../../domain/team-roles.js';
import { setRetryAfter } from '../../http/retry-after.js';
import { teamInvitationMessage } from '../../mail/messages/team-invitation.js';
import { timeToWait } from '../../shared/words.js';
import { nextOf, signedInOnly, text, type PageDeps } from '../request.js';
import { teamPage } from './team-page.js';

/** Invitations a person may make in any hour: enough to bring a whole group in, too few to pester anyone with. */
export const INVITATIONS_PER_HOUR = 30;

/**
 * Joining a team takes the person's yes. A member invites an email; the answer is the same whether anyone has an
 * account with it (so the form tells no one which emails have accounts), and the invitation waits on the Teams page
 * of whoever has or makes that account, for a week. They accept or decline it there; members may take it back.
 * (Until now a member added anyone by email at once: any account could be put in any team, even made its owner and
 * left alone with its links, and the form answered which emails had accounts.)
 */
export function teamInvitationPages(app: Express, deps: PageDeps): void {
  const { ctx, gate } = deps;
  const { invitations } = ctx.store;
  const { teamOf, show } = teamPage(deps);
  const now = () => ctx.clock.now();

  app.post(
    '/teams/:id/members',
    signedInOnly(deps, async (req, res, me) => {
      const team = await teamOf(req, me);
      const raw = text(req, 'email');
      const email = emailOrNull(raw);
      if (email === null) return show(req, res, me, team, 400, { email: raw, errors: { email: 'Enter an email address, like name@example.com.' } });
      const allowance = await gate.rates.take(`invitations:person:${me.person.id}`, INVITATIONS_PER_HOUR, HOUR_MS, now().getTime());
      if (!allowance.allowed) {
        setRetryAfter(res, allowance.resetSeconds);
        const alert = `You made ${INVITATIONS_PER_HOUR} invitations in the last hour, as many as an hour allows. Try again in ${timeToWait(allowance.resetSeconds)}.`;
        return show(req, res, me, team, 429, { email: raw, alert });
      }
      const invited = await invitations.invite(team.id, email, me.person.id, now());
      if (invited === 'no_team') throw teamNotFound();
      if (invited === 'member') return show(req, res, me, team, 409, { email: raw, errors: { email: 'They already are a member.' } });
      // Mailed whether or not the address has an account, so the answer stays the same; the mail holds no token.
      if (ctx.config.mail) await ctx.store.mailOutbox.enqueue(teamInvitationMessage(email, team.name, me.person.email, ctx.config.publicUrl), now());
      res.redirect(303, `/teams/${team.id}?done=invited`);
    }),
  );

  app.post(
    '/teams/:id/invitations/remove',
    signedInOnly(deps, async (req, res, me) => {
      const team = await teamOf(req, me);
      await invitations.remove(team.id, text(req, 'email'));
      res.redirect(303, `/teams/${team.id}?done=taken_back`);
    }),
  );

  app.post(
    '/teams/:id/accept',
    signedInOnly(deps, async (req, res, me) => {
      const teamId = String(req.params.id);
      const accepted = await invitations.accept(teamId, me.person.id, me.person.email, now());
      const done = accepted === 'joined' ? (nextOf(req) ?? `/teams/${teamId}?done=joined`) : '/teams?done=not_open';
      res.redirect(303, done);
    }),
  );

  app.post(
    '/teams/:id/decline',
    signedInOnly(deps, async (req, res, me) => {
      await invitations.remove(String(req.params.id), me.person.email);
      res.redirect(303, '/teams?done=declined');
    }),
  );
}
