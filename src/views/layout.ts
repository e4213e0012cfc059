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

/** Colours meet WCAG AA contrast on white (text 16:1, links and muted text over 4.5:1); focus is always visible. */
const STYLE = `
  *, *::before, *::after { box-sizing: border-box; }
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 0 auto; padding: 0 1rem 3rem; color: #1b1b1f; background: #fff; }
  header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem; padding: .75rem 0; border-bottom: 1px solid #d0d0d7; margin-bottom: 1.5rem; }
  header .brand { font-weight: 700; color: #1b1b1f; text-decoration: none; margin-right: auto; }
  header nav ul { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; margin: 0; padding: 0; align-items: center; }
  header nav a[aria-current="page"] { font-weight: 700; text-decoration: none; }
  header .who { color: #4a4a55; font-size: .9rem; }
  h1 { font-size: 1.6rem; margin: 0 0 1rem; } h2 { font-size: 1.25rem; margin: 2rem 0 .75rem; }
  code { background: #f2f2f5; padding: 0 .25em; border-radius: 3px; overflow-wrap: anywhere; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
  td, th { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid #ddd; vertical-align: top; }
  th { font-size: .85rem; color: #4a4a55; font-weight: 600; }
  td.wrap { overflow-wrap: anywhere; max-width: 18rem; } td.note { min-width: 8rem; overflow-wrap: break-word; } td time { white-space: nowrap; }
  a { color: #2546c9; }
  form { margin: 0; } form.inline { display: inline; }
  .card { border: 1px solid #d0d0d7; border-radius: 6px; padding: 1rem 1.25rem; margin: 1rem 0; }
  .field { margin: 0 0 1rem; }
  .field label, .field legend { display: block; font-weight: 600; margin-bottom: .25rem; }
  .field .hint { color: #4a4a55; font-size: .9rem; margin: 0 0 .25rem; }
  .row { display: flex; flex-wrap: wrap; gap: 0 1rem; } .row .field { flex: 1 1 12rem; }
  fieldset { border: 0; padding: 0; margin: 0 0 1rem; }
  .check, .field label.check { display: flex; gap: .5rem; align-items: baseline; font-weight: 400; margin: 0; }
  .checks { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .25rem 1rem; }
  input[type=text], input[type=email], input[type=password], input[type=url], select {
    font: inherit; width: 100%; max-width: 28rem; padding: .45rem .55rem; border: 1px solid #767680; border-radius: 4px; background: #fff; color: inherit; }
  input[aria-invalid=true], select[aria-invalid=true] { border: 2px solid #b3261e; }
  button { font: inherit; padding: .45rem 1rem; border-radius: 4px; border: 1px solid #2546c9; background: #2546c9; color: #fff; cursor: pointer; }
  button.quiet { background: #fff; color: #2546c9; padding: .2rem .6rem; }
  button.danger { background: #fff; color: #b3261e; border-color: #b3261e; padding: .2rem .6rem; }
  button.link { background: none; border: 0; color: #2546c9; text-decoration: underline; padding: 0; }
  :focus-visible { outline: 3px solid #1a5fd0; outline-offset: 2px; }
  .error { color: #b3261e; font-weight: 600; margin: .25rem 0 0; }
  .alert { border: 2px solid #b3261e; border-radius: 6px; padding: .6rem .9rem; color: #8c1d18; background: #fdf3f2; }
  .notice { border: 1px solid #1e7a3c; border-radius: 6px; padding: .6rem .9rem; color: #14532d; background: #f0faf3; }
  .muted { color: #4a4a55; }
  dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .35rem 1rem; margin: 1rem 0; }
  dl.facts > div { display: contents; } dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
  ul.addresses { list-style: none; padding: 0; margin: 0; } ul.addresses li { overflow-wrap: anywhere; margin: .25rem 0; }
  .team-head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 0 1rem; } .team-head h2 { margin-bottom: .25rem; } .count { margin: 0; color: #4a4a55; }
  ul.links, ol.results { list-style: none; padding: 0; margin: .5rem 0 1rem; } ul.links > li, ol.results > li { border-bottom: 1px solid #ddd; padding: .6rem 0; overflow-wrap: anywhere; }
  ul.links p, ol.results p { margin: .15rem 0; } .meta { color: #4a4a55; font-size: .9rem; } .state-flagged, .state-disabled { color: #8c1d18; font-weight: 600; } .made { color: #14532d; font-weight: 600; }
  .actions, nav.pages { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; } nav.pages { justify-content: space-between; }
  textarea { font: .95rem/1.4 ui-monospace, monospace; width: 100%; padding: .45rem .55rem; border: 1px solid #767680; border-radius: 4px; color: inherit; } textarea[aria-invalid=true] { border: 2px solid #b3261e; }
  input.secret { width: 100%; max-width: none; font: 1rem ui-monospace, monospace; padding: .6rem; border: 1px dashed #767680; border-radius: 4px; background: #f7f7fa; color: inherit; }
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
${header}
<main id="main">
${content}
</main>
</body>
</html>`;
}
