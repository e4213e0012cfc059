/**
 * The script every view shares, run in the host's sandboxed frame: the extension's JSON-RPC over postMessage with
 * the host (ui/initialize, then the tool-input and tool-result notifications, tools/call and ui/open-link as
 * requests), the host's theme, and helpers that build the page with DOM calls only. Nothing is ever parsed as
 * markup, so whatever a tool result holds shows as text. Plain ES2017, since it runs as it is in any host's browser.
 *
 * A view's script defines `view = { input(args), result(callToolResult) }` and may use everything here.
 */
export const BRIDGE_SCRIPT = String.raw`
var pending = {};
var nextId = 1;
var SVG_NS = 'http://www.w3.org/2000/svg';
var root = document.getElementById('view');

function post(message) { window.parent.postMessage(message, '*'); }

function request(method, params) {
  var id = nextId++;
  post({ jsonrpc: '2.0', id: id, method: method, params: params });
  return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
}

function notify(method, params) { post({ jsonrpc: '2.0', method: method, params: params }); }

/** A tool of this server, called through the host, which calls it as the person: their access applies. */
function callTool(name, args) { return request('tools/call', { name: name, arguments: args }); }

/** A sandboxed frame may not open windows itself; the host opens the address (and may ask the person first). */
function openLink(url) { return request('ui/open-link', { url: url }); }

function applyContext(context) {
  if (!context || typeof context !== 'object') return;
  if (context.theme === 'light' || context.theme === 'dark') document.documentElement.setAttribute('data-theme', context.theme);
}

function el(tag, className, children) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  (children || []).forEach(function (child) {
    node.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  });
  return node;
}

function svgEl(tag, attributes) {
  var node = document.createElementNS(SVG_NS, tag);
  Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, String(attributes[name])); });
  return node;
}

/** Puts the nodes in place of what the view showed, or a part of it (place). */
function show(nodes, place) {
  var into = place || root;
  into.textContent = '';
  nodes.forEach(function (node) { into.appendChild(node); });
}

function shortAddress(codeOrName) { return CONFIG.publicUrl + '/' + codeOrName; }

function isObject(value) { return typeof value === 'object' && value !== null && !Array.isArray(value); }

/** The words of a failed call: the problem's detail (the service's errors are JSON problems), else its text. */
function failureOf(result) {
  var text = result && Array.isArray(result.content) && result.content[0] && result.content[0].text;
  try {
    var problem = JSON.parse(String(text));
    if (isObject(problem) && typeof problem.detail === 'string') return problem.detail;
  } catch (e) { /* not JSON: shown as it is */ }
  return typeof text === 'string' && text !== '' ? text : 'The call failed.';
}

function failed(result) {
  show([el('p', 'error', ['This did not work: ' + failureOf(result)])]);
}

/** A button that copies text: the clipboard when the host allows it, else a selection the person copies. */
function copyButton(text, label) {
  var status = el('span', 'status', []);
  status.setAttribute('role', 'status');
  var button = el('button', '', ['Copy']);
  button.type = 'button';
  button.setAttribute('aria-label', label);
  button.addEventListener('click', function () {
    var done = function () { status.textContent = 'Copied'; };
    var fallback = function () {
      var area = el('textarea', '', []);
      area.value = text;
      area.setAttribute('readonly', '');
      document.body.appendChild(area);
      area.select();
      var copied = false;
      try { copied = document.execCommand('copy'); } catch (e) { copied = false; }
      document.body.removeChild(area);
      status.textContent = copied ? 'Copied' : 'Select the address to copy it';
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  });
  return { button: button, status: status };
}

/** A short address with its copy button, on one line that wraps at narrow widths. */
function addressRow(address, label) {
  var copy = copyButton(address, 'Copy ' + label);
  var shown = el('span', 'address', [address]);
  return el('div', 'row', [shown, copy.button, copy.status]);
}

function start(view) {
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent) return;
    var message = event.data;
    if (!isObject(message) || message.jsonrpc !== '2.0') return;
    if (message.method === undefined && Object.prototype.hasOwnProperty.call(pending, message.id)) {
      var waiting = pending[message.id];
      delete pending[message.id];
      if (message.error) waiting.reject(message.error); else waiting.resolve(message.result);
      return;
    }
    var params = isObject(message.params) ? message.params : {};
    if (message.method === 'ui/notifications/tool-input') view.input(isObject(params.arguments) ? params.arguments : {});
    else if (message.method === 'ui/notifications/tool-result') {
      if (params.isError) failed(params); else view.result(params);
    } else if (message.method === 'ui/notifications/tool-cancelled') show([el('p', 'muted', ['The call was cancelled.'])]);
    else if (message.method === 'ui/notifications/host-context-changed') applyContext(params);
    else if (message.method === 'ui/resource-teardown' && message.id !== undefined) post({ jsonrpc: '2.0', id: message.id, result: {} });
    else if (message.id !== undefined && typeof message.method === 'string') {
      post({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  });
  var initialize = {
    appInfo: { name: 'shortlinks', version: '1' },
    appCapabilities: { availableDisplayModes: ['inline'] },
    protocolVersion: CONFIG.protocolVersion,
  };
  request('ui/initialize', initialize).then(function (result) {
    applyContext(result && result.hostContext);
    notify('ui/notifications/initialized', {});
  }, function () { /* a host that refuses still sends the result, which is all a view needs */ });
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(function () {
      var box = document.documentElement.getBoundingClientRect();
      notify('ui/notifications/size-changed', { width: Math.ceil(box.width), height: Math.ceil(box.height) });
    }).observe(document.documentElement);
  }
}
`;
