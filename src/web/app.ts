import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Gate } from '../auth/gate.js';
import { isServicePath } from '../domain/service-paths.js';
import { ApiError, errorCatalogue } from '../errors.js';
import type { ToolContext } from '../tools/define-tool.js';
import { accountPages } from './pages/account.js';
import { accountSettingsPages } from './pages/account-settings.js';
import { accountEmailPages } from './pages/account-email.js';
import { adminBlocklistPages } from './pages/admin-blocklist.js';
import { adminLimitsPages } from './pages/admin-limits.js';
import { adminLinkPages } from './pages/admin-links.js';
import { adminModerationPages } from './pages/admin-moderation.js';
import { adminSettingsPages } from './pages/admin-settings.js';
import { assistantsPage } from './pages/assistants.js';
import { bulkCreatePages } from './pages/bulk-create.js';
import { confirmationPages } from './pages/confirmations.js';
import { dashboardPages } from './pages/dashboard.js';
import { linkPages } from './pages/link-page.js';
import { linkDeletePages } from './pages/link-delete.js';
import { linkEditPages } from './pages/link-edit.js';
import { linkReportPages } from './pages/link-report.js';
import { linkReviewPages } from './pages/link-review.js';
import { faviconRoutes } from './pages/favicon.js';
import { forgotPages } from './pages/forgot.js';
import { developerPages } from './pages/developers.js';
import { teamDeletionPages } from './pages/team-deletion.js';
import { teamInvitationPages } from './pages/team-invitations.js';
import { teamMemberPages } from './pages/team-members.js';
import { teamDomainPages } from './pages/team-domains.js';
import { teamPages } from './pages/teams.js';
import { teamClicksPages } from './pages/team-clicks.js';
import { teamImportPages } from './pages/team-import.js';
import { teamExportPages } from './pages/team-export.js';
import { teamWebhookPages } from './pages/team-webhooks.js';
import { setPasswordPages } from './pages/set-password.js';
import { singleSignOnPages } from './pages/signin-oidc.js';
import { welcomePages } from './pages/welcome.js';
import { PAGE_HEADERS } from '../views/layout.js';
import { notFound, render, signupOffered, type PageDeps } from './request.js';
import type { WebSessions } from '../auth/web-sessions.js';
import { signupModeForHeader } from '../auth/signup-rule.js';
import { html } from '../views/html.js';
import { setRetryAfter } from '../http/retry-after.js';
import { failureOf } from '../http/problem.js';
import { processLog, type Logger } from '../observability/logger.js';

/**
 * The pages people see: the home page, accounts (sign up, sign in, sign out, set a password from a one-time
 * link), the first step (/welcome), the dashboard (/app) and each link's page (/app/links/<code>), teams, the
 * Developers page, the connected assistants page (the consent page is drawn here too, for the authorization
 * server), the operator pages (/admin), the error-code reference that problem `type`s point at, and the
 * not-found page. Server-rendered HTML that works without scripts (the one script, from our origin, only improves
 * them: Copy buttons, the chart's keys); every form is CSRF-checked. `log` is the service's log (app.ts hands in
 * its own), for what a page finds that the operator must hear of.
 */
