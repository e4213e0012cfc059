import { count } from '../shared/words.js';
import { html, raw, type Html } from './html.js';

/** One day's count, as the linkClicks tool returns it (`YYYY-MM-DD`, UTC). */
export interface DayClicks {
  date: string;
  clicks: number;
}

// The drawing's own units; the SVG scales to the width it is given (100%, at most 36rem), so it fits a 390 px
// phone (about 0.75 px a unit there, so its 15-unit text stays readable) without growing huge on a wide screen.
const WIDTH = 480;
const HEIGHT = 230;
const LEFT = 40; // room for the y axis' numbers
const RIGHT = 8;
const TOP = 28; // room for a focused bar's value above the tallest bar
const BOTTOM = 30; // room for the day labels
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * The chart's styles: bars and text take the page's colour variables (layout.ts), so they follow the dark scheme;
 * a hovered or focused bar shows its value in the drawing itself (no script needed), and its <title> gives the
 * pointer's tooltip.
 */
const STYLE = raw(`<style>
  .chart svg { display: block; width: 100%; max-width: 36rem; height: auto; overflow: visible; }
  .chart .axis { stroke: var(--field); stroke-width: 1; }
  .chart .grid { stroke: var(--grid); stroke-width: 1; }
  .chart text { fill: var(--muted); font: 15px system-ui, sans-serif; }
  .chart .bar rect.fill { fill: var(--accent); }
  .chart .bar rect.hit { fill: transparent; }
  .chart .bar .value { opacity: 0; fill: var(--fg); font-weight: 700; }
  .chart .bar:hover rect.fill, .chart .bar:focus rect.fill { fill: var(--accent-strong); }
  .chart .bar:hover .value, .chart .bar:focus .value { opacity: 1; }
  .chart .bar:focus { outline: none; }
  .chart .bar:focus rect.hit { stroke: var(--focus); stroke-width: 3; }
  .totals { display: flex; flex-wrap: wrap; gap: .25rem 2rem; margin: 0 0 .5rem; padding: 0; list-style: none; }
  .totals strong { font-size: 1.4rem; }
  /* On a wrapper, not the table: a table ignores the height and overflow that keep this out of the layout. */
  .visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
</style>`);

/** `3 November` for `2026-11-03`: how the bars and the table name a day. */
export function dayName(date: string): string {
  const [, month, day] = date.split('-').map(Number);
  return `${day} ${MONTHS[month! - 1]}`;
}

const shortDay = (date: string) => dayName(date).slice(0, dayName(date).indexOf(' ') + 4);
/** Coordinates to a tenth of a unit: plenty for a drawing 600 units wide, and a shorter page. */
const r = (n: number) => Math.round(n * 10) / 10;

/**
 * Round tick values for the y axis: 0 up to a top of 1, 2 or 5 times a power of ten, in at most about 5 steps.
 * A chart of no clicks still gets an axis (0 to 4), so an empty month reads as zero rather than as missing.
 */
export function yTicks(max: number): number[] {
  if (max <= 0) return [0, 1, 2, 3, 4];
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough)!);
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: top / step + 1 }, (_, i) => i * step);
}

/**
 * Clicks per day as a bar chart drawn on the server (an inline SVG: no script, so it shows everywhere), with the
 * 7- and 30-day totals above it and the same numbers as a table for screen readers. Each bar is focusable and
 * named ("12 clicks on 3 November"), so keyboard and screen-reader users can read the values bar by bar too.
 */
export function clicksChart(days: DayClicks[], totals: { last7: number; last30: number }): Html {
  const ticks = yTicks(Math.max(0, ...days.map((d) => d.clicks)));
  const top = ticks.at(-1)!;
  const y = (n: number) => r(TOP + PLOT_H - (n / top) * PLOT_H);
  const slot = PLOT_W / days.length;
  const barW = r(Math.max(2, slot * 0.7));

  const grid = ticks.map(
    (t) => html`<line class="${t === 0 ? 'axis' : 'grid'}" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(t)}" y2="${y(t)}"/><text x="${LEFT - 6}" y="${y(t) + 5}" text-anchor="end">${t}</text>`,
  );
  const bars = days.map((day, i) => {
    const x = r(LEFT + i * slot + (slot - barW) / 2);
    const name = `${count(day.clicks, 'click')} on ${dayName(day.date)}`;
    // The value's label stays inside the drawing at both ends.
    const labelX = r(Math.min(Math.max(x + barW / 2, LEFT + 20), WIDTH - RIGHT - 20));
    return html`<g class="bar" tabindex="0" role="img" aria-label="${name}" data-date="${day.date}" data-clicks="${day.clicks}"><title>${name}</title><rect class="hit" x="${x}" y="${TOP}" width="${barW}" height="${PLOT_H}"/><rect class="fill" x="${x}" y="${y(day.clicks)}" width="${barW}" height="${r((day.clicks / top) * PLOT_H)}"/><text class="value" x="${labelX}" y="${Math.max(y(day.clicks) - 6, 16)}" text-anchor="middle" aria-hidden="true">${day.clicks}</text></g>`;
  });
  // A label a week apart, counted back from today so the newest day is always named.
  const labels = days
    .map((day, i) => ({ day, i }))
    .filter(({ i }) => (days.length - 1 - i) % 7 === 0)
    .map(({ day, i }) => {
      const x = r(Math.min(LEFT + i * slot + slot / 2, WIDTH - RIGHT - 22));
      return html`<text x="${x}" y="${HEIGHT - 8}" text-anchor="middle">${shortDay(day.date)}</text>`;
    });
  const rows = days.map((day) => html`<tr><th scope="row">${dayName(day.date)}</th><td>${day.clicks}</td></tr>`);
  const first = days[0] ? dayName(days[0].date) : '';
  const last = days.at(-1) ? dayName(days.at(-1)!.date) : '';

  return html`${STYLE}<section class="chart" aria-labelledby="clicks-heading">
<h2 id="clicks-heading">Clicks</h2>
<ul class="totals"><li>Last 7 days: <strong id="last7">${totals.last7}</strong></li><li>Last 30 days: <strong id="last30">${totals.last30}</strong></li></ul>
<p class="muted" id="clicks-about">Clicks per day, ${first} to ${last} (UTC). Bots and link previews are not counted.</p>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="group" aria-labelledby="clicks-heading" aria-describedby="clicks-about" preserveAspectRatio="xMidYMid meet">
<g aria-hidden="true">${grid}<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${TOP + PLOT_H}"/>${labels}</g>${bars}
</svg>
<div class="visually-hidden"><table><caption>Clicks per day, last 30 days (UTC)</caption><thead><tr><th scope="col">Day</th><th scope="col">Clicks</th></tr></thead><tbody>${rows}</tbody></table></div>
</section>`;
}
