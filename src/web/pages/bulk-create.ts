import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import { looksLikeCode } from '../../domain/code.js';
import { ApiError, unlessApiError } from '../../errors.js';
import { setRetryAfter } from '../../http/retry-after.js';
import { destinationWords } from '../../domain/destination.js';
import { MAX_LINKS_PER_CALL } from '../../domain/limits.js';
import { createLinks } from '../../tools/create-links.js';
import { COPIED_STATUS, copyButton } from '../../views/copy-button.js';
import { alertBox, csrfField, noticeBox, selectField, textAreaField, type FieldErrors } from '../../views/forms.js';
import { count } from '../../shared/words.js';
import { html, type Html } from '../../views/html.js';
import { teamFault } from '../link-field-faults.js';
import { linkOf } from '../link-of.js';
import { queryText, render, signedInOnly, text, type PageDeps } from '../request.js';
import { runTool } from '../run-tool.js';
import { SCRIPT_PAGE_CSP, PAGE_SCRIPT_TAG } from './page-script.js';
import { NO_TEAM_YET } from './link-list.js';
import { teamsOf } from '../teams-of.js';

const PATH = '/app/links/bulk';

/** One pasted line and what createLinks answered for it. */
interface LineResult {
  destination: string;
  /** The short address made (on the team's address), or null when the line was refused. */
  address: string | null;
  message: string | null;
}

interface Answer {
  status: number;
  team: string;
  lines: string;
  errors?: FieldErrors;
  alert?: string;
  results?: LineResult[];
}

/** The pasted text as createLinks items: one destination a line, blank lines and surrounding spaces left out. */
function destinationsOf(pasted: string): string[] {
  return pasted
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * Making up to 50 links at once, `/app/links/bulk`: destinations pasted one a line, for one team, made by the
 * createLinks tool in one call, so each line passes or fails on its own with the API's rules, limits and messages.
 * When every line was made the answer is a redirect to this page listing them (post/redirect/get: a reload makes
 * nothing). When some were refused the answer shows each line's result at once, the made ones with their short
 * addresses, and leaves only the refused lines in the box, so sending it again makes no line twice.
 */
export function bulkCreatePages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;

  async function show(req: Request, res: Response, me: SignedIn, answer: Answer) {
    const teams = await teamsOf(ctx.store, me.person.id);
    const { destinations } = await ctx.store.settings.serviceSettings();
    const made = await madeLines(me, queryText(req, 'made'));
    const notice = made.length > 0 ? html`<p class="notice" role="status">Made ${count(made.length, 'link')}.</p>
${resultItems(made)}` : noticeBox(undefined);
    const errors = answer.errors ?? {};
    res.set('Content-Security-Policy', SCRIPT_PAGE_CSP);
    render(
      res,
      answer.status,
      'Make links at once',
      html`<p><a href="/app">← Your links</a></p>
<h1>Make links at once</h1>
${notice}
${alertBox(answer.alert)}
${answer.results ? resultList(answer.results) : html``}
${COPIED_STATUS}
${teams.length === 0 ? NO_TEAM_YET : html`<form method="post" action="${PATH}" class="card" novalidate>
${csrfField(me.csrf)}
${selectField({ name: 'team', label: 'Team', options: teams.map((t) => ({ value: t.id, label: t.name })), selected: answer.team, error: errors.team })}
${textAreaField({ name: 'destinations', label: 'Destinations', value: answer.lines, error: errors.destinations, hint: `${destinationWords(destinations)}, one a line, up to ${MAX_LINKS_PER_CALL}. Each is made on its own: a refused line does not stop the others.` })}
<button type="submit">Make short links</button>
</form>`}
${PAGE_SCRIPT_TAG}`,
      'app',
    );
  }

  /**
   * The links of `?made=` after a redirect, each with its destination, read through linkByCode: a code of a team
   * the person is not in (an address made by hand) shows nothing.
   */
  async function madeLines(me: SignedIn, made: string): Promise<LineResult[]> {
    const codes = made.split(',').filter(looksLikeCode).slice(0, MAX_LINKS_PER_CALL);
    const links = await Promise.all(codes.map((code) => linkOf(ctx, me, code).catch(unlessApiError)));
    return links.flatMap((link) => (link ? [{ destination: link.destination, address: link.shortUrl, message: null }] : []));
  }

  /** Each line's destination and its outcome: the short address with a Copy button, or why it was refused. */
  function resultItems(results: LineResult[]): Html {
    const items = results.map((r) => {
      const outcome = r.address !== null
        ? html`<span class="made">Made</span> <a href="${r.address}">${r.address}</a> ${copyButton(r.address)}`
        : html`<span class="error">Refused:</span> ${r.message}`;
      return html`<li><p class="destination">${r.destination}</p><p>${outcome}</p></li>`;
    });
    return html`<ol class="results">${items}</ol>`;
  }

  function resultList(results: LineResult[]): Html {
    const made = results.filter((r) => r.address !== null).length;
    return html`<h2>Results</h2>
<p class="alert" role="alert">Made ${count(made, 'link')}; refused ${count(results.length - made, 'link')}. The refused lines are left below to fix and send again.</p>
${resultItems(results)}`;
  }

  app.get(PATH, signedInOnly(deps, async (req, res, me) => show(req, res, me, { status: 200, team: queryText(req, 'team'), lines: '' })));

  app.post(
    PATH,
    signedInOnly(deps, async (req, res, me) => {
      const team = text(req, 'team');
      const destinations = destinationsOf(text(req, 'destinations'));
      const lines = destinations.join('\n');
      let results;
      try {
        ({ results } = await runTool(ctx, createLinks, me, { team, links: destinations.map((destination) => ({ destination })) }));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        setRetryAfter(res, error.retryAfter);
        return show(req, res, me, { status: error.status, team, lines, ...refusalOf(error, destinations.length) });
      }
      const codes = results.map((r) => r.link?.code ?? null);
      if (codes.every((code) => code !== null)) {
        return res.redirect(303, `${PATH}?team=${encodeURIComponent(team)}&made=${codes.join(',')}`);
      }
      const lineResults = results.map((r, i) => ({ destination: destinations[i]!, address: r.link?.shortUrl ?? null, message: r.message }));
      const refused = lineResults.filter((r) => r.address === null).map((r) => r.destination);
      // Some lines made: 200, as the API answers the call. None made: the form was refused, with the first line's status.
      const status = refused.length < results.length ? 200 : (results[0]!.status ?? 400);
      await show(req, res, me, { status, team, lines: refused.join('\n'), results: lineResults });
    }),
  );
}

/** Where a refusal of the whole call shows: the team beside its field, the list's size beside the box. */
function refusalOf(error: ApiError, pasted: number): Pick<Answer, 'errors' | 'alert'> {
  if (error.field === 'team') {
    return { errors: { team: teamFault(error) } };
  }
  if (error.field === 'links') {
    // The tool's limits (1 to 50 items), said of the box rather than of a JSON array.
    const detail = pasted === 0
      ? 'Paste at least one destination, one a line.'
      : `At most ${MAX_LINKS_PER_CALL} destinations at once; this has ${pasted}. Nothing was made.`;
    return { errors: { destinations: detail } };
  }
  return { alert: error.detail };
}
