import type { Express, Request, Response } from 'express';
import { looksLikeCode } from '../../domain/code.js';
import { MAX_DESTINATION_LENGTH } from '../../domain/destination.js';
import { MAX_NAME_LENGTH, MIN_NAME_LENGTH } from '../../domain/link-name.js';
import { NOTE_MAX } from '../../domain/note.js';
import type { z } from 'zod';
import { ApiError } from '../../errors.js';
import type { Link } from '../../tools/schemas.js';
import { createLink } from '../../tools/create-link.js';
import type { Tool } from '../../tools/define-tool.js';
import { deleteLink } from '../../tools/delete-link.js';
import { runTool as runToolAs } from '../run-tool.js';
import { teamLinks } from '../../tools/team-links.js';
import type { Team } from '../../store/ports.js';
import { queryText, render, signedInOnly, text, type PageDeps } from '../request.js';
import type { SignedIn } from '../../auth/web-sessions.js';
import { alertBox, buttonForm, csrfField, noticeBox, selectField, textField, type FieldErrors } from '../../views/forms.js';
import { html, when, type Html } from '../../views/html.js';
import { setRetryAfter } from '../../http/retry-after.js';

const SHOWN_LINKS = 100;
const FIELDS = ['team', 'destination', 'name', 'note'] as const;

interface Problem {
  status: number;
  values?: Record<string, string>;
  errors?: FieldErrors;
  alert?: string;
}

/** The dashboard: the person's teams and their links, making and deleting links through the tools themselves. */
export function dashboardPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  const { publicUrl } = ctx.config;
  const runTool = <I extends z.ZodObject, O extends z.ZodType>(tool: Tool<I, O>, me: SignedIn, params: unknown) =>
    runToolAs(ctx, tool, me, params);

  async function show(req: Request, res: Response, me: SignedIn, problem: Problem = { status: 200 }) {
    const teams = await ctx.store.teams.listForPerson(me.person.id, { limit: 100, after: null });
    const sections: Html[] = [];
    for (const team of teams) {
      const page = await runTool(teamLinks, me, { team: team.id, limit: SHOWN_LINKS });
      sections.push(teamSection(team, page.data, page.next !== null, me.csrf));
    }
    const made = queryText(req, 'made');
    const deleted = queryText(req, 'deleted');
    const notice = looksLikeCode(made)
      ? html`Made <a href="${publicUrl}/${made}">${publicUrl}/${made}</a>.`
      : looksLikeCode(deleted)
        ? html`Deleted ${publicUrl}/${deleted}.`
        : null;
    render(
      res,
      problem.status,
      'Your links',
      html`<h1>Your links</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : noticeBox(undefined)}
${alertBox(problem.alert)}
${teams.length === 0 ? html`<p>You are in no team yet. <a href="/teams">Make a team</a> to start making short links.</p>` : createForm(teams, me.csrf, problem)}
${sections}`,
      'app',
    );
  }

  function createForm(teams: Team[], csrf: string, problem: Problem): Html {
    const values = problem.values ?? {};
    const errors = problem.errors ?? {};
    return html`<form method="post" action="/app/links" class="card" novalidate>
<h2 style="margin-top:0">Make a short link</h2>
${csrfField(csrf)}
${selectField({ name: 'team', label: 'Team', options: teams.map((t) => ({ value: t.id, label: t.name })), selected: values.team ?? '', error: errors.team })}
${textField({ name: 'destination', label: 'Destination', type: 'url', value: values.destination ?? '', error: errors.destination, required: true, hint: 'An https address.', maxlength: MAX_DESTINATION_LENGTH })}
<div class="row">
${textField({ name: 'name', label: 'Short link name (optional)', value: values.name ?? '', error: errors.name, hint: `${MIN_NAME_LENGTH} to ${MAX_NAME_LENGTH} of a-z, 0-9, - and _.`, maxlength: MAX_NAME_LENGTH })}
${textField({ name: 'note', label: 'Note (optional)', value: values.note ?? '', error: errors.note, hint: `Up to ${NOTE_MAX} characters.`, maxlength: NOTE_MAX })}
</div>
<button type="submit">Make short link</button>
</form>`;
  }

  function teamSection(team: Team, links: Link[], more: boolean, csrf: string): Html {
    const rows = links.map((link) => {
      const short = `${publicUrl}/${link.code}`;
      // The link's own page: its addresses, QR downloads and clicks (link-page.ts).
      const details = html`<br><a href="/app/links/${link.code}" aria-label="Details and clicks of ${short}">Details and clicks</a>`;
      const named = link.name ? html`<br><a href="${publicUrl}/${link.name}">${publicUrl}/${link.name}</a>` : html``;
      const qr = html`<br><a href="/${link.code}/qr?format=png" download="${link.code}-qr.png"><img src="/${link.code}/qr" width="64" height="64" alt="QR code for ${short}"></a>`;
      return html`<tr><td><a href="${short}">${short}</a>${named}${details}${qr}</td><td class="wrap">${link.destination}</td>
<td class="note">${link.note ?? ''}</td><td>${link.state}</td><td>${when(link.createdAt, { dayOnly: true })}</td>
<td>${buttonForm({ action: '/app/links/delete', csrf, label: 'Delete', className: 'danger', hidden: { code: link.code }, ariaLabel: `Delete ${short}` })}</td></tr>`;
    });
    const table = links.length
      ? html`<table><thead><tr><th scope="col">Short link</th><th scope="col">Destination</th><th scope="col">Note</th><th scope="col">State</th><th scope="col">Made</th><th scope="col"><span class="muted">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>`
      : html`<p class="muted">No links yet.</p>`;
    const moreNote = more ? html`<p class="muted">Showing the newest ${SHOWN_LINKS}; the API lists them all.</p>` : html``;
    return html`<section aria-labelledby="team-${team.id}"><h2 id="team-${team.id}"><a href="/teams/${team.id}">${team.name}</a></h2>${table}${moreNote}</section>`;
  }

  app.get('/app', signedInOnly(deps, async (req, res, me) => show(req, res, me)));

  app.post(
    '/app/links',
    signedInOnly(deps, async (req, res, me) => {
      const values = Object.fromEntries(FIELDS.map((f) => [f, text(req, f)]));
      const params = {
        team: values.team,
        destination: values.destination,
        name: values.name === '' ? null : values.name,
        note: values.note === '' ? null : values.note,
      };
      try {
        const link = await runTool(createLink, me, params);
        res.redirect(303, `/app?made=${link.code}`);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const field = FIELDS.find((f) => f === error.field);
        setRetryAfter(res, error.retryAfter);
        const problem: Problem = { status: error.status, values };
        const detail = error.code === 'bad_request' && field === 'team' ? 'Choose one of your teams.' : error.detail;
        if (field) problem.errors = { [field]: detail };
        else problem.alert = error.detail;
        await show(req, res, me, problem);
      }
    }),
  );

  app.post(
    '/app/links/delete',
    signedInOnly(deps, async (req, res, me) => {
      const code = text(req, 'code');
      try {
        await runTool(deleteLink, me, { code });
        res.redirect(303, `/app?deleted=${encodeURIComponent(code)}`);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        setRetryAfter(res, error.retryAfter);
        const alert = error.code === 'bad_request' ? 'That is not the code of a link.' : error.detail;
        await show(req, res, me, { status: error.status, alert });
      }
    }),
  );
}
