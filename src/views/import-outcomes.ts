import type { RowOutcome } from '../imports/run-import.js';
import { html, type Html } from './html.js';

const WORDS: Record<RowOutcome['outcome'], string> = {
  made: 'Made',
  to_make: 'To be made',
  duplicate: 'Skipped: already in the team',
  failed: 'Not made',
};

/**
 * Every row of an import with its outcome (the Import page's preview and its result): the row's line in the file,
 * what happened, and the link (its short address, at `base`: the team's address) or the reason.
 */
export function importOutcomeTable(outcomes: readonly RowOutcome[], base: string): Html {
  if (outcomes.length === 0) return html`<p>The file has no rows.</p>`;
  return html`<table class="stack"><caption>Each row of the file</caption>
<thead><tr><th scope="col">Line</th><th scope="col">Outcome</th><th scope="col">Details</th></tr></thead>
<tbody>${outcomes.map((row) => html`<tr><td>${String(row.line)}</td><td>${WORDS[row.outcome]}</td><td>${details(row, base)}</td></tr>`)}</tbody>
</table>`;
}

function details(row: RowOutcome, base: string): Html {
  if (row.outcome === 'failed') return html`${row.message}`;
  if (row.outcome === 'duplicate') return html`<a href="/app/links/${row.code}">${base}/${row.code}</a>`;
  const address = row.code === null ? html`` : html`<a href="/app/links/${row.code}">${base}/${row.code}</a>`;
  const named = row.name === null ? html`` : html` (named ${row.name})`;
  const leftOut = row.leftOut.length === 0 ? html`` : html`<br><span class="muted">${row.leftOut.join(' ')}</span>`;
  return html`${address}${named}${leftOut}`;
}
