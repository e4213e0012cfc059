import { Readable } from 'node:stream';
import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import { ApiError } from '../../errors.js';
import { rowsOf } from '../../imports/header-first.js';
import { summarySentence, tally } from '../../imports/import-summary.js';
import { importRows, type RowOutcome } from '../../imports/run-import.js';
import { importFormat } from '../../operator/imports.js';
import type { Team } from '../../store/ports.js';
import { teamToChange } from '../../tools/access.js';
import { alertBox, csrfField, selectField, type FieldErrors } from '../../views/forms.js';
import { html } from '../../views/html.js';
import { formWithFile, uploadOf } from '../form-with-file.js';
import { render, signedInOnly, text, type PageDeps } from '../request.js';
import { callerOf } from '../run-tool.js';
import { importOutcomeTable } from '../../views/import-outcomes.js';

/** The largest file the page takes: a few tens of thousands of rows. Larger ones: `shortlinks import`, which streams. */
export const WEB_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

const FORMATS = [
  { value: 'bitly', label: 'Bitly: the CSV of its Export links' },
  { value: 'shlink', label: 'Shlink: the CSV of short-url:list or its web client' },
  { value: 'kutt', label: 'Kutt: a CSV of its links' },
  { value: 'yourls', label: 'YOURLS: the CSV of its export' },
  { value: 'csv', label: 'A CSV of your own: destination, name, note, tags, expiresAt, maxClicks' },
];

interface Choice {
  format: string;
  errors?: FieldErrors;
  alert?: string;
}

/**
 * A team's Import page, `/teams/<id>/import`, for members, who may make the team's links: a file of one of the
 * formats (imports/formats) is checked row by row as createLink checks, shown as a preview with every row's outcome
 * (a dry run: exactly what the import will do, nothing made), then imported on confirmation, the team's limits
 * counting every link made as createLinks counts them. The confirmation sends the file back in a hidden field, so
 * no upload is kept between the two (any process answers either); what it makes is checked again, and a row made
 * already is a duplicate, so sending it twice makes nothing twice.
 */
export function teamImportPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  const path = (team: Team) => `/teams/${team.id}/import`;
  const teamOf = (req: Request, me: SignedIn) => teamToChange(ctx, callerOf(me), String(req.params.id ?? ''));

  function showForm(res: Response, me: SignedIn, team: Team, status: number, choice: Choice): void {
    const errors = choice.errors ?? {};
    const fileError = errors.file;
    render(
      res,
      status,
      `Import links into ${team.name}`,
      html`<p><a href="/teams/${team.id}">← ${team.name}</a></p>
<h1>Import links into “${team.name}”</h1>
${alertBox(choice.alert)}
<p>Bring the links you have elsewhere: each row is checked as a new link is, and gets its own outcome. You see them all before anything is made. A row whose destination and name a link of the team has already is skipped, so importing a file again makes nothing twice. Click counts stay behind: only the links come over.</p>
<form method="post" action="${path(team)}" enctype="multipart/form-data" class="card" novalidate>
${csrfField(me.csrf)}
<input type="hidden" name="step" value="preview">
${selectField({ name: 'format', label: 'Where the file comes from', options: FORMATS, selected: choice.format, error: errors.format })}
<div class="field">
  <label for="f-file">File</label><p class="hint" id="f-file-hint">A CSV file of at most 5 MB. Larger ones: the operator's <code>shortlinks import</code>.</p>
  <input id="f-file" name="file" type="file" accept=".csv,text/csv"${fileError ? html` aria-invalid="true" aria-describedby="f-file-hint f-file-error"` : html` aria-describedby="f-file-hint"`}>
  ${fileError ? html`<p class="error" id="f-file-error">${fileError}</p>` : html``}
</div>
<button type="submit">Preview the import</button>
</form>`,
      'teams',
    );
  }

  /** Every row's outcome for the file, made for real or (a preview) in transactions rolled back. */
  async function outcomesOf(team: Team, format: string, content: Buffer, dryRun: boolean): Promise<RowOutcome[]> {
    const rows = await rowsOf(importFormat(format), Readable.from([content]));
    const outcomes: RowOutcome[] = [];
    for await (const outcome of importRows(ctx, team, rows, { dryRun, liftLimits: false })) outcomes.push(outcome);
    return outcomes;
  }

  async function showOutcomes(res: Response, me: SignedIn, team: Team, format: string, content: Buffer, dryRun: boolean): Promise<void> {
    const outcomes = await outcomesOf(team, format, content, dryRun);
    const totals = tally(dryRun);
    outcomes.forEach((outcome) => totals.add(outcome));
    const base = (await ctx.domains.directory.addresses())(team.id);
    const { made } = totals.summary;
    const confirm = dryRun && made > 0
      ? html`<form method="post" action="${path(team)}" enctype="multipart/form-data" class="card">
${csrfField(me.csrf)}
<input type="hidden" name="step" value="confirm">
<input type="hidden" name="format" value="${format}">
<input type="hidden" name="content" value="${content.toString('utf8')}">
<button type="submit">Import ${made === 1 ? 'the link' : `the ${made} links`}</button> <a href="${path(team)}">Choose another file</a>
</form>`
      : html`<p><a href="${path(team)}">${dryRun ? 'Choose another file' : 'Import another file'}</a></p>`;
    render(
      res,
      200,
      dryRun ? `Preview: import into ${team.name}` : `Imported into ${team.name}`,
      html`<p><a href="/teams/${team.id}">← ${team.name}</a></p>
<h1>${dryRun ? 'Preview: import' : 'Imported'} into “${team.name}”</h1>
<p class="${dryRun ? 'hint' : 'notice'}" role="status">${summarySentence(totals.summary)}</p>
${dryRun ? html`<p>The team's limits on new links count each link made, as they do for links made one by one.</p>` : html``}
${confirm}
${importOutcomeTable(outcomes, base)}`,
      'teams',
    );
  }

  app.get(
    '/teams/:id/import',
    signedInOnly(deps, async (req, res, me) => showForm(res, me, await teamOf(req, me), 200, { format: 'csv' })),
  );

  app.post(
    '/teams/:id/import',
    // Only a signed-in person's upload is read at all: a stranger's is turned away before its body is.
    async (req: Request, res: Response, next: () => void) => ((await deps.sessions.signedIn(req, res)) ? next() : res.redirect(303, '/signin')),
    formWithFile(WEB_IMPORT_MAX_BYTES),
    signedInOnly(deps, async (req, res, me) => {
      const team = await teamOf(req, me);
      const format = text(req, 'format');
      const confirming = text(req, 'step') === 'confirm';
      const upload = uploadOf(res);
      const content = confirming ? Buffer.from(text(req, 'content'), 'utf8') : upload?.content;
      const fault = (errors: FieldErrors, status = 400) => showForm(res, me, team, status, { format, errors });
      if (!confirming && (upload === null || upload.filename === '')) return fault({ file: 'Choose the file to import.' });
      if (upload?.tooLarge) return fault({ file: 'The file is larger than 5 MB: import it with shortlinks import, or in parts.' }, 413);
      try {
        await showOutcomes(res, me, team, format, content ?? Buffer.alloc(0), !confirming);
      } catch (error) {
        if (!(error instanceof ApiError) || error.field === 'team') throw error;
        return fault(error.field === 'format' ? { format: error.detail } : { file: error.detail }, error.status);
      }
    }),
  );
}

