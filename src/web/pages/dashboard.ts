import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import { looksLikeCode } from '../../domain/code.js';
import { destinationWords, MAX_DESTINATION_LENGTH } from '../../domain/destination.js';
import type { DestinationMode } from '../../domain/service-settings.js';
import { MAX_LINKS_PER_CALL } from '../../domain/limits.js';
import { MAX_NAME_LENGTH, MIN_NAME_LENGTH } from '../../domain/link-name.js';
import { LINK_STATES } from '../../domain/link-state.js';
import { NOTE_MAX } from '../../domain/note.js';
import { ApiError, unlessApiError } from '../../errors.js';
import { setRetryAfter } from '../../http/retry-after.js';
import type { Team } from '../../store/ports.js';
import { createLink } from '../../tools/create-link.js';
import { teamLinks } from '../../tools/team-links.js';
import { COPIED_STATUS, copyButton } from '../../views/copy-button.js';
import { alertBox, csrfField, noticeBox, selectField, textField, type FieldErrors } from '../../views/forms.js';
import { html, type Html } from '../../views/html.js';
import { linkOptionsFields, optionsTouched, utmFields, type OptionValues, type UtmValues } from '../../views/link-options-fields.js';
import { teamFault } from '../link-field-faults.js';
import { listHref, listQueryOf, type ListQuery } from '../list-query.js';
import { queryText, render, signedInOnly, text, type PageDeps } from '../request.js';
import { faultsOf, runTool } from '../run-tool.js';
import { NEW_LINK_OPTION_VALUES, OPTION_FIELDS, optionFormFaults, optionParamsOf, optionValuesOf, utmValuesOf } from '../link-options-form.js';
import { withUtm } from '../utm.js';
import { SCRIPT_PAGE_CSP, PAGE_SCRIPT_TAG } from './page-script.js';
import { NO_TEAM_YET, readTeamListing, teamSection, type TeamListing } from './link-list.js';
import { teamsOf } from '../teams-of.js';
import { linkOf } from '../link-of.js';

const FIELDS = ['team', 'destination', 'name', 'note'] as const;
/** The list's fields the teamLinks tool may find fault with, shown beside them on the filter form. */
const FILTER_FIELDS = new Set(['team', 'q', 'state', 'tag']);

/** What the make form was sent with, shown again with its faults (never the password, only whether one was typed). */
interface Sent {
  fields: Record<(typeof FIELDS)[number], string>;
  options: OptionValues;
  utm: UtmValues;
  passwordTyped: boolean;
}

interface Problem {
  status: number;
  values?: Sent;
  errors?: FieldErrors;
  alert?: string;
}

/** The dashboard: the person's teams and their links (link-list.ts), and the form that makes one link. */
export function dashboardPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  const { publicUrl } = ctx.config;

  async function show(req: Request, res: Response, me: SignedIn, problem: Problem = { status: 200 }) {
    const query = listQueryOf(req);
    const teams = await teamsOf(ctx.store, me.person.id);
    const { destinations } = await ctx.store.settings.serviceSettings();
    let listings: TeamListing[] = [];
    let listProblem: Problem = { status: 200 };
    try {
      listings = await readListings(me, teams, query);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const field = error.field !== null && FILTER_FIELDS.has(error.field) ? error.field : null;
      listProblem = field ? { status: error.status, errors: { [field]: error.detail } } : { status: error.status, alert: error.detail };
    }
    res.set('Content-Security-Policy', SCRIPT_PAGE_CSP);
    render(
      res,
      problem.status === 200 ? listProblem.status : problem.status,
      'Your links',
      html`<h1>Your links</h1>
${await notice(req, me)}
${alertBox(problem.alert)}
${teams.length === 0 ? NO_TEAM_YET : html`${createForm(teams, me.csrf, problem, destinations)}
<p><a href="/app/links/bulk">Make up to ${MAX_LINKS_PER_CALL} links at once</a></p>
${filterForm(teams, query, listProblem.errors ?? {})}`}
${alertBox(listProblem.alert)}
${COPIED_STATUS}
${listings.map((listing) => teamSection(listing, query))}
${PAGE_SCRIPT_TAG}`,
      'app',
    );
  }

  /** Every team's newest page, or with `?team=` that team's page at the cursor (the tool refuses a team not theirs). */
  async function readListings(me: SignedIn, teams: Team[], query: ListQuery): Promise<TeamListing[]> {
    const { maxLinksPerTeam } = await ctx.store.settings.limits();
    if (query.team === null) return Promise.all(teams.map((team) => readTeamListing(ctx, me, team, query, maxLinksPerTeam)));
    const team = teams.find((t) => t.id === query.team);
    if (team) return [await readTeamListing(ctx, me, team, query, maxLinksPerTeam)];
    // Not one of theirs: the tool says so in the API's words (it would list it had they joined since).
    await runTool(ctx, teamLinks, me, { team: query.team, limit: 1 });
    return [];
  }

  /** After a change: the link made, at its team's address (read again: it may be on the team's domain), or the one deleted. */
  async function notice(req: Request, me: SignedIn): Promise<Html> {
    const made = queryText(req, 'made');
    const deleted = queryText(req, 'deleted');
    const link = looksLikeCode(made) ? await linkOf(ctx, me, made).catch(unlessApiError) : null;
    if (link) {
      const short = link.shortUrl;
      return html`<p class="notice" role="status">Made <a href="${short}">${short}</a>. ${copyButton(short)}</p>`;
    }
    if (looksLikeCode(deleted)) return html`<p class="notice" role="status">Deleted ${publicUrl}/${deleted}.</p>`;
    return noticeBox(undefined);
  }

  app.get('/app', signedInOnly(deps, async (req, res, me) => show(req, res, me)));

  app.post(
    '/app/links',
    signedInOnly(deps, async (req, res, me) => {
      const fields = Object.fromEntries(FIELDS.map((f) => [f, text(req, f)])) as Sent['fields'];
      const password = text(req, 'password');
      const values: Sent = { fields, options: optionValuesOf(req), utm: utmValuesOf(req), passwordTyped: password !== '' };
      const params = {
        team: fields.team,
        // The UTM builder's fields join the destination here, so the builder works without scripts.
        destination: withUtm(fields.destination, values.utm),
        name: fields.name === '' ? null : fields.name,
        note: fields.note === '' ? null : fields.note,
        ...optionParamsOf(values.options),
        password: password === '' ? null : password,
      };
      try {
        const link = await runTool(ctx, createLink, me, params);
        res.redirect(303, `/app?made=${link.code}`);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        setRetryAfter(res, error.retryAfter);
        // The tool stops at its first refusal; the form shows every fault of its fields at once, as its checks find
        // them (a name taken in the team chosen too, when the person may make links in it).
        const faults = optionFormFaults(error, await faultsOf(ctx, createLink, me, params, error), [...FIELDS, ...OPTION_FIELDS]);
        if (error.field === 'team') faults.errors.team = teamFault(error);
        await show(req, res, me, { status: error.status, values, ...faults });
      }
    }),
  );
}

