import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SAMPLE_LINK } from '../seed.js';
import { announce } from './child.js';

/** The floor: node:http reads the body and answers a fixed Link JSON to any POST. */
const body = JSON.stringify(SAMPLE_LINK);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method !== 'POST') {
      res.statusCode = 405;
      return res.end();
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  announce({ type: 'ready', url: `http://127.0.0.1:${port}` }, () => {
    server.closeAllConnections();
    server.close();
  });
});
