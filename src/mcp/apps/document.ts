import { createHash } from 'node:crypto';
import { html, raw } from '../../views/html.js';
import { BRIDGE_SCRIPT } from './bridge-script.js';

/** One view: its title, its own styles and the script that draws a tool result (see bridge-script.ts). */
export interface View {
  title: string;
  style: string;
  script: string;
}

/** The extension's revision of the view-host protocol, which the bridge names in ui/initialize. */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/**
 * Colours for light and dark, chosen for 4.5:1 contrast at least. The host's theme (ui/initialize's hostContext)
 * wins over the system's; QR codes stay dark on white in both, which is what scanners read best.
 */
const SHARED_STYLE = `
:root{color-scheme:light;--bg:#ffffff;--fg:#1b1b1f;--muted:#4a4a55;--line:#c9c9d1;--accent:#0b57d0;--accent-fg:#ffffff;--warn:#8a4b00;--bad:#a50e0e;--bar:#0b57d0}
:root[data-theme=dark]{color-scheme:dark;--bg:#1b1b1f;--fg:#ececf1;--muted:#b4b4c0;--line:#4a4a55;--accent:#8ab4f8;--accent-fg:#10131a;--warn:#f2b36b;--bad:#f28b82;--bar:#8ab4f8}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){color-scheme:dark;--bg:#1b1b1f;--fg:#ececf1;--muted:#b4b4c0;--line:#4a4a55;--accent:#8ab4f8;--accent-fg:#10131a;--warn:#f2b36b;--bad:#f28b82;--bar:#8ab4f8}}
*{box-sizing:border-box}
html,body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{padding:12px;max-width:720px}
h1,h2{font-size:1rem;margin:0 0 8px}
p{margin:0 0 8px}
.muted{color:var(--muted)}
.error{color:var(--bad)}
.address{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;overflow-wrap:anywhere;font-weight:600}
.wrap{overflow-wrap:anywhere}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:0 0 8px}
button{font:inherit;font-size:.9rem;padding:6px 12px;border-radius:6px;border:1px solid var(--accent);background:var(--bg);color:var(--accent);cursor:pointer;min-height:32px}
button.primary{background:var(--accent);color:var(--accent-fg)}
button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:8px 0}
dt{color:var(--muted)}
dd{margin:0;overflow-wrap:anywhere;min-width:0}
.state-flagged{color:var(--warn);font-weight:600}
.state-disabled{color:var(--bad);font-weight:600}
.status{min-height:1.45em;color:var(--muted);font-size:.9rem}
`;

/** What a view knows of the server: its public address, and whether its countries come from DB-IP's database. */
export interface ViewFacts {
  publicUrl: string;
  /** Countries are DB-IP's (no GEOIP_DATABASE), whose licence asks for its name beside them. */
  dbIp: boolean;
}

/**
 * A view as the `ui://` resource's HTML: one self-contained document, its styles and script inline, nothing fetched.
 * Its own content security policy allows exactly these two blocks (by hash) and nothing else to load or run, even
 * where a host applied no policy of its own. The server facts in it are the public address, for building short
 * addresses from codes, and whose countries it shows; everything else shown comes from the tool result the host
 * hands over, or from the tools it calls through the host.
 */
export function viewDocument(view: View, facts: ViewFacts): string {
  const config = JSON.stringify({ ...facts, protocolVersion: APPS_PROTOCOL_VERSION }).replace(/</g, '\\u003c');
  const script = `(function(){"use strict";var CONFIG=${config};${BRIDGE_SCRIPT}\n${view.script}\nstart(view);})();`;
  const style = SHARED_STYLE + view.style;
  const policy = [
    "default-src 'none'",
    `script-src '${sha256(script)}'`,
    `style-src '${sha256(style)}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<title>${view.title}</title>
<style>${raw(style)}</style>
</head>
<body>
<main id="view"><p class="muted">Waiting for the result…</p></main>
<script>${raw(script)}</script>
</body>
</html>
`.text;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
