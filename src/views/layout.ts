/**
 * The headers of every page the service renders: no scripts, no framing (clickjacking), forms post only here,
 * styles only inline, no sniffing, no caching, the referrer kept on our own origin.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
});

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and attribute values. Every value a page shows goes through this. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Colours meet WCAG AA contrast in both schemes (text over 12:1, links, muted text and messages over 4.5:1, field
 * borders over 3:1); focus is always visible. Every colour is a variable of :root, so the dark scheme (the
 * visitor's system setting) is one block that sets them again, and the clicks chart (clicks-chart.ts) follows.
 */
const STYLE = `
  :root { color-scheme: light dark;
    --fg: #1b1b1f; --bg: #fff; --muted: #4a4a55; --line: #d0d0d7; --rule: #ddd; --field: #767680; --field-bg: #fff; --code-bg: #f2f2f5;
    --accent: #2546c9; --on-accent: #fff; --accent-strong: #14308f; --focus: #1a5fd0; --grid: #e2e2e8;
    --bad: #b3261e; --bad-text: #8c1d18; --bad-bg: #fdf3f2; --good: #1e7a3c; --good-text: #14532d; --good-bg: #f0faf3; }
  @media (prefers-color-scheme: dark) { :root {
    --fg: #e8e8ed; --bg: #121317; --muted: #b4b4c0; --line: #4a4a55; --rule: #34353d; --field: #8e8e99; --field-bg: #1b1c21; --code-bg: #25262c;
    --accent: #9db4ff; --on-accent: #0b1020; --accent-strong: #c8d4ff; --focus: #c8d4ff; --grid: #34353d;
    --bad: #ff8a80; --bad-text: #ffb4ab; --bad-bg: #2a1413; --good: #5cc27d; --good-text: #a6e3b8; --good-bg: #0f2416; } }
  *, *::before, *::after { box-sizing: border-box; }
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 0 auto; padding: 0 1rem 3rem; color: var(--fg); background: var(--bg); }
  header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem; padding: .75rem 0; border-bottom: 1px solid var(--line); margin-bottom: 1.5rem; }
  header .brand { font-weight: 700; color: var(--fg); text-decoration: none; margin-right: auto; }
  header nav ul { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; margin: 0; padding: 0; align-items: center; }
  header nav a[aria-current="page"] { font-weight: 700; text-decoration: none; }
  header .who { color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
  /* The first stop of the keyboard on every page with a menu, seen only while it has the focus. */
  .skip { position: absolute; left: -100vw; }
  .skip:focus { position: static; display: inline-block; margin-top: .5rem; }
  h1 { font-size: 1.6rem; margin: 0 0 1rem; overflow-wrap: anywhere; } h2 { font-size: 1.25rem; margin: 2rem 0 .75rem; overflow-wrap: anywhere; }
  code { background: var(--code-bg); padding: 0 .25em; border-radius: 3px; overflow-wrap: anywhere; }
  code.name { overflow-wrap: normal; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
  td, th { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--rule); vertical-align: top; }
  th { font-size: .85rem; color: var(--muted); font-weight: 600; }
  td.wrap { overflow-wrap: anywhere; max-width: 18rem; } td.note { min-width: 8rem; overflow-wrap: break-word; }
  /* On a phone a wide table (members, tokens, assistants) becomes one block a row, each cell named by its column;
     the header row stays for screen readers, which read the cells with it as before (the visible names have empty
     alternative text, "/ \"\"", so they are not read twice). */
  @media (max-width: 40rem) {
    table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: 100%; max-width: none; }
    table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    table.stack tr { border-bottom: 1px solid var(--rule); padding: .4rem 0; }
    table.stack td { border: 0; padding: .1rem 0; overflow-wrap: anywhere; }
    table.stack td[data-label]::before { content: attr(data-label) ": " / ""; color: var(--muted); font-weight: 600; }
  }
  a { color: var(--accent); }
  form { margin: 0; } form.inline { display: inline; }
  .card { border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem; margin: 1rem 0; }
  details.make > summary { cursor: pointer; } details.make > summary h2 { display: inline; margin: 0; }
  details.make[open] > summary { margin-bottom: 1rem; }
  .field { margin: 0 0 1rem; }
  .field label, .field legend { display: block; font-weight: 600; margin-bottom: .25rem; }
  .field .hint { color: var(--muted); font-size: .9rem; margin: 0 0 .25rem; }
  .row { display: flex; flex-wrap: wrap; gap: 0 1rem; } .row .field { flex: 1 1 12rem; }
  fieldset { border: 0; padding: 0; margin: 0 0 1rem; }
  .check, .field label.check { display: flex; gap: .5rem; align-items: baseline; font-weight: 400; margin: 0; }
  .checks { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .25rem 1rem; }
  input[type=text], input[type=email], input[type=password], input[type=url], select {
    font: inherit; width: 100%; max-width: 28rem; padding: .45rem .55rem; border: 1px solid var(--field); border-radius: 4px; background: var(--field-bg); color: inherit; }
  input[aria-invalid=true], select[aria-invalid=true] { border: 2px solid var(--bad); }
  button { font: inherit; padding: .45rem 1rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: var(--on-accent); cursor: pointer; }
  button.quiet { background: var(--bg); color: var(--accent); padding: .2rem .6rem; }
  button.danger { background: var(--bg); color: var(--bad); border-color: var(--bad); padding: .2rem .6rem; }
  button.link { background: none; border: 0; color: var(--accent); text-decoration: underline; padding: 0; }
  a.button { display: inline-block; padding: .45rem 1rem; border-radius: 4px; border: 1px solid var(--accent); color: var(--accent); text-decoration: none; }
  :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  .error { color: var(--bad); font-weight: 600; margin: .25rem 0 0; }
  .alert { border: 2px solid var(--bad); border-radius: 6px; padding: .6rem .9rem; color: var(--bad-text); background: var(--bad-bg); }
  .notice { border: 1px solid var(--good); border-radius: 6px; padding: .6rem .9rem; color: var(--good-text); background: var(--good-bg); }
  .muted { color: var(--muted); }
  dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .35rem 1rem; margin: 1rem 0; }
  dl.facts > div { display: contents; } dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
  ul.addresses { list-style: none; padding: 0; margin: 0; } ul.addresses li { overflow-wrap: anywhere; margin: .25rem 0; }
  .team-head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 0 1rem; } .team-head h2 { margin-bottom: .25rem; } .count { margin: 0; color: var(--muted); }
  ul.links, ol.results { list-style: none; padding: 0; margin: .5rem 0 1rem; } ul.links > li, ol.results > li { border-bottom: 1px solid var(--rule); padding: .6rem 0; overflow-wrap: anywhere; }
  ul.links p, ol.results p { margin: .15rem 0; } .meta { color: var(--muted); font-size: .9rem; } .state-flagged, .state-disabled { color: var(--bad-text); font-weight: 600; } .made { color: var(--good-text); font-weight: 600; }
  .actions, nav.pages { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; } nav.pages { justify-content: space-between; }
  textarea { font: .95rem/1.4 ui-monospace, monospace; width: 100%; padding: .45rem .55rem; border: 1px solid var(--field); border-radius: 4px; background: var(--field-bg); color: inherit; } textarea[aria-invalid=true] { border: 2px solid var(--bad); }
  input.secret { width: 100%; max-width: none; font: 1rem ui-monospace, monospace; padding: .6rem; border: 1px dashed var(--field); border-radius: 4px; background: var(--code-bg); color: inherit; }
`;

/** The frame of every page: small, readable, no scripts. `body` and `header` must already be escaped. */
export function page(title: string, body: string | { text: string }, header = ''): string {
  const content = typeof body === 'string' ? body : body.text;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(title)} · shortlinks</title>
<style>${STYLE}</style>
</head>
<body>
${header ? `<a class="skip" href="#main">Skip to the content</a>\n${header}` : ''}
<main id="main">
${content}
</main>
</body>
</html>`;
}
