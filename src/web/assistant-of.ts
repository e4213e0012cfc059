import type { OAuthStore } from '../store/ports.js';
import { isMetadataDocumentId } from '../oauth/metadata-documents.js';
import { clientLabel } from './pages/consent.js';

const AUTHORIZE = '/authorize?';

/**
 * The assistant a sign-in is for, named as the consent page names it (clientLabel: a metadata document client by
 * the host of its client_id, a registered one by the name it gave), when the page comes back to an /authorize
 * address; null for any other `next`. Nothing is fetched: `next` is whatever the address said, so a forged one
 * costs nothing and names only a registration made here or the host its client_id itself names.
 */
export async function assistantOf(store: OAuthStore, next: string | null | undefined): Promise<string | null> {
  if (!next?.startsWith(AUTHORIZE)) return null;
  const clientId = new URLSearchParams(next.slice(AUTHORIZE.length)).get('client_id');
  if (!clientId) return null;
  if (isMetadataDocumentId(clientId)) return clientLabel({ id: clientId, name: null });
  const client = await store.client(clientId);
  return client?.kind === 'registered' ? clientLabel(client) : null;
}
