import type { Express, Request } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import { clientLabel } from './consent.js';
import { confirmForm } from '../../views/forms.js';
import { html, when, type Html } from '../../views/html.js';
import { notFound, queryText, render, signedInOnly, type PageDeps } from '../request.js';
import type { Section } from '../../views/nav.js';
import { teamPage } from './team-page.js';

/** A question before a change that cannot be taken back: what goes, and the one form that makes it go. */
interface Question {
  title: string;
  says: Html;
  action: string;
  hidden?: Record<string, string>;
  confirm: string;
  keep: { href: string; label: string };
  section: Section;
}

/**
 * The pages that ask before revoking a token, leaving a team, removing a member and disconnecting an assistant, as
 * deleting a link does (link-delete.ts): the lists link here ("Revoke…"), and only the form on this page posts to
 * the change's own address, which does it (developers.ts, team-members.ts, assistants.ts). Each page shows only
 * what the person may change; anything else is the not-found page.
 */
export function confirmationPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  const { teamOf } = teamPage(deps);

  /** A page at `path` that puts the question `ask` makes, or the not-found page when it makes none. */
  const page = (path: string, ask: (req: Request, me: SignedIn) => Promise<Question | null>) =>
    app.get(
      path,
      signedInOnly(deps, async (req, res, me) => {
        const q = await ask(req, me);
        if (q === null) return notFound(res);
        const { action, confirm, keep, hidden } = q;
        render(
          res,
          200,
          q.title,
          html`<h1>${q.title}</h1>
<div class="card">
${q.says}
${confirmForm({ action, csrf: me.csrf, confirm, keep, ...(hidden ? { hidden } : {}) })}
</div>`,
          q.section,
        );
      }),
    );

  page('/developers/tokens/:id/revoke', async (req, me) => {
    const token = (await ctx.store.tokens.listForPerson(me.person.id)).find((t) => t.id === req.params.id);
    if (!token) return null;
    return {
      title: `Revoke the token “${token.label ?? token.id}”?`,
      says: html`<p>Every script and tool that uses it stops working at once: their calls answer 401
<code>invalid_token</code>. A revoked token never works again; make a new one for what still needs it.</p>`,
      action: '/developers/tokens/revoke',
      hidden: { id: token.id },
      confirm: 'Revoke the token',
      keep: { href: '/developers', label: 'Keep the token' },
      section: 'developers',
    };
  });

  page('/teams/:id/leave', async (req, me) => {
    const team = await teamOf(req, me);
    return {
      title: `Leave the team “${team.name}”?`,
      says: html`<p>You no longer see or change its links, and the tokens you made for it stop working (403
<code>token_record_left</code>) until you rejoin. To come back, a member must invite you again.</p>`,
      action: `/teams/${team.id}/leave`,
      confirm: 'Leave the team',
      keep: { href: `/teams/${team.id}`, label: 'Stay in the team' },
      section: 'teams',
    };
  });

  page('/teams/:id/members/remove', async (req, me) => {
    const team = await teamOf(req, me);
    const member = (await ctx.store.teams.members(team.id)).find((m) => m.personId === queryText(req, 'person'));
    if (!member) return null;
    return {
      title: `Remove ${member.email} from “${team.name}”?`,
      says: html`<p>They no longer see or change the team's links, and the tokens they made for it stop working. They
come back only if a member invites them again.</p>`,
      action: `/teams/${team.id}/members/remove`,
      hidden: { person: member.personId },
      confirm: 'Remove them',
      keep: { href: `/teams/${team.id}`, label: 'Keep them in the team' },
      section: 'teams',
    };
  });

  page('/assistants/revoke', async (req, me) => {
    const grant = (await ctx.store.oauth.grants(me.person.id)).find((g) => g.id === queryText(req, 'grant'));
    if (!grant) return null;
    return {
      title: `Disconnect ${clientLabel({ id: grant.clientId, name: grant.clientName })}?`,
      // Which connection, when one assistant is connected twice (two computers, say).
      says: html`<p>The connection first made ${when(grant.createdAt)}, last used ${when(grant.lastUsedAt)}.</p>
<p>It stops working for you at once: every token it holds ends. To use it again, you sign in from it and allow it
anew.</p>`,
      action: '/assistants/revoke',
      hidden: { grant: grant.id },
      confirm: 'Disconnect',
      keep: { href: '/assistants', label: 'Stay connected' },
      section: 'assistants',
    };
  });
}
