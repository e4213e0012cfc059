import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import { refusalToManage, type TeamActor } from '../../domain/team-roles.js';
import { addDomain, checkDomainNow, domainOfTeam, orRefused, removeDomain, setDomainRoot, setPrimaryDomain } from '../../domains/manage.js';
import { ApiError } from '../../errors.js';
import type { Team } from '../../store/ports.js';
import { confirmForm } from '../../views/forms.js';
import { html } from '../../views/html.js';
import type { DomainFix } from '../../views/team-domains.js';
import { render, signedInOnly, text, type PageDeps } from '../request.js';
import { teamPage } from './team-page.js';

/** Where a refused form's message goes: beside one of the section's fields, or (null) in the page's alert. */
type Place = (error: ApiError, req: Request) => DomainFix | null;

const inAlert: Place = () => null;

/**
 * The Domains section's forms on the team's page (issue 25; the section itself is views/team-domains.ts): owners
 * add a domain, check it now, remove it (asked first), choose the primary one and set a domain's root. Each runs
 * the use case the CLI runs (domains/manage.ts), which the store judges again; a refusal shows the team's page
 * again with the message beside the field it is about, with the error's own status.
 */
export function teamDomainPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  const { teamOf, show } = teamPage(deps);
  const manage = { store: ctx.store, publicUrl: ctx.config.publicUrl, random: ctx.domains.random, clock: ctx.clock };

  /**
   * Members see the section without forms: whatever one posts is refused (403) before anything in it is read, so
   * an owner's rule is never answered with a mistake in the domain's name, and no DNS lookup runs for them.
   */
  async function ownerOf(team: Team, by: TeamActor): Promise<void> {
    const refusal = refusalToManage(await ctx.store.teams.members(team.id), by);
    if (refusal) orRefused(refusal);
  }

  /** The domain the address names, within the page's team: another team's is no domain here (404). */
  const target = (req: Request, team: Team) => ({ domain: String(req.params.domain ?? ''), teamId: team.id });

  /**
   * Runs `work` for the team's page; a refusal (an ApiError) shows the page again with its status, the message where
   * `place` says or in the alert. A team gone meanwhile is the not-found page, as for every team page.
   */
  async function refusedShown(req: Request, res: Response, me: SignedIn, team: Team, place: Place, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof ApiError) || error.field === 'team') throw error;
      const domains = place(error, req);
      await show(req, res, me, team, error.status, domains ? { domains } : { alert: error.detail });
    }
  }

  /** A change by an owner: `act` answers the `?done=` notice to redirect with. */
  function change(path: string, place: Place, act: (req: Request, team: Team, by: TeamActor) => Promise<string>): void {
    app.post(
      path,
      signedInOnly(deps, async (req, res, me) => {
        const team = await teamOf(req, me);
        const by = { personId: me.person.id };
        await refusedShown(req, res, me, team, place, async () => {
          await ownerOf(team, by);
          res.redirect(303, `/teams/${team.id}?done=${await act(req, team, by)}`);
        });
      }),
    );
  }

  change(
    '/teams/:id/domains',
    (error, req) => (error.field === 'domain' ? { add: { value: text(req, 'domain'), error: error.detail } } : null),
    async (req, team, by) => {
      await addDomain(manage, { teamId: team.id, domain: text(req, 'domain') }, by);
      return 'domain_added';
    },
  );

  change(
    '/teams/:id/domains/primary',
    (error) => (error.field === 'domain' ? { primary: { error: error.detail } } : null),
    async (req, team, by) => {
      const chosen = text(req, 'domain');
      await setPrimaryDomain(manage, team.id, chosen === '' ? null : chosen, by);
      return chosen === '' ? 'primary_cleared' : 'primary_set';
    },
  );

  change('/teams/:id/domains/:domain/check', inAlert, async (req, team, by) => {
    const checked = await checkDomainNow({ ...manage, lookForProof: ctx.domains.lookForProof }, target(req, team), by);
    return checked.state === 'verified' && checked.problem === null ? 'domain_found' : 'domain_not_found';
  });

  change(
    '/teams/:id/domains/:domain/root',
    (error, req) =>
      error.field === 'rootUrl' ? { root: { domain: String(req.params.domain ?? '').toLowerCase(), value: text(req, 'rootUrl'), error: error.detail } } : null,
    async (req, team, by) => {
      const raw = text(req, 'rootUrl');
      const rootUrl = raw.trim() === '' ? null : raw;
      await setDomainRoot({ store: ctx.store, destinations: ctx.destinations }, target(req, team), rootUrl, by);
      return rootUrl === null ? 'root_cleared' : 'root_set';
    },
  );

  change('/teams/:id/domains/:domain/remove', inAlert, async (req, team, by) => {
    await removeDomain(manage, target(req, team), by);
    return 'domain_removed';
  });

  /** The question before removing: what stops working, and the one form that removes. Owners only, as the form. */
  async function confirmRemoval(req: Request, res: Response, me: SignedIn) {
    const team = await teamOf(req, me);
    await refusedShown(req, res, me, team, inAlert, async () => {
      await ownerOf(team, { personId: me.person.id });
      const domain = await domainOfTeam(ctx, target(req, team));
      const host = new URL(ctx.config.publicUrl).host;
      const primary = domain.primary && domain.state === 'verified' ? html`<p>It is the team's primary domain: the links' addresses go back to ${host}.</p>` : html``;
      render(
        res,
        200,
        `Remove ${domain.domain}?`,
        html`<h1>Remove the domain ${domain.domain} from “${team.name}”?</h1>
<div class="card">
<p>The team's short links stop answering on ${domain.domain} at once, so addresses on it that people already have stop working. The links themselves stay, at ${host} and any other domain of the team.</p>
${primary}
<p>To add it again, you publish a new TXT record: its token changes.</p>
${confirmForm({ action: `/teams/${team.id}/domains/${domain.domain}/remove`, csrf: me.csrf, confirm: 'Remove the domain', keep: { href: `/teams/${team.id}`, label: 'Keep the domain' } })}
</div>`,
        'teams',
      );
    });
  }

  app.get('/teams/:id/domains/:domain/remove', signedInOnly(deps, confirmRemoval));
}
