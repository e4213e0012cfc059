/**
 * The client directory's sharing of metadata document fetches, in process with stand-ins whose timing the test
 * decides: the end-to-end test (oauth-hardening) cannot order a stored-row read against a fetch.
 */
import { describe, expect, it } from 'vitest';
import { clientDirectory } from '../../src/oauth/clients.js';
import type { FetchedClient, MetadataDocuments } from '../../src/oauth/metadata-documents.js';
import type { OAuthClient, OAuthStore, SettingsStore } from '../../src/store/ports.js';
import { memoryRateLimiter } from '../../src/support/memory-rate-limiter.js';

const CLIENT_ID = 'https://assistant.example/client.json';
const DOCUMENT: FetchedClient = { name: 'Assistant', redirectUris: ['https://assistant.example/callback'], metadata: {}, maxAgeSeconds: 3600 };

/** A promise and the function that settles it. */
function gate<T>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * A directory whose stored-row reads wait for the promises handed in, in turn (then find no row), and whose
 * row reads and fetches are noted.
 */
function directoryWith(rowReads: Array<Promise<OAuthClient | null>> = []) {
  const fetches: string[] = [];
  const reads: string[] = [];
  const oauth = {
    client: (clientId: string) => {
      reads.push(clientId);
      return rowReads.shift() ?? Promise.resolve(null);
    },
  } as unknown as OAuthStore;
  const settings = { blockedDomains: async () => new Set<string>() } as unknown as SettingsStore;
  const documents = {
    check: (clientId: string) => new URL(clientId).hostname,
    fetch: async (clientId: string) => {
      fetches.push(clientId);
      return DOCUMENT;
    },
  } as unknown as MetadataDocuments;
  const directory = clientDirectory({ oauth, settings, documents, clock: { now: () => new Date() }, rates: memoryRateLimiter() });
  return { directory, fetches, reads };
}

describe('client directory: one fetch per client_id at a time', () => {
  it('a request whose stored-row read ends after another request fetched the document uses that fetch', async () => {
    const slowRead = gate<OAuthClient | null>();
    const { directory, fetches } = directoryWith([Promise.resolve(null), slowRead.opened]);
    const first = directory.find(CLIENT_ID, '198.51.100.1');
    const second = directory.find(CLIENT_ID, '198.51.100.2');
    expect(await first).toMatchObject({ id: CLIENT_ID, name: 'Assistant' });
    slowRead.open(null);
    expect(await second).toMatchObject({ id: CLIENT_ID, name: 'Assistant' });
    expect(fetches).toEqual([CLIENT_ID]);
  });

  it('a request whose stored-row read ends while another request fetches shares that fetch', async () => {
    const slowRead = gate<OAuthClient | null>();
    const { directory, fetches } = directoryWith([Promise.resolve(null), slowRead.opened]);
    const first = directory.find(CLIENT_ID, '198.51.100.1');
    const second = directory.find(CLIENT_ID, '198.51.100.2');
    slowRead.open(null);
    expect(await Promise.all([first, second])).toMatchObject([{ id: CLIENT_ID }, { id: CLIENT_ID }]);
    expect(fetches).toEqual([CLIENT_ID]);
  });

  it('a later request is answered from memory, without reading the stored row', async () => {
    const { directory, fetches, reads } = directoryWith();
    await directory.find(CLIENT_ID, '198.51.100.1');
    expect(await directory.find(CLIENT_ID, '198.51.100.1')).toMatchObject({ id: CLIENT_ID });
    expect(fetches).toEqual([CLIENT_ID]);
    expect(reads).toEqual([CLIENT_ID]);
  });
});
