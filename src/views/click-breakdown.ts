import type { z } from 'zod';
import type { Config } from '../config.js';
import { foldOther, OTHER, UNCOUNTED_CLASSES, type BreakdownBy, type UncountedClass } from '../domain/analytics.js';
import type { clickBreakdown } from '../tools/click-breakdown.js';
import { count } from '../shared/words.js';
import { dayName } from './clicks-chart.js';
import { html, raw, type Html } from './html.js';

/**
 * True when countries come from the DB-IP database the service ships (no GEOIP_DATABASE of the operator's): its
 * licence, CC BY 4.0, asks for "IP geolocation by DB-IP" beside them, on every page and view that shows them.
 */
export function showsDbIpAttribution(config: Pick<Config, 'geoipDatabase'>): boolean {
  return config.geoipDatabase === undefined;
}

/** One answer of the clickBreakdown tool, as a page draws it. */
export type Breakdown = z.output<(typeof clickBreakdown)['output']>;
/** A row as a table shows it: its share is worked out against the total, so a folded row needs none. */
type Row = Omit<Breakdown['rows'][number], 'share'>;

/** The days a page offers, as links (no script needed); the tool takes any of 1 to 90. */
export const PAGE_DAYS = [7, 30, 90] as const;
/** Rows a table shows; past them, one "Other" row sums the rest (the tool answers up to 100). */
export const SHOWN_ROWS = 10;

/** The tables of a facet, in the order a page shows them, with the words for their column of values. */
const FACET_TABLES: ReadonlyArray<{ by: BreakdownBy; caption: string; column: string }> = [
  { by: 'country', caption: 'Countries', column: 'Country' },
  { by: 'referrer', caption: 'Referrers', column: 'Came from' },
  { by: 'device', caption: 'Devices', column: 'Device' },
  { by: 'browser', caption: 'Browsers', column: 'Browser' },
  { by: 'os', caption: 'Operating systems', column: 'System' },
  { by: 'source', caption: 'QR code or link', column: 'Reached by' },
];

/** What each class of requests not counted as clicks is, for the person reading the table. */
const UNCOUNTED_WORDS: Record<UncountedClass, string> = {
  bot: 'Bots and crawlers',
  preview: 'Link previews (chat and social apps)',
  assistant: 'AI assistants fetching for a person',
  checker: 'Link checkers (prefetch, uptime, mail scanners)',
};

const STYLE = raw(`<style>
  .analytics .days ul { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; margin: 0 0 .5rem; padding: 0; }
  .analytics .days a[aria-current] { font-weight: 700; color: var(--fg); text-decoration: none; }
  .analytics .sums { display: flex; flex-wrap: wrap; gap: .25rem 2rem; margin: 0 0 .5rem; padding: 0; list-style: none; }
  .analytics .sums strong { font-size: 1.4rem; }
  .breakdowns { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 20rem), 1fr)); gap: 0 1.5rem; }
  .breakdowns > div { min-width: 0; }
  table.breakdown caption { text-align: left; font-weight: 700; padding: .25rem 0; }
  table.breakdown tbody th { color: var(--fg); font-size: 1rem; font-weight: 400; overflow-wrap: anywhere; }
  table.breakdown td { text-align: right; white-space: nowrap; width: 1%; }
  table.breakdown td.none { text-align: left; white-space: normal; }
  .analytics .attribution { font-size: .85rem; margin: -.5rem 0 1rem; }
</style>`);

/** What a page shows of a link's or a team's clicks: the tool's answers by `by`, and what goes around them. */
export interface ClickAnalytics {
  /** The days shown, one of PAGE_DAYS. */
  days: number;
  /** The tool's answers: every facet and `visitor`; `link` for a team. */
  answers: Partial<Record<BreakdownBy, Breakdown>>;
  /** Countries come from DB-IP's database, whose licence (CC BY 4.0) asks for its name beside them. */
  dbIpAttribution: boolean;
  /** The service records where clicks come from (`ANALYTICS`, on unless the operator turned it off). */
  recording: boolean;
  /** The address of the CSV download of the same days (a team's page). */
  download?: string;
}

/**
 * Where a link's or a team's clicks came from, drawn on the server: a choice of 7, 30 or 90 days (links, so no
 * script is needed), the counted clicks and estimated visitors, a table per facet (the team's top links first),
 * the requests not counted by class, and the clicks and visitors per day folded away. Tables carry captions and
 * header cells, so a screen reader names every number.
 */
