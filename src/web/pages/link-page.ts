import type { Express } from 'express';
import { linkClicks } from '../../tools/link-clicks.js';
import { clicksChart } from '../../views/clicks-chart.js';
import { COPIED_STATUS, copyableAddress } from '../../views/copy-button.js';
import { html, when, type Html } from '../../views/html.js';
import { linkOptionFacts } from '../../views/link-options-fields.js';
import { analyticsSection, pageDays } from '../click-analytics.js';
import { linkOf, shortAddresses } from '../link-of.js';
import { queryText, render, signedInOnly, type PageDeps } from '../request.js';
import { runTool } from '../run-tool.js';
import { SCRIPT_PAGE_CSP, PAGE_SCRIPT_TAG, pageScriptRoute } from './page-script.js';
import { doneNotice, linkActions, stateNote } from './link-actions.js';

/**
 * A link's own page, `/app/links/<code>`: its short addresses (with copy buttons where a script may run), its QR
 * code with PNG and SVG downloads, its destination, note, state, dates and options (its end, click cap, password,
 * tags, whether the query string is passed on), its clicks per day for 30 days, and
 * where its clicks came from over 7, 30 or 90 days (`?days=`, click-analytics.ts). Its actions (edit, delete, ask
 * for a review) are pages of their own (link-actions.ts). It reads through the linkByCode, linkClicks and
 * clickBreakdown tools, so only the link's team sees it; anyone else, and any address that is not a link's code,
 * gets the not-found page.
 */
export function linkPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  pageScriptRoute(app);

  app.get(
    '/app/links/:code',
    signedInOnly(deps, async (req, res, me) => {
      const link = await linkOf(ctx, me, req.params.code as string);
      const clicks = await runTool(ctx, linkClicks, me, { code: link.code });
      const analytics = await analyticsSection(ctx, me, { code: link.code }, pageDays(queryText(req, 'days')));
      const addresses = shortAddresses(link);
      const short = addresses[0]!;
      res.set('Content-Security-Policy', SCRIPT_PAGE_CSP);
      render(
        res,
        200,
        `Link ${short}`,
        html`<p><a href="/app">← Your links</a></p>
<h1>Link <code>${link.code}</code></h1>
${doneNotice(queryText(req, 'done'))}
${stateNote(link)}
${linkActions(link)}
<h2>Short addresses</h2>
<ul class="addresses">${addresses.map(copyableAddress)}</ul>
${COPIED_STATUS}
<dl class="facts">
<div><dt>Destination</dt><dd class="wrap"><a href="${link.destination}" rel="noreferrer">${link.destination}</a></dd></div>
<div><dt>Note</dt><dd class="note">${link.note ?? html`<span class="muted">none</span>`}</dd></div>
<div><dt>State</dt><dd>${link.state}</dd></div>
<div><dt>Made</dt><dd>${when(link.createdAt)}</dd></div>
<div><dt>Last changed</dt><dd>${when(link.changedAt)}</dd></div>
${linkOptionFacts(link)}
</dl>
${qrSection(link.code, short)}
${clicksChart(clicks.days, clicks)}
${analytics}
${PAGE_SCRIPT_TAG}`,
        'app',
      );
    }),
  );
}

/** The QR code (by code, so it survives renames) with its downloads, both from the existing `/<code>/qr`. */
function qrSection(code: string, short: string): Html {
  return html`<h2>QR code</h2>
<p><img src="/${code}/qr" width="160" height="160" alt="QR code for ${short}"></p>
<p><a href="/${code}/qr?format=png" download="${code}-qr.png">Download PNG</a> · <a href="/${code}/qr" download="${code}-qr.svg">Download SVG</a></p>`;
}