export function webApp(ctx: ToolContext, app: Express, deps: { sessions: WebSessions; gate: Gate; log?: () => Logger }): Express {
  app.disable('x-powered-by');
  const { publicUrl } = ctx.config;
  const pageDeps: PageDeps = { ctx, sessions: deps.sessions, gate: deps.gate };

  app.use((_req, res, next) => {
    res.set(PAGE_HEADERS);
    next();
  });
  app.use(signupModeForHeader(ctx.store.settings));
  // Only the service's own paths are pages (see service-paths.ts): a route outside them is never reached.
  app.use((req, res, next) => (isServicePath(req.path) ? next() : notFound(res)));
  app.use(express.urlencoded({ extended: false, limit: '64kb' }));
  faviconRoutes(app);

  app.get('/', async (req, res) => {
    const me = await deps.sessions.signedIn(req, res);
    if (me) await deps.gate.count(res, me.person.id);
    const start = me
      ? html`<p><a href="/app">Go to your links</a>.</p>`
      : signupOffered(res)
        ? html`<p><a href="/signin">Sign in</a> or <a href="/signup">make an account</a> to start.</p>`
        : html`<p><a href="/signin">Sign in</a> to start.</p>`;
    render(
      res,
      200,
      'Home',
      html`<h1>shortlinks</h1>
<p>Short links for people, scripts and AI assistants.</p>${start}
<ul>
  <li>Assistants (MCP): <code>${publicUrl}/mcp</code></li>
  <li>HTTP API: <code>${publicUrl}/v1</code>, described at <a href="/v1/openapi.json">/v1/openapi.json</a></li>
  <li><a href="/docs/errors">Error codes</a></li>
</ul>`,
      'home',
    );
  });

  app.get('/docs/errors', (_req, res) => {
    // A narrow screen may break a code name only between its words, after an underscore (the page's CSS would
    // otherwise break it anywhere, as it does long addresses).
    const words = (code: string) => code.split('_').map((word, i) => (i === 0 ? html`${word}` : html`_<wbr>${word}`));
    const rows = errorCatalogue().map(
      ({ code, status, detail }) => html`<tr id="${code}"><td><code class="name">${words(code)}</code></td><td>${status}</td><td>${detail}</td></tr>`,
    );
    render(
      res,
      200,
      'Error codes',
      html`<h1>Error codes</h1><table><thead><tr><th scope="col">code</th><th scope="col">status</th><th scope="col">meaning</th></tr></thead><tbody>${rows}</tbody></table>`,
    );
  });

  accountPages(app, pageDeps);
  if (ctx.config.oidc) singleSignOnPages(app, pageDeps, ctx.config.oidc, deps.log ?? processLog);
  setPasswordPages(app, pageDeps);
  forgotPages(app, pageDeps);
  accountSettingsPages(app, pageDeps);
  accountEmailPages(app, pageDeps);
  welcomePages(app, pageDeps);
  dashboardPages(app, pageDeps);
  // Before the link pages: `/app/links/bulk` is a page, not a code.
  bulkCreatePages(app, pageDeps);
  linkPages(app, pageDeps);
  linkEditPages(app, pageDeps);
  linkDeletePages(app, pageDeps);
  linkReviewPages(app, pageDeps);
  linkReportPages(app, pageDeps);
  teamPages(app, pageDeps);
  teamClicksPages(app, pageDeps);
  teamImportPages(app, pageDeps);
  teamExportPages(app, pageDeps);
  teamWebhookPages(app, pageDeps);
  teamMemberPages(app, pageDeps);
  teamDomainPages(app, pageDeps);
  teamInvitationPages(app, pageDeps);
  teamDeletionPages(app, pageDeps);
  developerPages(app, pageDeps);
  assistantsPage(app, { store: ctx.store.oauth, sessions: deps.sessions, gate: deps.gate });
  confirmationPages(app, pageDeps);
  // The operator pages (/admin): 404 for everyone but operators (operator-pages.ts).
  adminModerationPages(app, pageDeps);
  adminLinkPages(app, pageDeps);
  adminBlocklistPages(app, pageDeps);
  adminLimitsPages(app, pageDeps);
  adminSettingsPages(app, pageDeps);

  app.use((_req, res) => notFound(res));

  // Express 5 hands rejected promises here: a refused form, a team one is not in, too many calls, a body that
  // cannot be read. Each gets a page with its 4xx status; only our own faults answer 500.
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const { status, title, detail, retryAfter } = describe(error);
    setRetryAfter(res, retryAfter);
    render(res, status, title, html`<h1>${title}</h1><p>${detail}</p><p><a href="/">Home</a></p>`);
  });
  return app;
}

function describe(error: unknown): { status: number; title: string; detail: string; retryAfter?: number } {
  if (error instanceof ApiError) {
    const titles: Record<number, string> = { 403: 'Not allowed', 404: 'Not found', 429: 'Too many requests' };
    return { status: error.status, title: titles[error.status] ?? 'Something is wrong', detail: error.detail, retryAfter: error.retryAfter };
  }
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const detail = status === 413 ? 'The form is too large.' : 'The request could not be read.';
    return { status, title: 'Bad request', detail };
  }
  const failed = failureOf(error, {}, 'Web page failed');
  if (failed.status === 503) return { status: 503, title: 'Not available right now', detail: failed.detail, retryAfter: failed.retryAfter };
  return { status: 500, title: 'Something went wrong', detail: 'Something went wrong on our side. Please try again.' };
}
