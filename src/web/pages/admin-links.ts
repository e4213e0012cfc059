import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import type { LinkState } from '../../domain/link-state.js';
import { ApiError } from '../../errors.js';
import { findLink, linkByCode, setLinkState } from '../../operator/links.js';
import { listReports, listReviews } from '../../operator/moderation.js';
import type { LinkRecord } from '../../store/ports.js';
import { buttonForm, confirmForm, noticeBox, textField } from '../../views/forms.js';
import { html, when, type Html } from '../../views/html.js';
import { operatorOnly, refusal, renderOperatorPage, sentence } from '../operator-pages.js';
import { notFound, queryText, type PageDeps } from '../request.js';
import { moderationLists } from './admin-entries.js';

/** Each action of the page, the state it sets and what the page says after it. */
const ACTIONS = {
  flag: { state: 'flagged', done: 'Link flagged: it shows a warning page before its destination.' },
  disable: { state: 'disabled', done: 'Link disabled: it answers 410 and can no longer be changed.' },
  restore: { state: 'active', done: 'Link restored: it redirects again, and its open reports and review requests are resolved.' },
} as const satisfies Record<string, { state: LinkState; done: string }>;

type Action = keyof typeof ACTIONS;

const isAction = (value: string): value is Action => Object.hasOwn(ACTIONS, value);

/**
 * The operator's links page, `/admin/links`: finds any link by its short address, code or name, shows it, and
 * flags, disables or restores it through the operator layer, as the CLI's `link flag|disable|restore` do
 * (restoring resolves its reports and reviews). Disabling, which stops the link, asks first on a page of its own
 * that names the destination. Every change reaches every process at once: the store tells the others, as it does
 * for the CLI.
 */
export function adminLinkPages(app: Express, deps: PageDeps): void {
  const { store, clock } = deps.ctx;

  async function show(req: Request, res: Response, me: SignedIn) {
    const raw = queryText(req, 'code');
    const found = raw.trim() === '' ? null : await findLink(store, deps.ctx.config.publicUrl, raw).catch((error: unknown) => refusal(error, 'not_found'));
    const link = found instanceof ApiError ? null : found;
    const fault = found instanceof ApiError ? sentence(found.message) : undefined;
    const done = queryText(req, 'done');
    const card = link ? await linkCard(link, me.csrf) : html``;
    renderOperatorPage(
      res,
      fault ? 404 : 200,
      link ? `Link ${link.code}` : 'Links',
      '/admin/links',
      html`<h1>Links</h1>${noticeBox(link && isAction(done) && link.state === ACTIONS[done].state ? ACTIONS[done].done : undefined)}
<form method="get" action="/admin/links" class="card" novalidate>
${textField({ name: 'code', label: 'Short address, code or name of the link', value: raw, error: fault, required: true, hint: `Like ${deps.ctx.config.publicUrl}/aB3dE5f, aB3dE5f or a name.` })}
<button type="submit">Find the link</button>
</form>
${card}`,
    );
  }

  /** The link, its actions, and what stands against it: its open reports and review requests, as on /admin. */
  async function linkCard(link: LinkRecord, csrf: string): Promise<Html> {
    const action = (name: Action, label: string, className: string) =>
      buttonForm({ action: `/admin/links/${link.code}/${name}`, csrf, label, className });
    const buttons = [
      link.state !== 'flagged' ? action('flag', 'Flag', 'quiet') : html``,
      link.state !== 'disabled' ? html` <a href="/admin/links/${link.code}/disable">Disable…</a> ` : html``,
      link.state !== 'active' ? action('restore', 'Restore', 'quiet') : html``,
    ];
    const { reports } = await listReports(store, clock.now(), link.id);
    const { reviews } = await listReviews(store, link.id);
    const lists = await moderationLists(store, reports, reviews);
    return html`<section class="card" aria-labelledby="link-title">
<h2 id="link-title" style="margin-top:0">Link <code>${link.code}</code></h2>
${facts(link)}
<p>${buttons}</p>
<h3>Open reports (${reports.length})</h3>
${lists.reports}
<h3>Open review requests (${reviews.length})</h3>
${lists.reviews}
</section>`;
  }

  function facts(link: LinkRecord): Html {
    const { publicUrl } = deps.ctx.config;
    const row = (term: string, value: Html | string) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`;
    return html`<dl class="facts">
${row('State', link.state)}
${row('Destination', link.destination)}
${row('Short address', html`${publicUrl}/${link.code}${link.name ? html`<br>${publicUrl}/${link.name}` : html``}`)}
${row('Note', link.note ?? html`<span class="muted">none</span>`)}
${row('Team', html`<code>${link.teamId}</code>`)}
${row('Made', when(link.createdAt))}
${row('Changed', when(link.changedAt))}
</dl>`;
  }

  /** A refused action: the operator layer's reason on the page, with its status (an unknown code is 404). */
  function refused(res: Response, error: ApiError) {
    renderOperatorPage(res, error.status, 'Links', '/admin/links', html`<h1>Links</h1><p class="alert" role="alert">${sentence(error.message)}</p><p><a href="/admin/links">Find a link</a></p>`);
  }

  app.get('/admin/links', operatorOnly(deps, show));

  app.get(
    '/admin/links/:code/disable',
    operatorOnly(deps, async (req, res, me) => {
      const link = await linkByCode(store, String(req.params.code)).catch((error: unknown) => refusal(error, 'not_found'));
      if (link instanceof ApiError) return refused(res, link);
      renderOperatorPage(
        res,
        200,
        `Disable ${link.code}?`,
        '/admin/links',
        html`<h1>Disable the link <code>${link.code}</code>?</h1>
<div class="card">
<p>It leads to <strong style="overflow-wrap:anywhere">${link.destination}</strong>.</p>
<p>Once disabled it answers 410 with a page instead of redirecting, at once on every process, and its team can
no longer change it (only delete it). Restoring it undoes this.</p>
${confirmForm({ action: `/admin/links/${link.code}/disable`, csrf: me.csrf, confirm: 'Disable the link', keep: { href: `/admin/links?code=${link.code}`, label: 'Keep it as it is' } })}
</div>`,
      );
    }),
  );

  app.post(
    '/admin/links/:code/:action',
    operatorOnly(deps, async (req, res) => {
      const name = String(req.params.action);
      if (!isAction(name)) return notFound(res);
      try {
        const link = await setLinkState(store, String(req.params.code), ACTIONS[name].state, clock.now());
        res.redirect(303, `/admin/links?code=${encodeURIComponent(link.code)}&done=${name}`);
      } catch (error) {
        refused(res, refusal(error, 'not_found'));
      }
    }),
  );
}
