import { CLICK_DAYS, RECENT_CLICK_DAYS } from '../../domain/days.js';
import type { View } from './document.js';

/**
 * The clicks chart, for linkClicks: the 7- and 30-day totals, the 30 days as bars (each bar names its day and
 * count for screen readers and on hover), and the same numbers as a table for whoever wants them exactly.
 */
export const clicksChart: View = {
  title: 'Clicks of a short link',
  style: `
.totals{display:flex;flex-wrap:wrap;gap:8px 24px;margin:0 0 12px}
.total{display:flex;flex-direction:column}
.total strong{font-size:1.6rem;line-height:1.2}
.chart{display:block;width:100%;height:140px;border-bottom:1px solid var(--line)}
.chart rect{fill:var(--bar)}
.axis{display:flex;justify-content:space-between;font-size:.85rem;color:var(--muted);margin:4px 0 8px}
details{margin-top:4px}
summary{cursor:pointer;color:var(--accent)}
summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
table{border-collapse:collapse;margin-top:6px}
td,th{padding:2px 12px 2px 0;text-align:left}
td+td{text-align:right}
`,
  script: String.raw`
var shownCode = null;

function total(label, count) {
  return el('p', 'total', [el('span', 'muted', [label]), el('strong', '', [String(count)])]);
}

function chart(days) {
  var most = days.reduce(function (top, day) { return Math.max(top, day.clicks); }, 0);
  var width = days.length * 10;
  var svg = svgEl('svg', { viewBox: '0 0 ' + width + ' 100', preserveAspectRatio: 'none', class: 'chart', role: 'img' });
  svg.setAttribute('aria-label', 'Clicks per day, ' + days[0].date + ' to ' + days[days.length - 1].date + '; the most in a day: ' + most);
  days.forEach(function (day, index) {
    // A day with any click keeps a visible sliver, however busy the busiest day was.
    var height = day.clicks === 0 ? 0 : Math.max(1, Math.round((day.clicks / most) * 96));
    var bar = svgEl('rect', { x: index * 10 + 1, y: 100 - height, width: 8, height: height, 'data-date': day.date, 'data-clicks': day.clicks });
    var title = svgEl('title', {});
    title.textContent = day.date + ': ' + day.clicks + (day.clicks === 1 ? ' click' : ' clicks');
    bar.appendChild(title);
    svg.appendChild(bar);
  });
  return svg;
}

function numbers(days) {
  var rows = days.slice().reverse().map(function (day) { return el('tr', '', [el('td', '', [day.date]), el('td', '', [String(day.clicks)])]); });
  var table = el('table', '', [el('thead', '', [el('tr', '', [el('th', '', ['Day (UTC)']), el('th', '', ['Clicks'])])]), el('tbody', '', rows)]);
  return el('details', '', [el('summary', '', ['Every day']), table]);
}

var view = {
  input: function (args) { if (typeof args.code === 'string') shownCode = args.code; },
  result: function (result) {
    var answer = result.structuredContent;
    var days = isObject(answer) && Array.isArray(answer.days) ? answer.days.filter(function (day) {
      return isObject(day) && typeof day.date === 'string' && typeof day.clicks === 'number' && day.clicks >= 0;
    }) : [];
    if (days.length === 0) return show([el('p', 'muted', ['This result holds no clicks.'])]);
    var heading = el('h1', '', ['Clicks, last ${CLICK_DAYS} days']);
    if (shownCode !== null) heading = el('h1', '', ['Clicks of ', el('span', 'address', [shortAddress(shownCode)])]);
    show([
      heading,
      el('div', 'totals', [total('Last ${RECENT_CLICK_DAYS} days', Number(answer.last7)), total('Last ${CLICK_DAYS} days', Number(answer.last30))]),
      chart(days),
      el('div', 'axis', [el('span', '', [days[0].date]), el('span', '', [days[days.length - 1].date])]),
      numbers(days),
      el('p', 'muted', ['Estimated: bots, link previews and link checkers are not counted.']),
    ]);
  },
};
`,
};
