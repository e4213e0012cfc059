import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkDestination } from '../domain/destination.js';
import { hasHiddenCharacters } from '../domain/hidden-characters.js';
import { dnsResolver } from '../destinations/resolver.js';
import { checkedLookup, resolveWith, type Resolve } from '../destinations/public-lookup.js';
import { redirectUriProblem } from './redirect-uris.js';

/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document; MCP 2025-11-25): a client whose id
 * is an https URL publishes its metadata there. Fetching it is a request to an address anyone can choose, so it
 * gets the care a link destination gets: https only, a public domain name (no IP literals, no private names),
 * every resolved address public (checked when connecting, so DNS cannot swap in a private one later), no
 * redirects, a timeout and a size cap.
 */
export interface MetadataDocumentOptions {
  /**
   * TEST ONLY: also fetch `http://` documents on loopback hosts (127.0.0.1, localhost, [::1]), skipping the
   * public-address rules, so tests can serve documents from a local stand-in. Never set it in a real server:
   * it turns the fetcher into a way to reach this machine.
   */
  testOnlyAllowLoopbackHttp?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  /**
   * Resolves a host name: the server passes its `DNS_SERVERS` resolver (resolveWith(dnsResolver(...))), the one
   * destinations are checked with; the system's resolvers when left out. Tests may inject one.
   */
  resolve?: Resolve;
}

export interface FetchedClient {
  name: string | null;
  redirectUris: string[];
  metadata: Record<string, unknown>;
  /** How long the copy may be used, from the answer's Cache-Control, kept within 5 minutes and a day. */
  maxAgeSeconds: number;
}

/** Why a metadata document was refused; the sentence names the rule, for the error answer. */
export class MetadataDocumentError extends Error {
  /**
   * @param ofHost the host itself failed (no address, a private one, no connection, too slow), so any document
   *   there would: the failure may answer for every client_id on the host
   */
  constructor(message: string, readonly ofHost = false) {
    super(message);
  }
}

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_BYTES = 16 * 1024;
const MIN_AGE_S = 300;
const MAX_AGE_S = 86_400;
const DEFAULT_AGE_S = 3_600;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A client id that names a metadata document rather than a registration: any http(s) URL. */
export function isMetadataDocumentId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

export function metadataDocuments(options: MetadataDocumentOptions = {}) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const resolve = options.resolve ?? resolveWith(dnsResolver({ servers: [], timeoutMs }));
  const publicLookup = checkedLookup(resolve, (host) => new MetadataDocumentError(`${host} resolves to a private address.`, true));

  /** Checks the id's shape and its host's rules; returns it parsed. */
  function checkId(clientId: string, blocked: ReadonlySet<string>): URL {
    let url: URL;
    try {
      url = new URL(clientId);
    } catch {
      throw new MetadataDocumentError('The client_id is not a valid URL.');
    }
    if (url.href !== clientId) throw new MetadataDocumentError('The client_id URL is not in its normalized form.');
    if (url.hash !== '' || url.username !== '' || url.password !== '') {
      throw new MetadataDocumentError('A client_id URL must not have a fragment or credentials.');
    }
    if (url.pathname === '/') throw new MetadataDocumentError('A client_id URL must have a path.');
    if (options.testOnlyAllowLoopbackHttp && url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return url;
    if (url.protocol !== 'https:') throw new MetadataDocumentError('A client_id URL must be an https address.');
    try {
      checkDestination(clientId, { ownHosts: new Set(), shorteners: new Set(), blocked });
    } catch (error) {
      throw new MetadataDocumentError(`A client_id URL must be a public https address: ${(error as Error).message}`);
    }
    return url;
  }

  function get(url: URL): Promise<{ res: IncomingMessage; body: string }> {
    return new Promise((resolvePromise, reject) => {
      let settled = false;
      const secure = url.protocol === 'https:';
      const req = (secure ? httpsRequest : httpRequest)(url, {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'shortlinks (client metadata fetcher)' },
        ...(secure ? { lookup: publicLookup } : {}),
      });
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(error instanceof MetadataDocumentError ? error : new MetadataDocumentError(`The metadata document could not be fetched: ${error.message}`, true));
      };
      const timer = setTimeout(() => fail(new MetadataDocumentError('The metadata document took too long.', true)), timeoutMs);
      const tooLarge = () => fail(new MetadataDocumentError(`The metadata document is over ${maxBytes} bytes.`));
      req.on('error', fail);
      req.on('response', (res) => {
        if (Number(res.headers['content-length']) > maxBytes) return tooLarge();
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return tooLarge();
          chunks.push(chunk);
        });
        res.on('error', fail);
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolvePromise({ res, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.end();
    });
  }

  return {
    /**
     * Checks the id's shape and its host's rules without fetching; throws MetadataDocumentError naming what is
     * wrong. Answers the host the fetch limits count it under: its name, whatever the port (a port is no other
     * host). The test-only loopback stand-ins count by name and port, as each stands in for a host of its own.
     */
    check(clientId: string, blocked: ReadonlySet<string> = new Set()): string {
      const url = checkId(clientId, blocked);
      return url.protocol === 'http:' ? url.host : url.hostname;
    },
    /** Fetches and checks the document at `clientId`; throws MetadataDocumentError naming what is wrong. */
    async fetch(clientId: string, blocked: ReadonlySet<string> = new Set()): Promise<FetchedClient> {
      const url = checkId(clientId, blocked);
      const { res, body } = await get(url);
      if (res.statusCode !== 200) {
        throw new MetadataDocumentError(`The metadata document answered ${res.statusCode} (redirects are not followed).`);
      }
      let document: unknown;
      try {
        document = JSON.parse(body);
      } catch {
        throw new MetadataDocumentError('The metadata document is not JSON.');
      }
      return { ...checkDocument(clientId, document), maxAgeSeconds: maxAgeOf(res.headers['cache-control']) };
    },
  };
}