/**
 * The make-link form, in a disclosure that is open: on a phone the page script folds it (data-fold), so the team's
 * links come first, one tap away from the form. A form shown again with its faults stays open. The UTM builder and
 * the link's options are disclosures of their own in it, open when they hold something.
 */
function createForm(teams: Team[], csrf: string, problem: Problem, destinations: DestinationMode): Html {
  const sent = problem.values;
  const values: Partial<Sent['fields']> = sent?.fields ?? {};
  const options = sent?.options ?? NEW_LINK_OPTION_VALUES;
  const errors = problem.errors ?? {};
  const optionsOpen = optionsTouched(options, errors, sent?.passwordTyped ?? false) ? html` open` : html``;
  const fold = problem.values === undefined ? html` data-fold` : html``;
  return html`<details class="card make" open${fold}><summary><h2>Make a short link</h2></summary>
<form method="post" action="/app/links" novalidate>
${csrfField(csrf)}
${selectField({ name: 'team', label: 'Team', options: teams.map((t) => ({ value: t.id, label: t.name })), selected: values.team ?? '', error: errors.team })}
${textField({ name: 'destination', label: 'Destination', type: 'url', value: values.destination ?? '', error: errors.destination, required: true, hint: `${destinationWords(destinations)}.`, maxlength: MAX_DESTINATION_LENGTH })}
${utmFields(sent?.utm)}
<div class="row">
${textField({ name: 'name', label: 'Short link name (optional)', value: values.name ?? '', error: errors.name, hint: `${MIN_NAME_LENGTH} to ${MAX_NAME_LENGTH} of a-z, 0-9, - and _.`, maxlength: MAX_NAME_LENGTH })}
${textField({ name: 'note', label: 'Note (optional)', value: values.note ?? '', error: errors.note, hint: `Up to ${NOTE_MAX} characters.`, maxlength: NOTE_MAX })}
</div>
<details class="options"${optionsOpen}><summary>Options: an end, a click cap, a password, tags</summary>
${linkOptionsFields(options, errors)}
</details>
<button type="submit">Make short link</button>
</form></details>`;
}

/** Search and state filter as a GET form: the view is its address, so it works without JavaScript and reloads. */
function filterForm(teams: Team[], query: ListQuery, errors: FieldErrors): Html {
  const teamOptions = [{ value: '', label: 'All teams' }, ...teams.map((t) => ({ value: t.id, label: t.name }))];
  const stateOptions = [{ value: '', label: 'Any state' }, ...LINK_STATES.map((s) => ({ value: s, label: s }))];
  return html`<form method="get" action="/app" class="filters" role="search" aria-label="Find links">
<div class="row">
${selectField({ name: 'team', label: 'Team', options: teamOptions, selected: query.team ?? '', error: errors.team, idPrefix: 'find' })}
${textField({ name: 'q', label: 'Search', type: 'text', value: query.q, error: errors.q, hint: 'Code, name, destination, note or tag.', idPrefix: 'find' })}
${selectField({ name: 'state', label: 'State', options: stateOptions, selected: query.state, error: errors.state, idPrefix: 'find' })}
</div>
${tagFilter(query, errors.tag)}
<button type="submit">Show links</button>
</form>`;
}

/**
 * The tag the list is narrowed to (a link's tag, or the team page's, leads here), kept by the form's searches and
 * taken off with one link; nothing when there is none, so the list stays where a phone shows it at once.
 */
function tagFilter(query: ListQuery, error: string | undefined): Html {
  if (query.tag === '') return html``;
  const all = listHref({ ...query, tag: '', after: null, back: [] });
  return html`<p class="active-tag">Only links tagged <strong>${query.tag}</strong> · <a href="${all}">Show every tag</a></p>
${error ? html`<p class="error" role="alert">${error}</p>` : html``}<input type="hidden" name="tag" value="${query.tag}">`;
}
