import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A test host for MCP Apps views, as a chat host runs them: the view's HTML in an iframe with
 * `sandbox="allow-scripts"` (an opaque origin: no cookies, no storage, no way into the host), spoken to only by
 * postMessage in the extension's JSON-RPC. It answers ui/initialize with a host context (theme, width), then sends
 * the tool's input and result; it passes the view's tools/call to `window.callServerTool` (which the test exposes,
 * calling the real server) and records every message the view sent in `window.received`.
 */
const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test host</title>
<style>body{margin:0;background:#888}iframe{display:block;border:0;width:360px;height:200px}</style></head>
<body><script>
window.received = [];
window.mount = function (html, input, result, theme) {
  return new Promise(function (resolve) {
    var frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('title', 'view');
    window.addEventListener('message', async function (event) {
      if (event.source !== frame.contentWindow) return;
      var message = event.data;
      window.received.push(message);
      var send = function (body) { frame.contentWindow.postMessage(Object.assign({ jsonrpc: '2.0' }, body), '*'); };
      if (message.method === 'ui/initialize') {
        send({ id: message.id, result: {
          protocolVersion: '2026-01-26',
          hostInfo: { name: 'test-host', version: '1' },
          hostCapabilities: { openLinks: {}, serverTools: {} },
          hostContext: { theme: theme, displayMode: 'inline', platform: 'web', containerDimensions: { width: 360, maxHeight: 4000 } },
        } });
      } else if (message.method === 'ui/notifications/initialized') {
        send({ method: 'ui/notifications/tool-input', params: { arguments: input } });
        send({ method: 'ui/notifications/tool-result', params: result });
        resolve();
      } else if (message.method === 'tools/call') {
        send({ id: message.id, result: await window.callServerTool(message.params.name, message.params.arguments) });
      } else if (message.method === 'ui/open-link') {
        send({ id: message.id, result: {} });
      } else if (message.method === 'ui/notifications/size-changed') {
        frame.style.height = message.params.height + 'px';
      }
    });
    frame.srcdoc = html;
    document.body.appendChild(frame);
  });
};
</script></body></html>`;

export async function startAppsHost(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    // No icon, and no console error asking for one.
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url === '/' ? HOST_PAGE : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
