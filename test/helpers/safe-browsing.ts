/**
 * A real HTTP stand-in for the Google Safe Browsing v4 Lookup API (`POST /v4/threatMatches:find?key=KEY`) on
 * loopback. It checks the key and the request's shape as Google documents them, answers matches for the addresses
 * it is told are unsafe, and can be told to fail (500), hang (never answer) or answer garbage.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StandInMode = 'ok' | 'fail' | 'hang' | 'garbage' | 'huge';

export interface SafeBrowsingStandIn {
  /** The endpoint to configure: `http://127.0.0.1:<port>/v4/threatMatches:find`. */
  url: string;
  key: string;
  /** Addresses (as sent) answered as matches. */
  unsafe: Set<string>;
  mode: StandInMode;
  /** Every well-formed request body received, in order (also in the fail, hang and garbage modes). */
  requests: Array<{ urls: string[]; body: any }>;
  /** Requests refused for their key or shape, with the reason. */
  refused: string[];
  close(): Promise<void>;
}

const PATH = '/v4/threatMatches:find';
const THREAT_TYPES = ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION'];

/** Starts the stand-in on 127.0.0.1, port 0. */
export async function startSafeBrowsingStandIn(key = 'test-key-0123456789'): Promise<SafeBrowsingStandIn> {
  const standIn: SafeBrowsingStandIn = {
    url: '',
    key,
    unsafe: new Set(),
    mode: 'ok',
    requests: [],
    refused: [],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    handle(standIn, req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`;
  return standIn;
}

async function handle(standIn: SafeBrowsingStandIn, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const address = new URL(req.url ?? '/', 'http://x');
  const refuse = (status: number, reason: string) => {
    standIn.refused.push(reason);
    answer(res, status, { error: { code: status, message: reason } });
  };
  if (req.method !== 'POST' || address.pathname !== PATH) return refuse(404, `${req.method} ${address.pathname}`);
  // Google answers 400 "API key not valid" for a wrong key.
  if (address.searchParams.get('key') !== standIn.key) return refuse(400, 'API key not valid. Please pass a valid API key.');
  if (!/^application\/json/.test(req.headers['content-type'] ?? '')) return refuse(400, 'content-type');
  let body: any;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return refuse(400, 'body is not JSON');
  }
  const problem = shapeProblem(body);
  if (problem) return refuse(400, problem);
  const urls: string[] = body.threatInfo.threatEntries.map((entry: { url: string }) => entry.url);
  standIn.requests.push({ urls, body });
  if (standIn.mode === 'hang') return; // never answers; close() cuts the connection
  if (standIn.mode === 'fail') return answer(res, 500, { error: { code: 500, message: 'Internal error' } });
  if (standIn.mode === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"matches": [{"thr');
  if (standIn.mode === 'huge') {
    // Chunked, without Content-Length: the client must count what it reads.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"matches": [], "padding": "');
    for (let i = 0; i < 32; i++) res.write('x'.repeat(64 * 1024));
    return void res.end('"}');
  }
  const matches = urls
    .filter((url) => standIn.unsafe.has(url))
    .map((url) => ({
      threatType: 'SOCIAL_ENGINEERING',
      platformType: 'ANY_PLATFORM',
      threatEntryType: 'URL',
      threat: { url },
      cacheDuration: '300s',
    }));
  answer(res, 200, matches.length > 0 ? { matches } : {});
}

/** What is wrong with a request body, or null when it has the shape the Lookup API documents. */
function shapeProblem(body: any): string | null {
  if (typeof body !== 'object' || body === null) return 'body is not an object';
  if (body.client?.clientId !== 'shortlinks' || typeof body.client?.clientVersion !== 'string') return 'client';
  const info = body.threatInfo;
  if (JSON.stringify(info?.threatTypes) !== JSON.stringify(THREAT_TYPES)) return 'threatTypes';
  if (JSON.stringify(info?.platformTypes) !== '["ANY_PLATFORM"]') return 'platformTypes';
  if (JSON.stringify(info?.threatEntryTypes) !== '["URL"]') return 'threatEntryTypes';
  const entries = info?.threatEntries;
  if (!Array.isArray(entries) || entries.length === 0 || entries.length > 500) return 'threatEntries: 1 to 500';
  if (!entries.every((entry: any) => typeof entry?.url === 'string' && Object.keys(entry).length === 1)) return 'threatEntries: {url}';
  return null;
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}
