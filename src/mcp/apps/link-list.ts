import type { View } from './document.js';

/**
 * The list, for teamLinks: one row per link (short address with a copy button, where it leads, its state, its
 * page in the web app) and, when there are more, a button that asks for the next page through the host.
 */
export const linkList: View = {
  title: 'Short links of a team',
  style: `
ol{list-style:none;margin:0;padding:0}
li{border-top:1px solid var(--line);padding:8px 0}
li:first-child{border-top:0;padding-top:0}
.dest{margin:0 0 4px}
`,
  script: String.raw`
var asked = {};

function row(link) {
  // At the team's address (its domain, or the service's), as the tool answers it.
  var address = typeof link.shortUrl === 'string' ? link.shortUrl : shortAddress(link.code);
  var page = el('button', '', ['Open']);
  page.type = 'button';
  page.setAttribute('aria-label', 'Open the page of ' + address + ' in shortlinks');
  page.addEventListener('click', function () { openLink(CONFIG.publicUrl + '/app/links/' + encodeURIComponent(link.code)); });
  var addressLine = addressRow(address, 'short link ' + address);
  addressLine.insertBefore(page, addressLine.lastChild);
  var parts = [addressLine, el('p', 'dest wrap', ['→ ' + String(link.destination)])];
  var facts = [];
  if (typeof link.name === 'string') facts.push('/' + link.name);
  if (link.state !== 'active') facts.push(String(link.state));
  if (typeof link.note === 'string') facts.push(link.note);
  if (facts.length) parts.push(el('p', 'muted wrap', [facts.join(' · ')]));
  return el('li', '', parts);
}

function render(answer) {
  var links = Array.isArray(answer.data) ? answer.data.filter(function (link) { return isObject(link) && typeof link.code === 'string'; }) : [];
  var nodes = [el('h1', '', [links.length === 0 ? 'No links here.' : links.length + (links.length === 1 ? ' link' : ' links')])];
  if (links.length) nodes.push(el('ol', '', links.map(row)));
  if (typeof answer.next === 'string' && typeof asked.team === 'string') {
    var more = el('button', 'primary', ['Next page']);
    more.type = 'button';
    var status = el('p', 'status', []);
    status.setAttribute('role', 'status');
    more.addEventListener('click', function () {
      status.textContent = 'Loading…';
      var args = { team: asked.team, after: answer.next };
      if (typeof asked.limit === 'number') args.limit = asked.limit;
      callTool('teamLinks', args).then(function (result) {
        if (result && !result.isError && isObject(result.structuredContent)) { render(result.structuredContent); window.scrollTo(0, 0); }
        else status.textContent = failureOf(result);
      }, function () { status.textContent = 'The host could not ask for the next page.'; });
    });
    nodes.push(el('div', 'row', [more]), status);
  }
  show(nodes);
}

var view = {
  input: function (args) { asked = isObject(args) ? args : {}; },
  result: function (result) {
    if (!isObject(result.structuredContent)) return show([el('p', 'muted', ['This result holds no links.'])]);
    render(result.structuredContent);
  },
};
`,
};
