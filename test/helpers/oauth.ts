/**
 * Helpers for the OAuth tests: a signed-in browser (a web session cookie made straight in the store), the
 * browser's part of a sign-in done with fetch, and an SDK `OAuthClientProvider` that uses them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { TestServer } from './server.js';

/** A browser signed in as the person: the `sl_session` cookie of a session made in the store. */
export async function browserOf(server: TestServer, personId: string): Promise<string> {
  const value = randomBytes(32).toString('base64url');
  const expiresAt = new Date(server.clock.now().getTime() + 86_400_000).toISOString();
  await server.app.ctx.store.webSessions.add(
    createHash('sha256').update(value).digest(),
    { personId, csrfSecret: randomBytes(32).toString('base64url'), expiresAt },
    server.clock.now(),
  );
  return `sl_session=${value}`;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

/** The hidden fields of the first POST form of a page. */
export function hiddenFields(html: string): Record<string, string> {
  const form = /<form method="post" action="\/authorize">([\s\S]*?)<\/form>/.exec(html);
  expect(form, 'the consent form').not.toBeNull();
  const fields: Record<string, string> = {};
  for (const match of form![1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[unescape(match[1]!)] = unescape(match[2]!);
  }
  return fields;
}

export interface Callback {
  url: URL;
  code: string | null;
  error: string | null;
  state: string | null;
  iss: string | null;
}

/**
 * The browser's part: opens the authorization URL signed in, reads the consent page, answers it, and returns
 * where the server sent the browser back to (never followed: it is the client's loopback callback).
 */
export async function consent(server: TestServer, cookie: string, authorizationUrl: URL | string, decision: 'approve' | 'deny' = 'approve'): Promise<Callback> {
  const page = await fetch(authorizationUrl, { headers: { cookie }, redirect: 'manual' });
  const html = await page.text();
  expect(page.status, html.slice(0, 500)).toBe(200);
  const res = await fetch(`${server.url}/authorize`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams({ ...hiddenFields(html), decision }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return callbackOf(res.headers.get('location')!);
}

export function callbackOf(location: string): Callback {
  const url = new URL(location);
  const get = (name: string) => url.searchParams.get(name);
  return { url, code: get('code'), error: get('error'), state: get('state'), iss: get('iss') };
}

/** An MCP client's OAuth state, in memory, whose "browser" is `consent` with the person's cookie. */
export class TestOAuthProvider implements OAuthClientProvider {
  clientInfo: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier: string | undefined;
  /** Every authorization URL the client opened, and where each sign-in came back to. */
  readonly opened: URL[] = [];
  readonly callbacks: Callback[] = [];

  constructor(
    private readonly server: TestServer,
    private readonly cookie: string,
    readonly redirectUrl = 'http://127.0.0.1:33418/callback',
    readonly clientMetadataUrl?: string,
    private readonly decision: 'approve' | 'deny' = 'approve',
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E Assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return `state-${this.opened.length}`;
  }
  clientInformation() {
    return this.clientInfo;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.clientInfo = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.opened.push(url);
    this.callbacks.push(await consent(this.server, this.cookie, url, this.decision));
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier');
    return this.verifier;
  }
  /** The code of the last sign-in. */
  get code(): string {
    const last = this.callbacks.at(-1);
    expect(last?.code, JSON.stringify(last)).toBeTruthy();
    return last!.code!;
  }
}

/**
 * Connects an SDK client the way an assistant does: the first attempt gets a 401 and signs in (through the
 * provider's "browser"), the code is exchanged, and a second connection goes through with the token.
 */
export async function connectWithOAuth(server: TestServer, provider: TestOAuthProvider): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const mcpUrl = new URL(`${server.url}/mcp`);
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await expect(new Client({ name: 'e2e-oauth', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  await first.finishAuth(provider.code);
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const client = new Client({ name: 'e2e-oauth', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

/** `POST /token` with a form, as a client would. */
export async function tokenRequest(server: TestServer, params: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

/** `POST /register` with a JSON body. */
export async function register(server: TestServer, metadata: Record<string, unknown>) {
  const res = await fetch(`${server.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

/** PKCE: a verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An /authorize address with these parameters. */
export function authorizeUrl(server: TestServer, params: Record<string, string>): URL {
  const url = new URL(`${server.url}/authorize`);
  url.search = new URLSearchParams(params).toString();
  return url;
}

/**
 * `Authorization: Basic` of `id:secret` (RFC 6749 §2.3.1: each part form-urlencoded, then base64). `urlSafe`
 * writes it in base64url instead, which the token endpoint must refuse.
 */
export function basicHeader(id: string, secret: string, options: { urlSafe?: boolean } = {}): string {
  const encoded = Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString(options.urlSafe ? 'base64url' : 'base64');
  return `Basic ${encoded}`;
}

/**
 * A whole sign-in of `clientId` by the person behind `cookie`: consent (approve), then the code exchanged at
 * /token. Returns the token answer; `extra` is added to the token request (a secret, say), `headers` to it too.
 */
export async function signIn(
  server: TestServer,
  cookie: string,
  clientId: string,
  options: { redirect?: string; scope?: string; extra?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  const redirect = options.redirect ?? 'http://127.0.0.1:33418/callback';
  const { verifier, challenge } = pkce();
  const back = await consent(server, cookie, authorizeUrl(server, {
    response_type: 'code', client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256',
    ...(options.scope === undefined ? {} : { scope: options.scope }),
  }));
  expect(back.code, JSON.stringify(back)).toBeTruthy();
  return tokenRequest(server, {
    grant_type: 'authorization_code', client_id: clientId, code: back.code!, code_verifier: verifier, redirect_uri: redirect, ...options.extra,
  }, options.headers);
}

/** The status of an MCP `initialize` call with this access token. */
export async function mcpStatus(server: TestServer, accessToken: string): Promise<number> {
  const res = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
  });
  await res.body?.cancel();
  return res.status;
}

/** How a document stand-in answers a path. */
export type DocumentRoute = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;

/**
 * A loopback stand-in for the hosts of client ID metadata documents: routes by path (the paths without a route by
 * `fallback`, else 404), counting hits.
 */
export interface DocumentHost {
  base: string;
  routes: Map<string, DocumentRoute>;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startDocumentHost(fallback?: DocumentRoute): Promise<DocumentHost> {
  const { createServer } = await import('node:http');
  const routes: DocumentHost['routes'] = new Map();
  const hits = new Map<string, number>();
  const host = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    const route = routes.get(req.url!) ?? fallback;
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  const { port } = host.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    routes,
    hits,
    async close() {
      host.closeAllConnections();
      await new Promise((resolve) => host.close(resolve));
    },
  };
}
