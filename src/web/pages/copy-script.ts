import type { Express } from 'express';
import { html } from '../../views/html.js';
import { PAGE_HEADERS } from '../../views/layout.js';

export const COPY_SCRIPT_PATH = '/app/scripts/copy.js';

/** The page's one script element; a page that has it also sends COPY_PAGE_CSP. */
export const COPY_SCRIPT_TAG = html`<script src="${COPY_SCRIPT_PATH}" defer></script>`;

/** The policy of a page with Copy buttons: ours, from our origin; still no inline script, no eval. */
export const COPY_PAGE_CSP = `${PAGE_HEADERS['Content-Security-Policy']!}; script-src 'self'`;

/**
 * The web app's only script, an improvement and never a need: it shows the Copy buttons beside short addresses
 * (hidden without it, since they could do nothing) and copies on a click, saying so in a status line. Served from
 * our own origin so the page's policy can allow exactly it (`script-src 'self'`), with no inline code.
 */
const COPY_SCRIPT = `'use strict';
(() => {
  const status = document.getElementById('copied');
  for (const button of document.querySelectorAll('button[data-copy]')) {
    if (!navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      const text = button.getAttribute('data-copy') || '';
      try {
        await navigator.clipboard.writeText(text);
        if (status) status.textContent = 'Copied ' + text + '.';
      } catch {
        if (status) status.textContent = 'Could not copy; select the address instead.';
      }
    });
  }
})();
`;

export function copyScriptRoute(app: Express): void {
  app.get(COPY_SCRIPT_PATH, (_req, res) => {
    // A day of caching, as for the icon: the script changes only with a new version of the service.
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400' }).send(COPY_SCRIPT);
  });
}