export type MetadataDocuments = ReturnType<typeof metadataDocuments>;

/** The document's fields we use, checked: it names itself, lists usable redirect URIs, and has no secret. */
function checkDocument(clientId: string, document: unknown): Omit<FetchedClient, 'maxAgeSeconds'> {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new MetadataDocumentError('The metadata document is not a JSON object.');
  }
  const doc = document as Record<string, unknown>;
  if (doc.client_id !== clientId) throw new MetadataDocumentError('The document\'s client_id is not the address it was fetched from.');
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 20) {
    throw new MetadataDocumentError('The document must list 1 to 20 redirect_uris.');
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new MetadataDocumentError(problem);
  }
  if ('client_secret' in doc || 'client_secret_expires_at' in doc) {
    throw new MetadataDocumentError('A metadata document must not carry a client secret.');
  }
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw new MetadataDocumentError('Only token_endpoint_auth_method "none" is supported here.');
  const grants = doc.grant_types ?? ['authorization_code', 'refresh_token'];
  if (!Array.isArray(grants) || !grants.includes('authorization_code')) {
    throw new MetadataDocumentError('The document\'s grant_types must include authorization_code.');
  }
  const given = typeof doc.client_name === 'string' ? doc.client_name.trim() : '';
  // Shown beside the host on the consent and assistants pages, as registered names are: the same rule applies.
  if (hasHiddenCharacters(given)) {
    throw new MetadataDocumentError('The document\'s client_name must not contain control or bidirectional formatting characters.');
  }
  const name = given !== '' ? given.slice(0, 100) : null;
  const metadata: Record<string, unknown> = { client_id: clientId, redirect_uris: uris, token_endpoint_auth_method: 'none' };
  for (const key of ['client_name', 'client_uri', 'logo_uri', 'grant_types', 'response_types', 'scope', 'software_id', 'software_version']) {
    if (key in doc) metadata[key] = doc[key];
  }
  return { name, redirectUris: uris as string[], metadata };
}

/** max-age from Cache-Control, kept between 5 minutes and a day; an hour when absent. */
function maxAgeOf(header: string | undefined): number {
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(header ?? '');
  const seconds = match ? Number(match[1]) : /no-store|no-cache/i.test(header ?? '') ? MIN_AGE_S : DEFAULT_AGE_S;
  return Math.min(MAX_AGE_S, Math.max(MIN_AGE_S, seconds));
}
