import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announce } from './child.js';

/** The floor for redirects: node:http answering every request with a fixed 302 and the headers ours sends. */
const server = createServer((_req, res) => {
  res.writeHead(302, { Location: 'https://example.com/', 'Cache-Control': 'private, max-age=0', 'Referrer-Policy': 'unsafe-url' });
  res.end();
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  announce({ type: 'ready', url: `http://127.0.0.1:${port}` }, () => {
    server.closeAllConnections();
    server.close();
  });
});
