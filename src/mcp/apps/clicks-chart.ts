import { CLICK_DAYS, RECENT_CLICK_DAYS } from '../../domain/days.js';
import type { View } from './document.js';
import { ADDRESS_META_KEY } from './view-data.js';

/** Rows of each table of where clicks came from; past them, one "Other" row sums the rest. */
const TOP_ROWS = 5;

/**
 * The clicks chart, for linkClicks: the 7- and 30-day totals, the 30 days as bars (each bar names its day and
 * count for screen readers and on hover), the same numbers as a table for whoever wants them exactly, and under
 * them the top countries and referrers of the same 30 days. Those the view asks for itself, calling clickBreakdown
 * through the host (tools/call, as the link card asks for clicks): linkClicks answers exactly what the spec says,
 * every client gets the same result, the host makes the call as the person (their access and budget apply), and
 * only a host that shows the view pays for the two reads.
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
.tops{display:flex;flex-wrap:wrap;gap:0 32px;margin-top:12px}
.tops table{margin:0 0 8px}
.tops caption{text-align:left;font-weight:600;padding-bottom:2px}
.tops tbody th{font-weight:400;overflow-wrap:anywhere}
.tops td{text-align:right}
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

/** The largest rows of a clickBreakdown answer, at most ${TOP_ROWS}, the rest summed as Other. */
function topRows(answer) {
  var rows = isObject(answer) && Array.isArray(answer.rows) ? answer.rows.filter(function (row) {
    return isObject(row) && typeof row.label === 'string' && typeof row.clicks === 'number';
  }) : [];
  if (rows.length <= ${TOP_ROWS}) return rows;
  var rest = rows.slice(${TOP_ROWS - 1}).reduce(function (sum, row) { return sum + row.clicks; }, 0);
  return rows.slice(0, ${TOP_ROWS - 1}).concat([{ label: 'Other', clicks: rest }]);
}

function topTable(caption, column, answer) {
  var head = [column, 'Clicks'].map(function (name) { var th = el('th', '', [name]); th.setAttribute('scope', 'col'); return th; });
  var rows = topRows(answer).map(function (row) {
    var th = el('th', '', [row.label]);
    th.setAttribute('scope', 'row');
    return el('tr', '', [th, el('td', '', [String(row.clicks)])]);
  });
  if (rows.length === 0) rows = [el('tr', '', [el('td', 'muted', ['None yet']), el('td', '', [])])];
  return el('table', '', [el('caption', '', [caption]), el('thead', '', [el('tr', '', head)]), el('tbody', '', rows)]);
}

/** The licence of DB-IP's database (CC BY 4.0) asks for its name where its countries show. */
function attribution() {
  var link = el('a', '', ['IP geolocation by DB-IP']);
  link.href = 'https://db-ip.com';
  link.addEventListener('click', function (event) { event.preventDefault(); openLink('https://db-ip.com'); });
  return el('p', 'muted', [link]);
}

/** Asks the host for the link's top countries and referrers, and shows them in place of what the section held. */
function whereFrom(code, place) {
  var ask = function (by) { return callTool('clickBreakdown', { code: code, by: by, days: ${CLICK_DAYS} }); };
  Promise.all([ask('country'), ask('referrer')]).then(function (results) {
    var refused = results.filter(function (result) { return !result || result.isError || !isObject(result.structuredContent); })[0];
    if (refused !== undefined) return show([el('p', 'muted', ['Where the clicks came from: ' + failureOf(refused)])], place);
    var tables = el('div', 'tops', [
      topTable('Top countries', 'Country', results[0].structuredContent),
      topTable('Top referrers', 'Came from', results[1].structuredContent),
    ]);
    show(CONFIG.dbIp ? [tables, attribution()] : [tables], place);
  }, function () { show([el('p', 'muted', ['The host could not ask where the clicks came from.'])], place); });
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
    // The address the link is shown at (its team's domain, or the service's), as the result's _meta names it.
    var named = isObject(result._meta) && typeof result._meta['${ADDRESS_META_KEY}'] === 'string' ? result._meta['${ADDRESS_META_KEY}'] : null;
    if (shownCode !== null) heading = el('h1', '', ['Clicks of ', el('span', 'address', [named !== null ? named : shortAddress(shownCode)])]);
    var where = el('section', 'where', []);
    where.setAttribute('aria-label', 'Where the clicks came from');
    show([
      heading,
      el('div', 'totals', [total('Last ${RECENT_CLICK_DAYS} days', Number(answer.last7)), total('Last ${CLICK_DAYS} days', Number(answer.last30))]),
      chart(days),
      el('div', 'axis', [el('span', '', [days[0].date]), el('span', '', [days[days.length - 1].date])]),
      numbers(days),
      el('p', 'muted', ['Estimated: bots, link previews and link checkers are not counted.']),
      where,
    ]);
    if (shownCode !== null) whereFrom(shownCode, where);
  },
};
`,
};
