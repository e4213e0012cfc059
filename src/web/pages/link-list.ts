import type { SignedIn } from '../../auth/web-sessions.js';
import { lastDays, RECENT_CLICK_DAYS } from '../../domain/days.js';
import { isLifted } from '../../domain/limits.js';
import type { LinkFilter, Team } from '../../store/ports.js';
import type { ToolContext } from '../../tools/define-tool.js';
import type { Link } from '../../tools/schemas.js';
import { teamLinks } from '../../tools/team-links.js';
import { copyableAddress } from '../../views/copy-button.js';
import { count } from '../../shared/words.js';
import { html, when, type Html } from '../../views/html.js';
import { isFiltered, newerHref, olderHref, type ListQuery } from '../list-query.js';
import { shortAddresses } from '../link-of.js';
import { runTool } from '../run-tool.js';

/** Links per page of a team: a team holds 25 by default, so paging shows at once. */
export const LINKS_PER_PAGE = 10;

/**
 * Matches of a search counted at most: past it the line says "more than", so a search of a team with lifted
 * limits reads a bounded number of rows.
 */
const MATCHES_COUNTED = 1000;

/** Instead of the list and its forms, for a person in no team. */
export const NO_TEAM_YET = html`<p>You are in no team yet. <a href="/teams">Make a team</a>, or accept an invitation to one on the same page, to start making short links.</p>`;

/** One team's page of the list, with what each row shows beside the link. */
export interface TeamListing {
  team: Team;
  links: Link[];
  next: string | null;
  /** Links the team holds now (null: the team went meanwhile), against the operator's `maxLinksPerTeam`. */
  count: number | null;
  max: number;
  /** Clicks in the last 7 days by link id; a link without any is absent. */
  recent: Map<string, number>;
  /** Links matching the search and state filter, on every page (at most MATCHES_COUNTED + 1); null unfiltered. */
  matches: number | null;
}

/**
 * Reads a team's page through the teamLinks tool (so the API's paging, search, state filter, rules and messages
 * apply), then the rows' 7-day clicks in one read for the whole page: the tool has just said the person may see
 * these links, and one linkClicks call per row would read each link and membership again.
 */
export async function readTeamListing(ctx: ToolContext, me: SignedIn, team: Team, query: ListQuery, max: number): Promise<TeamListing> {
  const page = await runTool(ctx, teamLinks, me, {
    team: team.id,
    q: query.q === '' ? null : query.q,
    state: query.state === '' ? null : query.state,
    tag: query.tag === '' ? null : query.tag,
    limit: LINKS_PER_PAGE,
    after: query.team === team.id ? query.after : null,
  });
  const days = lastDays(ctx.clock.now(), RECENT_CLICK_DAYS);
  const ids = page.data.map((link) => link.id);
  const recent = ids.length === 0 ? new Map<string, number>() : await ctx.store.clicks.totals(ids, days[0]!, days.at(-1)!);
  const count = await ctx.store.teams.linkCount(team.id);
  return { team, links: page.data, next: page.next, count, max, recent, matches: await matchesOf(ctx, team, query, page) };
}

/**
 * How many links a search finds in all: the page itself when it is the only one, else counted by the store (the
 * tool above has just said the person may read the team), up to MATCHES_COUNTED.
 */
async function matchesOf(ctx: ToolContext, team: Team, query: ListQuery, page: { data: Link[]; next: string | null }): Promise<number | null> {
  if (!isFiltered(query)) return null;
  const first = query.team !== team.id || query.after === null;
  if (first && page.next === null) return page.data.length;
  // The tool took both already, so the state is one of the states.
  const filter: LinkFilter = {
    q: query.q === '' ? null : query.q,
    state: query.state === '' ? null : (query.state as LinkFilter['state']),
    tag: query.tag === '' ? null : query.tag,
  };
  return (await ctx.store.links.list(team.id, filter, { limit: MATCHES_COUNTED + 1, after: null })).length;
}

/** "3 links match.", said where the search's results begin, so a screen reader hears it too. */
function matchesLine(matches: number | null): Html {
  if (matches === null) return html``;
  const found = matches > MATCHES_COUNTED ? `More than ${count(MATCHES_COUNTED, 'link')} match.` : matches === 1 ? '1 link matches.' : `${count(matches, 'link')} match.`;
  return html`<p class="matches" role="status">${found}</p>`;
}

/** A team's part of the dashboard: its name, its count against the limit, its links and the pages around them. */
export function teamSection(listing: TeamListing, query: ListQuery): Html {
  const { team, links } = listing;
  const headingId = `team-${team.id}`;
  const held = listing.count === null ? null : isLifted(listing.max) ? count(listing.count, 'link') : `${listing.count} of ${count(listing.max, 'link')}`;
  const countLine = held === null ? html`` : html`<p class="count">${held}</p>`;
  const list = links.length
    ? html`${matchesLine(listing.matches)}<ul class="links">${links.map((link) => linkItem(link, listing.recent.get(link.id) ?? 0))}</ul>`
    : html`<p class="muted">${isFiltered(query) ? 'No links match.' : 'No links yet.'}</p>`;
  return html`<section class="team" aria-labelledby="${headingId}">
<div class="team-head"><h2 id="${headingId}"><a href="/teams/${team.id}">${team.name}</a></h2>${countLine}</div>
${list}
${pages(listing, query)}
</section>`;
}

/** "Newer links" and "Older links" of one team, when there are any; a nav of its own, named after the team. */
function pages(listing: TeamListing, query: ListQuery): Html {
  const newer = query.team === listing.team.id ? newerHref(query) : null;
  const older = listing.next === null ? null : olderHref(query, listing.team.id, listing.next);
  if (newer === null && older === null) return html``;
  return html`<nav class="pages" aria-label="Pages of ${listing.team.name}">${
    newer === null ? html`` : html`<a href="${newer}" rel="prev">← Newer links</a>`
  }${older === null ? html`` : html`<a href="${older}" rel="next">Older links →</a>`}</nav>`;
}

/** Edit, unless the link is disabled: it takes no change (its page says so), only deletion. */
function editAction(link: Link, short: string): Html {
  return link.state === 'disabled' ? html`` : html`<a href="/app/links/${link.code}/edit" aria-label="Edit ${short}">Edit</a>`;
}

/** A link's tags, each leading to the dashboard's links carrying it. */
function tagLinks(tags: readonly string[]): Html[] {
  return tags.map((tag, i) => html`${i === 0 ? '' : ', '}<a href="/app?tag=${tag}">${tag}</a>`);
}

function linkItem(link: Link, recent: number): Html {
  const addresses = shortAddresses(link);
  const short = addresses[0]!;
  return html`<li>
<ul class="addresses">${addresses.map(copyableAddress)}</ul>
<p class="destination">${link.destination}</p>
${link.note ? html`<p class="note">${link.note}</p>` : html``}
${link.tags.length > 0 ? html`<p class="meta tags">Tags: ${tagLinks(link.tags)}</p>` : html``}
<p class="meta"><span class="state state-${link.state}">${link.state}</span> · made ${when(link.createdAt, { dayOnly: true })} · <span class="recent">${count(recent, 'click')} in ${RECENT_CLICK_DAYS} days</span></p>
<p class="actions"><a href="/app/links/${link.code}" aria-label="Details and clicks of ${short}">Details and clicks</a>${editAction(link, short)}<a href="/app/links/${link.code}/delete" aria-label="Delete ${short}…">Delete…</a></p>
</li>`;
}
