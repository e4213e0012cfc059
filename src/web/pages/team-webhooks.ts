import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import { ApiError } from '../../errors.js';
import type { Team, WebhookEndpoint } from '../../store/ports.js';
import { alertBox, confirmForm, noticeBox } from '../../views/forms.js';
import { html, type Html } from '../../views/html.js';
import { addForm, endpointCard, newSecret, type WebhookForm } from '../../views/team-webhooks.js';
import { addWebhook, managedWebhook, removeWebhook, resumeWebhook, sendTestEvent, webhooksOfTeam } from '../../webhooks/manage.js';
import { queryText, render, signedInOnly, text, texts, type PageDeps } from '../request.js';
import { teamPage } from './team-page.js';

/** Deliveries shown under each endpoint. */
const SHOWN_DELIVERIES = 10;

const NOTICES: Record<string, string> = {
  test_sent: 'A test event is on its way; its delivery shows below within a few seconds.',
  resumed: 'The endpoint is active again.',
  removed: 'The endpoint was removed: nothing more is sent to it.',
};

const EMPTY_FORM: WebhookForm = { url: '', events: [], errors: {} };

/**
 * A team's Webhooks page, `/teams/<id>/webhooks`, for its owners (issue 26; docs/behaviour.md "Webhooks"): its
 * endpoints with their latest deliveries, "Send a test event", "Resume" for a paused one, removal (asked first), and
 * the form that adds one, whose secret the answer shows once (never in an address, never again). Each form runs the
 * use case the CLI runs (webhooks/manage.ts); a member who is no owner is refused (403), anyone else finds no team.
 */
export function teamWebhookPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  const { teamOf } = teamPage(deps);
  const manage = { store: ctx.store, destinations: ctx.destinations, random: ctx.domains.random, clock: ctx.clock };
  const path = (team: Team) => `/teams/${team.id}/webhooks`;

  async function show(req: Request, res: Response, me: SignedIn, team: Team, status = 200, extra: { form?: WebhookForm; added?: WebhookEndpoint; alert?: string } = {}) {
    const endpoints = await webhooksOfTeam(manage, team.id, { personId: me.person.id });
    const cards: Html[] = [];
    for (const endpoint of endpoints) cards.push(endpointCard(team, endpoint, await ctx.store.webhooks.recent(endpoint.id, SHOWN_DELIVERIES), me.csrf));
    render(
      res,
      status,
      `Webhooks of ${team.name}`,
      html`<p><a href="/teams/${team.id}">← ${team.name}</a></p>
<h1>Webhooks of “${team.name}”</h1>
${noticeBox(NOTICES[queryText(req, 'done')])}${alertBox(extra.alert)}
${extra.added ? newSecret(extra.added) : html``}
<p>Other systems (a CRM, a chat, a data warehouse) hear of the team's links as they change: each event is POSTed to the addresses below, signed, and tried again for about a day when it fails.</p>
<h2>Endpoints</h2>
${cards.length === 0 ? html`<p>None yet.</p>` : cards}
${addForm(team, me.csrf, extra.form ?? EMPTY_FORM)}`,
      'teams',
    );
  }

  /** The team's page for an owner; a refusal (a member's 403) shows as the alert of a page without the forms. */
  function owners(handler: (req: Request, res: Response, me: SignedIn, team: Team) => Promise<void>) {
    return signedInOnly(deps, async (req, res, me) => {
      const team = await teamOf(req, me);
      try {
        await handler(req, res, me, team);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 403) throw error;
        render(res, 403, `Webhooks of ${team.name}`, html`<p><a href="/teams/${team.id}">← ${team.name}</a></p><h1>Webhooks of “${team.name}”</h1>${alertBox(error.detail)}`, 'teams');
      }
    });
  }

  const by = (me: SignedIn) => ({ personId: me.person.id });

  app.get('/teams/:id/webhooks', owners(async (req, res, me, team) => show(req, res, me, team)));

  app.post(
    '/teams/:id/webhooks',
    owners(async (req, res, me, team) => {
      const form = { url: text(req, 'url'), events: texts(req, 'events') };
      try {
        const added = await addWebhook(manage, { teamId: team.id, ...form }, by(me));
        await show(req, res, me, team, 200, { added });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 403 || error.field === 'team') throw error;
        const field = error.field === 'events' ? 'events' : 'url';
        await show(req, res, me, team, error.status, { form: { ...form, errors: { [field]: error.detail } } });
      }
    }),
  );

  /** A change to one endpoint of this team (another team's is not found here), then back with a notice. */
  function change(action: string, done: string, act: (id: string, me: SignedIn, team: Team) => Promise<unknown>): void {
    app.post(
      `/teams/:id/webhooks/:hook/${action}`,
      owners(async (req, res, me, team) => {
        await act(String(req.params.hook ?? ''), me, team);
        res.redirect(303, `${path(team)}?done=${done}`);
      }),
    );
  }

  change('test', 'test_sent', (id, me, team) => sendTestEvent(manage, id, by(me), team.id));
  change('resume', 'resumed', (id, me, team) => resumeWebhook(manage, id, by(me), team.id));
  change('remove', 'removed', (id, me, team) => removeWebhook(manage, id, by(me), team.id));

  app.get(
    '/teams/:id/webhooks/:hook/remove',
    owners(async (req, res, me, team) => {
      const endpoint = await managedWebhook(manage, String(req.params.hook ?? ''), by(me), team.id);
      render(
        res,
        200,
        `Remove the webhook to ${endpoint.url}?`,
        html`<h1>Remove the webhook to ${endpoint.url}?</h1>
<div class="card">
<p>Nothing more is sent to it, including deliveries still waiting, and its history goes with it. To send there again, add it anew: it gets a new secret.</p>
${confirmForm({ action: `${path(team)}/${endpoint.id}/remove`, csrf: me.csrf, confirm: 'Remove the endpoint', keep: { href: path(team), label: 'Keep it' } })}
</div>`,
        'teams',
      );
    }),
  );
}
