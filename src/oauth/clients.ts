import { timingSafeEqual } from 'node:crypto';
import type { OAuthClient, SettingsStore, OAuthStore } from '../store/ports.js';
import type { Clock } from '../tools/define-tool.js';
import { isMetadataDocumentId, MetadataDocumentError, type MetadataDocuments } from './metadata-documents.js';
import { sha256 } from './settings.js';

/** An unknown, unfetchable or refused client: every endpoint answers it as `invalid_client`. */
export class UnknownClient extends Error {}

/**
 * Finds the client a request names: a registration (`oc_…`), or a client ID metadata document, used from the
 * store while its copy is fresh and fetched again after.
 */
export function clientDirectory(deps: { oauth: OAuthStore; settings: SettingsStore; clock: Clock; documents: MetadataDocuments }) {
  const { oauth, settings, clock, documents } = deps;

  async function find(clientId: unknown): Promise<OAuthClient> {
    if (typeof clientId !== 'string' || clientId === '') throw new UnknownClient('The request names no client_id.');
    if (!isMetadataDocumentId(clientId)) {
      const client = await oauth.client(clientId);
      if (!client || client.kind !== 'registered') {
        throw new UnknownClient('This client_id is not registered here (registrations unused for a day are forgotten); register again.');
      }
      return client;
    }
    const now = clock.now();
    const kept = await oauth.client(clientId);
    if (kept && kept.freshUntil !== null && Date.parse(kept.freshUntil) > now.getTime()) return kept;
    try {
      const fetched = await documents.fetch(clientId, settings.blockedDomains());
      const freshUntil = new Date(now.getTime() + fetched.maxAgeSeconds * 1000).toISOString();
      const { name, redirectUris, metadata } = fetched;
      return await oauth.saveMetadataDocument({ id: clientId, name, redirectUris, metadata, freshUntil }, now);
    } catch (error) {
      if (error instanceof MetadataDocumentError) throw new UnknownClient(error.message);
      throw error;
    }
  }

  return {
    find,
    /**
     * Client authentication at /token and /revoke (RFC 6749 §2.3): a confidential client must send its secret
     * (HTTP Basic or `client_secret` in the body); a public client sends only its id.
     */
    async authenticate(credentials: { clientId: unknown; secret: unknown }): Promise<OAuthClient> {
      const client = await find(credentials.clientId);
      if (client.secretHash === null) return client;
      const given = typeof credentials.secret === 'string' ? sha256(credentials.secret) : null;
      if (!given || !timingSafeEqual(given, client.secretHash)) throw new UnknownClient('The client secret is missing or wrong.');
      return client;
    },
  };
}

export type ClientDirectory = ReturnType<typeof clientDirectory>;
