import { CLICK_DAYS, RECENT_CLICK_DAYS } from '../../domain/days.js';
import type { View } from './document.js';
import { QR_META_KEY } from './view-data.js';

/**
 * The link card, for every tool that answers links (createLink, createLinks, linkByCode, changeDestination,
 * renameLink, setNote, setLinkOptions): each link's short addresses with copy buttons, its QR code, destination, note
 * and state, the options it has (when it ends, its click cap, that a password guards it, its tags), its clicks on
 * request (linkClicks, through the host) and its page in the web app. createLinks' failed items are listed with
 * their messages.
 */
export const linkCard: View = {
  title: 'Short link',
  style: `
.card{border-top:1px solid var(--line);padding-top:12px;margin-top:12px}
.card:first-child{border-top:0;padding-top:0;margin-top:0}
.top{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.qr{width:132px;height:132px;flex:none;background:#fff;border:1px solid var(--line);border-radius:4px}
.addresses{flex:1 1 160px;min-width:0}
.clicks{margin:4px 0 0}
.options{list-style:none;padding:0;margin:0 0 8px}
.tags{list-style:none;padding:0;margin:0 0 8px;display:flex;flex-wrap:wrap;gap:4px}
.tag{border:1px solid var(--line);border-radius:999px;padding:0 8px;font-size:.85rem;overflow-wrap:anywhere;min-width:0}
`,
  script: String.raw`
var STATE_WORDS = {
  active: 'Active',
  flagged: 'Flagged: visitors see a warning page before the destination',
  disabled: 'Disabled: visitors get a page saying the link no longer works',
};

/** The QR code from the rows the server drew (1 = dark), as one SVG path on white with a quiet zone. */
function qrCode(rows, address) {
  if (!Array.isArray(rows) || rows.length === 0 || !rows.every(function (row) { return typeof row === 'string' && /^[01]+$/.test(row) && row.length === rows.length; })) return null;
  var size = rows.length + 4;
  var path = '';
  rows.forEach(function (row, y) {
    for (var x = 0; x < row.length; x++) if (row[x] === '1') path += 'M' + (x + 2) + ' ' + (y + 2) + 'h1v1h-1z';
  });
  var svg = svgEl('svg', { viewBox: '0 0 ' + size + ' ' + size, class: 'qr', role: 'img', 'shape-rendering': 'crispEdges' });
  svg.setAttribute('aria-label', 'QR code for ' + address);
  svg.appendChild(svgEl('rect', { width: size, height: size, fill: '#fff' }));
  svg.appendChild(svgEl('path', { d: path, fill: '#000' }));
  return svg;
}

var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function twoDigits(number) { return (number < 10 ? '0' : '') + number; }

/** A moment as people read it, in UTC (the service's time, whatever the reader's zone): 31 Jan 2027, 18:00 UTC. */
function utcMoment(date) {
  return date.getUTCDate() + ' ' + MONTHS[date.getUTCMonth()] + ' ' + date.getUTCFullYear() + ', ' +
    twoDigits(date.getUTCHours()) + ':' + twoDigits(date.getUTCMinutes()) + ' UTC';
}

/** 10000000 as 10,000,000. */
function grouped(number) { return String(number).replace(/\B(?=(\d{3})+$)/g, ','); }

/**
 * The options a link has, one line each, and its tags as chips; nothing for a link without options. Whether it
 * ended is told by this frame's clock at the time it draws, as the card knows no other; the click cap's count is not
 * in the result, so a cap is told as it is.
 */
function linkOptions(link) {
  var lines = [];
  var ends = typeof link.expiresAt === 'string' ? new Date(link.expiresAt) : null;
  if (ends && !isNaN(ends.getTime())) lines.push((ends.getTime() <= Date.now() ? 'Ended ' : 'Ends ') + utcMoment(ends));
  if (typeof link.maxClicks === 'number' && link.maxClicks >= 1 && Math.floor(link.maxClicks) === link.maxClicks) {
    lines.push('Ends after ' + grouped(link.maxClicks) + (link.maxClicks === 1 ? ' click' : ' clicks'));
  }
  if (link.hasPassword === true) lines.push('Protected by a password');
  var nodes = lines.length ? [el('ul', 'options', lines.map(function (line) { return el('li', '', [line]); }))] : [];
  var tags = Array.isArray(link.tags) ? link.tags.filter(function (tag) { return typeof tag === 'string' && tag !== ''; }) : [];
  if (tags.length) {
    var chips = el('ul', 'tags', tags.map(function (tag) { return el('li', 'tag', [tag]); }));
    chips.setAttribute('aria-label', 'Tags');
    nodes.push(chips);
  }
  return nodes;
}

function isLink(value) {
  return isObject(value) && typeof value.code === 'string' && typeof value.destination === 'string';
}

function linkCard(link, qrRows) {
  var address = typeof link.shortUrl === 'string' ? link.shortUrl : shortAddress(link.code);
  var addresses = el('div', 'addresses', [addressRow(address, 'short link ' + address)]);
  var byName = typeof link.nameUrl === 'string' ? link.nameUrl : typeof link.name === 'string' ? shortAddress(link.name) : null;
  if (byName !== null) addresses.appendChild(addressRow(byName, 'link by name ' + byName));
  var top = el('div', 'top', []);
  var qr = qrCode(qrRows, address);
  if (qr) top.appendChild(qr);
  top.appendChild(addresses);
  var state = String(link.state);
  var stateText = el('dd', 'state-' + state.replace(/[^a-z]/g, ''), [STATE_WORDS[state] || state]);
  var facts = el('dl', '', [
    el('dt', '', ['Leads to']), el('dd', 'wrap', [String(link.destination)]),
    el('dt', '', ['Note']), el('dd', 'wrap', [typeof link.note === 'string' ? link.note : 'No note']),
    el('dt', '', ['State']), stateText,
  ]);

  var clicks = el('p', 'clicks status', []);
  clicks.setAttribute('role', 'status');
  var seeClicks = el('button', '', ['See clicks']);
  seeClicks.type = 'button';
  seeClicks.setAttribute('aria-label', 'See clicks of ' + address);
  seeClicks.addEventListener('click', function () {
    clicks.textContent = 'Counting…';
    callTool('linkClicks', { code: link.code }).then(function (result) {
      var counted = result && result.structuredContent;
      if (result && !result.isError && isObject(counted)) {
        clicks.textContent = 'Clicks: ' + Number(counted.last7) + ' in ${RECENT_CLICK_DAYS} days, ' + Number(counted.last30) + ' in ${CLICK_DAYS} days';
      } else clicks.textContent = 'Clicks: ' + failureOf(result);
    }, function () { clicks.textContent = 'The host could not ask for the clicks.'; });
  });
  var page = el('button', '', ['Open in shortlinks']);
  page.type = 'button';
  page.setAttribute('aria-label', 'Open the page of ' + address + ' in shortlinks');
  page.addEventListener('click', function () { openLink(CONFIG.publicUrl + '/app/links/' + encodeURIComponent(link.code)); });

  return el('section', 'card', [top, facts].concat(linkOptions(link), [el('div', 'row', [seeClicks, page]), clicks]));
}

var view = {
  input: function () {},
  result: function (result) {
    var answer = result.structuredContent;
    var qrCodes = isObject(result._meta) && isObject(result._meta['${QR_META_KEY}']) ? result._meta['${QR_META_KEY}'] : {};
    var qrOf = function (link) { return Object.prototype.hasOwnProperty.call(qrCodes, link.code) ? qrCodes[link.code] : null; };
    if (isLink(answer)) return show([linkCard(answer, qrOf(answer))]);
    if (isObject(answer) && Array.isArray(answer.results)) {
      var nodes = [];
      answer.results.forEach(function (item, index) {
        if (isObject(item) && isLink(item.link)) nodes.push(linkCard(item.link, qrOf(item.link)));
        else if (isObject(item)) nodes.push(el('p', 'card error', ['Link ' + (index + 1) + ' was not made: ' + String(item.message)]));
      });
      return show(nodes.length ? nodes : [el('p', 'muted', ['No links.'])]);
    }
    show([el('p', 'muted', ['This result holds no link.'])]);
  },
};
`,
};
