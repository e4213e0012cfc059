import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startDnsServer, type DnsServer } from './dns-server.js';
import { startServer, type TestServer } from './server.js';

/** One request a receiver took: its headers and body as sent. */
export interface Received {
  headers: Record<string, string>;
  body: string;
}

/**
 * A webhook endpoint on loopback, as a team's receiver would run one: records every request, and answers each with
 * what `answer` says (204 unless the test changes it: a failing receiver, one that redirects or never answers).
 */
export interface WebhookReceiver {
  url: string;
  received: Received[];
  answer: (req: IncomingMessage, res: ServerResponse) => void;
  /** The events received whose signature the Standard Webhooks library verifies with `secret`, as their bodies. */
  verified(secret: string): unknown[];
  /** Resolves once `count` requests have come (or rejects after `ms`). */
  waitFor(count: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const waiting: Array<() => void> = [];
  const receiver = {
    received,
    answer: (_req: IncomingMessage, res: ServerResponse) => void res.writeHead(204).end(),
  } as WebhookReceiver;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      receiver.answer(req, res);
      for (const wake of waiting.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.verified = (secret) => {
    const webhook = new Webhook(secret);
    // The library's own verifier (standardwebhooks, the specification's reference implementation) checks each.
    return received.map(({ headers, body }) => webhook.verify(body, headers));
  };
  receiver.waitFor = (count, ms = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${received.length} of ${count} webhook requests came in ${ms} ms`)), ms);
      const check = () => {
        if (received.length >= count) {
          clearTimeout(timer);
          resolve();
        } else waiting.push(check);
      };
      check();
    });
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** A test server for webhooks, and the DNS stand-in its deliveries resolve names with. */
export interface WebhookServer {
  server: TestServer;
  dns: DnsServer;
  /** The receiver's address by the name `hooks.test`, which resolves to loopback (the server's own 127.0.0.1 is refused). */
  hookUrl(receiver: WebhookReceiver): string;
  stop(): Promise<void>;
}

/**
 * The real server with private destinations allowed (so a receiver on loopback is an allowed endpoint), names
 * resolved by a stand-in (`hooks.test` to loopback, every other name to a public address), and its sender run when
 * the test says (`app.webhooks.deliverNow`): its own schedule is ten minutes. `env` adds to the server's.
 */
export async function startWebhookServer(env: Record<string, string> = {}): Promise<WebhookServer> {
  const dns = await startDnsServer({ 'hooks.test': { a: ['127.0.0.1'] } }, { a: ['93.184.216.34'] });
  const server = await startServer({ env: { DNS_SERVERS: dns.servers.join(','), WEBHOOK_POLL_MS: '600000', ...env } });
  await server.app.ctx.store.settings.setServiceSettings({ destinations: 'private' });
  return {
    server,
    dns,
    hookUrl: (receiver) => receiver.url.replace('127.0.0.1', 'hooks.test'),
    async stop() {
      await server.stop();
      await dns.close();
    },
  };
}
