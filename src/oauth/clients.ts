import { timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { sendOAuthError } from './http.js';
import type { OAuthClient, SettingsStore, OAuthStore } from '../store/ports.js';
import type { RateLimiter } from '../support/rate-limiter.js';
import { LruCache } from '../support/lru-cache.js';
import type { Clock } from '../shared/clock.js';
import { isMetadataDocumentId, MetadataDocumentError, type FetchedClient, type MetadataDocuments } from './metadata-documents.js';
import { DOCUMENT_FAILURE_MEMORY_MS, DOCUMENTS_IN_MEMORY } from './lifetimes-and-limits.js';
import { fetchAllowances } from './fetch-allowances.js';
import { sha256 } from '../auth/secrets.js';
import { setRetryAfter } from '../http/retry-after.js';
import { count } from '../shared/words.js';

/** An unknown, unfetchable or refused client: every endpoint answers it as `invalid_client`. */
export class UnknownClient extends Error {}

/** A metadata document would have to be fetched, but an allowance it counts in is used up (see fetch-allowances.ts). */
export class TooManyFetches extends Error {
  constructor(readonly retryAfter: number) {
    super(`Too many client metadata documents were fetched; retry in ${count(retryAfter, 'second')}.`);
  }
}

const FAILURES_IN_MEMORY = 1_000;

/**
 * Finds the client a request names: a registration (`oc_…`), or a client ID metadata document.
 *
 * Anyone can name any https URL as a client_id, so fetching documents is kept cheap for us and useless as a
 * weapon, and fetches that fail cannot starve those that work: concurrent requests for one client_id share one
 * fetch; an id no fetch could accept costs nothing; a refused or unfetchable document, and every client_id on a host
 * that could not be reached, is answered from memory for a minute; fetches count in the allowances of
 * fetch-allowances.ts (per network, per host, and apart for known clients, new ones and failing hosts); and a
 * fetched document is kept in a bounded in-memory cache only. It is stored as a row when a person approves the
 * client (`keep`), and that row is refreshed when the document is fetched again after its max-age.
 */
export function clientDirectory(deps: { oauth: OAuthStore; settings: SettingsStore; clock: Clock; documents: MetadataDocuments; rates: RateLimiter }) {
  const { oauth, settings, clock, documents } = deps;
  const now = () => clock.now().getTime();
  const memory = new LruCache<OAuthClient>(DOCUMENTS_IN_MEMORY, { now });
  const failures = new LruCache<string>(FAILURES_IN_MEMORY, { ttlMs: DOCUMENT_FAILURE_MEMORY_MS, now });
  const unreachableHosts = new LruCache<string>(FAILURES_IN_MEMORY, { ttlMs: DOCUMENT_FAILURE_MEMORY_MS, now });
  const allowances = fetchAllowances(deps.rates);
  const inFlight = new Map<string, Promise<OAuthClient>>();

  const isFresh = (client: OAuthClient, now: number) => client.freshUntil !== null && Date.parse(client.freshUntil) > now;

  /** Remembers why `clientId` was refused, for a minute, and answers as for any unknown client. */
  function refused(clientId: string, error: unknown): never {
    if (!(error instanceof MetadataDocumentError)) throw error;
    failures.set(clientId, error.message);
    throw new UnknownClient(error.message);
  }

  async function fetchDocument(clientId: string, host: string, stored: boolean, blocked: ReadonlySet<string>): Promise<OAuthClient> {
    let fetched: FetchedClient;
    try {
      fetched = await documents.fetch(clientId, blocked);
    } catch (error) {
      if (error instanceof MetadataDocumentError) {
        // Another document of a host that could not be reached would fail alike: answered from memory too.
        if (error.ofHost) unreachableHosts.set(host, error.message);
        await allowances.failed(host, now());
      }
      return refused(clientId, error);
    }
    await allowances.served(clientId, host, now());
    const at = clock.now();
    const freshUntil = new Date(at.getTime() + fetched.maxAgeSeconds * 1000).toISOString();
    const { name, redirectUris, metadata } = fetched;
    const client: OAuthClient = stored
      ? await oauth.saveMetadataDocument({ id: clientId, name, redirectUris, metadata, freshUntil }, at)
      : { id: clientId, kind: 'metadata_document', secretHash: null, name, redirectUris, metadata, createdAt: at.toISOString(), freshUntil };
    failures.delete(clientId);
    // Served from memory until the document's max-age runs out.
    memory.set(clientId, client, Date.parse(freshUntil) - now());
    return client;
  }

  /**
   * The client named `clientId`. `from` is the requesting client's address, for the fetch limits (null for a
   * lookup within a request whose client was found already).
   */
  async function find(clientId: unknown, from: string | null = null): Promise<OAuthClient> {
    if (typeof clientId !== 'string' || clientId === '') throw new UnknownClient('The request names no client_id.');
    if (!isMetadataDocumentId(clientId)) {
      const client = await oauth.client(clientId);
      if (!client || client.kind !== 'registered') {
        throw new UnknownClient('This client_id is not registered here (registrations unused for a day are forgotten); register again.');
      }
      return client;
    }
    const at = now();
    const shared = fetchedOrFetching(clientId);
    if (shared) return shared;
    const kept = await oauth.client(clientId);
    if (kept && kept.kind === 'metadata_document' && isFresh(kept, at)) return kept;
    const failed = failures.get(clientId);
    if (failed !== undefined) throw new UnknownClient(failed);
    // Another request's fetch may have begun, or ended, while the stored row was read: share it, not repeat it.
    const sharedSince = fetchedOrFetching(clientId);
    if (sharedSince) return sharedSince;
    // Concurrent requests for one client share its allowance as they share its fetch (the first one's network pays).
    const fetching = allowedFetch(clientId, kept, from, at).finally(() => inFlight.delete(clientId));
    inFlight.set(clientId, fetching);
    return fetching;
  }

  /** The client fetched already and still fresh in memory, or the fetch of it under way; undefined when neither. */
  function fetchedOrFetching(clientId: string): OAuthClient | Promise<OAuthClient> | undefined {
    return memory.get(clientId) ?? inFlight.get(clientId);
  }

  /** Fetches the document at `clientId` if its allowances let it (see fetch-allowances.ts). */
  async function allowedFetch(clientId: string, kept: OAuthClient | null, from: string | null, at: number): Promise<OAuthClient> {
    // An id no fetch could accept (not https, a private or blocked host ...) is refused before it costs an allowance,
    // so junk ids cannot use up everyone's.
    const blocked = await settings.blockedDomains();
    let host: string;
    try {
      host = documents.check(clientId, blocked);
    } catch (error) {
      return refused(clientId, error);
    }
    const unreachable = unreachableHosts.get(host);
    if (unreachable !== undefined) throw new UnknownClient(unreachable);
    const approved = kept !== null && kept.kind === 'metadata_document';
    const limited = await allowances.take({ clientId, host, from, approved }, at);
    if (limited) {
      // A client a person approved goes on with its stored copy past its max-age: whoever runs the fetches up
      // cannot sign connected assistants out.
      if (approved) return kept;
      throw new TooManyFetches(limited.resetSeconds);
    }
    return fetchDocument(clientId, host, kept !== null, blocked);
  }

  return {
    find,
    /**
     * A person approved the client: a metadata document client is stored from now on (its grant needs the row;
     * the connected assistants page names it from there). Registered clients are stored already.
     */
    async keep(client: OAuthClient): Promise<void> {
      if (client.kind !== 'metadata_document') return;
      const { id, name, redirectUris, metadata, freshUntil } = client;
      await oauth.saveMetadataDocument({ id, name, redirectUris, metadata, freshUntil }, clock.now());
    },
    /**
     * Client authentication at /token and /revoke (RFC 6749 §2.3): a confidential client must send its secret
     * (HTTP Basic or `client_secret` in the body); a public client sends only its id.
     */
    async authenticate(credentials: { clientId: unknown; secret: unknown }, from: string | null = null): Promise<OAuthClient> {
      const client = await find(credentials.clientId, from);
      if (!secretMatches(client, credentials.secret)) throw new UnknownClient('The client secret is missing or wrong.');
      return client;
    },
  };
}

/** True when the client has no secret, or `secret` is it (compared as SHA-256 hashes, in constant time). */
export function secretMatches(client: OAuthClient, secret: unknown): boolean {
  if (client.secretHash === null) return true;
  if (typeof secret !== 'string') return false;
  const given = sha256(secret);
  return given.length === client.secretHash.length && timingSafeEqual(given, client.secretHash);
}

export type ClientDirectory = ReturnType<typeof clientDirectory>;

/**
 * Answers a client that could not be authenticated at /token or /revoke: 429 while metadata fetches are limited,
 * 401 `invalid_client` for an unknown client or wrong secret. Anything else is a fault and is thrown on.
 */
export function sendClientRefusal(res: Response, error: unknown): void {
  if (error instanceof TooManyFetches) {
    setRetryAfter(res, error.retryAfter);
    return sendOAuthError(res, 429, 'too_many_requests', error.message);
  }
  if (!(error instanceof UnknownClient)) throw error;
  sendInvalidClient(res, error.message);
}

/**
 * 401 `invalid_client`, with the Basic challenge: RFC 6749 §5.2 asks for it when the client tried Basic, and RFC 9110
 * §15.5.2 for every 401. A public client that sent only its id learns from it how a secret would be sent.
 */
export function sendInvalidClient(res: Response, message: string): void {
  res.set('WWW-Authenticate', 'Basic realm="shortlinks"');
  sendOAuthError(res, 401, 'invalid_client', message);
}