export function clickAnalytics(view: ClickAnalytics): Html {
  const { answers } = view;
  const any = Object.values(answers)[0];
  if (!any) return html``;
  const tables = [
    answers.link ? linkTable(answers.link) : html``,
    FACET_TABLES.map(({ by, caption, column }) => {
      const answer = answers[by];
      if (!answer) return html``;
      const attribution = by === 'country' && view.dbIpAttribution ? html`<p class="attribution muted"><a href="https://db-ip.com">IP geolocation by DB-IP</a></p>` : html``;
      return html`<div>${breakdownTable(answer, { caption, column, id: `by-${by}` })}${attribution}</div>`;
    }),
    html`<div>${notCountedTable(any)}</div>`,
  ];
  return html`${STYLE}<section class="analytics" id="analytics" aria-labelledby="analytics-heading">
<h2 id="analytics-heading">Where clicks come from</h2>
${daysChoice(view.days)}
<p class="muted">Counted clicks, ${dayName(any.from)} to ${dayName(any.to)} (UTC). Nothing that identifies a visitor is stored.</p>
${view.recording ? html`` : html`<p class="notice">This service records only the clicks per day (ANALYTICS=off): the tables below hold only what was recorded before.</p>`}
<ul class="sums"><li>Clicks: <strong id="breakdown-clicks">${any.total.clicks}</strong></li><li>Visitors (estimated, once a day): <strong id="breakdown-visitors">${any.total.visitors}</strong></li></ul>
${view.download ? html`<p><a href="${view.download}" download>Download CSV</a> <span class="muted">(clicks and visitors per link and day)</span></p>` : html``}
<div class="breakdowns">${tables}</div>
${answers.visitor ? perDay(answers.visitor) : html``}
</section>`;
}

/** Links to the same page for each of PAGE_DAYS, the one shown marked; each lands back on this section. */
function daysChoice(days: number): Html {
  const links = PAGE_DAYS.map(
    (n) => html`<li><a href="?days=${n}#analytics"${n === days ? raw(' aria-current="true"') : ''}>Last ${n} days</a></li>`,
  );
  return html`<nav class="days" aria-label="Days shown"><ul>${links}</ul></nav>`;
}

/** A share of the counted clicks as people read it: `40%`, `33.3%`. */
function percent(clicks: number, total: number): string {
  return `${total === 0 ? 0 : Math.round((clicks / total) * 1000) / 10}%`;
}

function noRows(columns: number): Html {
  return html`<tr><td class="none muted" colspan="${columns}">No clicks in these days.</td></tr>`;
}

/** One facet's table: its values (in words) with their clicks and share, the largest first. */
export function breakdownTable(answer: Breakdown, words: { caption: string; column: string; id: string }): Html {
  const rows = foldOther(answer.rows, SHOWN_ROWS).map(
    (row) => html`<tr><th scope="row">${row.label}</th><td>${row.clicks}</td><td>${percent(row.clicks, answer.total.clicks)}</td></tr>`,
  );
  return html`<table class="breakdown" id="${words.id}"><caption>${words.caption}</caption>
<thead><tr><th scope="col">${words.column}</th><th scope="col">Clicks</th><th scope="col">Share</th></tr></thead>
<tbody>${rows.length ? rows : noRows(3)}</tbody></table>`;
}

/** A team's links by clicks, each leading to its page, with their visitors. */
function linkTable(answer: Breakdown): Html {
  const rows = foldOther(answer.rows, SHOWN_ROWS).map((row) => {
    const name = row.value === OTHER ? html`${row.label}` : html`<a href="/app/links/${row.value}">${row.label}</a>`;
    return html`<tr><th scope="row">${name}</th><td>${row.clicks}</td><td>${row.visitors ?? 0}</td><td>${percent(row.clicks, answer.total.clicks)}</td></tr>`;
  });
  return html`<div><table class="breakdown" id="by-link"><caption>Top links</caption>
<thead><tr><th scope="col">Link</th><th scope="col">Clicks</th><th scope="col">Visitors</th><th scope="col">Share</th></tr></thead>
<tbody>${rows.length ? rows : noRows(4)}</tbody></table></div>`;
}

/** The requests not counted as clicks, every class (0 included), so a quiet one shows as none rather than missing. */
function notCountedTable(answer: Breakdown): Html {
  const rows = UNCOUNTED_CLASSES.map((kind) => html`<tr><th scope="row">${UNCOUNTED_WORDS[kind]}</th><td>${answer.notCounted[kind]}</td></tr>`);
  return html`<table class="breakdown" id="not-counted"><caption>Not counted as clicks</caption>
<thead><tr><th scope="col">Requests from</th><th scope="col">Requests</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** The by=visitor series, every day of the range: folded away, since 90 rows would bury the tables above. */
function perDay(answer: Breakdown): Html {
  const rows = answer.rows.map((row) => html`<tr><th scope="row">${dayName(row.value)}</th><td>${row.clicks}</td><td>${row.visitors ?? 0}</td></tr>`);
  return html`<details class="per-day"><summary>Clicks and visitors per day (${count(answer.rows.length, 'day')})</summary>
<table class="breakdown" id="by-visitor"><caption>Clicks and estimated visitors per day (UTC)</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Clicks</th><th scope="col">Visitors</th></tr></thead>
<tbody>${rows}</tbody></table></details>`;
}
