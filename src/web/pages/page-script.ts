import type { Express } from 'express';
import { html } from '../../views/html.js';
import { PAGE_HEADERS } from '../../views/layout.js';

export const PAGE_SCRIPT_PATH = '/app/scripts/page.js';

/** The page's one script element; a page that has it also sends SCRIPT_PAGE_CSP. */
export const PAGE_SCRIPT_TAG = html`<script src="${PAGE_SCRIPT_PATH}" defer></script>`;

/** The policy of a page with the script: ours, from our origin; still no inline script, no eval. */
export const SCRIPT_PAGE_CSP = `${PAGE_HEADERS['Content-Security-Policy']!}; script-src 'self'`;

/**
 * The web app's only script, an improvement and never a need, served from our own origin so the page's policy can
 * allow exactly it (`script-src 'self'`), with no inline code:
 * - it shows the Copy buttons beside short addresses and a new token (hidden without it, since they could do
 *   nothing) and copies on a click, saying so in a status line (naming a token as `data-copied` says, not by itself);
 * - on a phone-width screen it folds the disclosures marked `data-fold` (the make-link form), so what the page
 *   lists comes first; without it they stay open;
 * - it makes a clicks chart one stop for Tab instead of one a day (the most recent day), the Left and Right arrow
 *   keys, Home and End moving between the days, as a list of options does (with Alt, Ctrl or Meta held they are
 *   the browser's, Alt+Left going back). Without it each day is a stop of its own.
 */
const PAGE_SCRIPT = `'use strict';
(() => {
  const status = document.getElementById('copied');
  for (const button of document.querySelectorAll('button[data-copy]')) {
    if (!navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      const text = button.getAttribute('data-copy') || '';
      try {
        await navigator.clipboard.writeText(text);
        if (status) status.textContent = 'Copied ' + (button.getAttribute('data-copied') || text) + '.';
      } catch {
        if (status) status.textContent = 'Could not copy; select the address instead.';
      }
    });
  }
  if (window.matchMedia('(max-width: 40rem)').matches) {
    for (const details of document.querySelectorAll('details[data-fold]')) details.open = false;
  }
  for (const chart of document.querySelectorAll('.chart svg')) {
    const bars = Array.from(chart.querySelectorAll('.bar'));
    if (bars.length === 0) continue;
    bars.forEach((bar, i) => bar.setAttribute('tabindex', i === bars.length - 1 ? '0' : '-1'));
    chart.addEventListener('keydown', (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const at = bars.indexOf(document.activeElement);
      const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: bars.length - 1 }[event.key];
      if (at < 0 || to === undefined || to < 0 || to >= bars.length) return;
      event.preventDefault();
      bars[at].setAttribute('tabindex', '-1');
      bars[to].setAttribute('tabindex', '0');
      bars[to].focus();
    });
  }
})();
`;

export function pageScriptRoute(app: Express): void {
  app.get(PAGE_SCRIPT_PATH, (_req, res) => {
    // A day of caching, as for the icon: the script changes only with a new version of the service.
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400' }).send(PAGE_SCRIPT);
  });
}
