import type { Express } from 'express';
import { errorCatalogue } from '../errors.js';
import type { ToolContext } from '../tools/define-tool.js';
import { escapeHtml, page } from './layout.js';
import type { WebSessions } from './session.js';
import type { Gate } from '../auth/gate.js';

/**
 * The pages people see. For now: the home page, the error-code reference that problem `type`s point at, a health
 * check, and the not-found page. Sign-in, teams and the Developers page come with the accounts work.
 */
export function webApp(ctx: ToolContext, app: Express, deps: { sessions: WebSessions; gate: Gate }): Express {
  app.disable('x-powered-by');
  const { publicUrl } = ctx.config;

  app.get('/', (_req, res) => {
    res.type('html').send(
      page(
        'shortlinks',
        `<h1>shortlinks</h1>
         <p>Short links for people, scripts and AI assistants.</p>
         <ul>
           <li>Assistants (MCP): <code>${escapeHtml(publicUrl)}/mcp</code></li>
           <li>HTTP API: <code>${escapeHtml(publicUrl)}/v1</code>, described at <a href="/v1/openapi.json">/v1/openapi.json</a></li>
           <li><a href="/docs/errors">Error codes</a></li>
         </ul>`,
      ),
    );
  });

  app.get('/health', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ ok: true });
  });

  app.get('/docs/errors', (_req, res) => {
    const rows = errorCatalogue()
      .map(({ code, status, detail }) => `<tr id="${code}"><td><code>${code}</code></td><td>${status}</td><td>${escapeHtml(detail)}</td></tr>`)
      .join('');
    res.type('html').send(
      page('Error codes', `<h1>Error codes</h1><table><tr><th>code</th><th>status</th><th>meaning</th></tr>${rows}</table>`),
    );
  });

  app.use((_req, res) => {
    res.status(404).type('html').send(page('Not found', '<h1>Not found</h1><p>There is nothing at this address.</p>'));
  });
  return app;
}
