/**
 * Issue 8, item 8: names that hide what they are. A client name with control or bidirectional formatting
 * characters is refused at /register (400 invalid_client_metadata) and in a client ID metadata document; one
 * already stored is shown neutralized on the consent and connected assistants pages.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorizeUrl, browserOf, consent, pkce, register, startDocumentHost, type DocumentHost } from '../helpers/oauth.js';

const CALLBACK = 'http://127.0.0.1:33418/callback';
const DISGUISED = 'Claude\u202e\u0000 official';
const REFUSAL = {
  error: 'invalid_client_metadata',
  error_description: 'client_name must not contain control or bidirectional formatting characters.',
};

let server: TestServer;
let documents: DocumentHost;
beforeAll(async () => {
  documents = await startDocumentHost();
  server = await startServer({ oauth: { metadataDocuments: { testOnlyAllowLoopbackHttp: true, timeoutMs: 1000 } } });
});
afterAll(async () => {
  await server.stop();
  await documents.close();
});

function storedClients(): number {
  const db = new Database(server.dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM oauth_clients').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function authorization(clientId: string) {
  return authorizeUrl(server, {
    response_type: 'code', client_id: clientId, redirect_uri: CALLBACK, code_challenge: pkce().challenge, code_challenge_method: 'S256',
  });
}

describe('/register', () => {
  it('refuses a client_name with a right-to-left override and a NUL: 400 invalid_client_metadata, nothing stored', async () => {
    const before = storedClients();
    const res = await register(server, { client_name: DISGUISED, redirect_uris: [CALLBACK] });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual(REFUSAL);
    expect(storedClients()).toBe(before);
  });

  it.each([
    ['NUL', '\u0000'], ['a tab', '\t'], ['a line break', '\n'], ['unit separator', '\u001f'], ['DEL', '\u007f'],
    ['C1 next line', '\u0085'], ['C1 APC', '\u009f'], ['Arabic letter mark', '\u061c'], ['left-to-right mark', '\u200e'],
    ['right-to-left mark', '\u200f'], ['LRE', '\u202a'], ['RLE', '\u202b'], ['PDF', '\u202c'], ['LRO', '\u202d'],
    ['RLO', '\u202e'], ['LRI', '\u2066'], ['RLI', '\u2067'], ['FSI', '\u2068'], ['PDI', '\u2069'], ['a lone surrogate', '\ud800'],
  ])('refuses %s inside the name', async (_what, character) => {
    const before = storedClients();
    const res = await register(server, { client_name: `Good${character}Name`, redirect_uris: [CALLBACK] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(REFUSAL);
    expect(storedClients()).toBe(before);
  });

  it('accepts names in any script, with spaces trimmed', async () => {
    const res = await register(server, { client_name: '  مساعد 助手 Ассистент  ', redirect_uris: [CALLBACK] });
    expect(res.status).toBe(201);
    expect(res.body.client_name).toBe('مساعد 助手 Ассистент');
  });
});

describe('client ID metadata documents', () => {
  it('refuses a document whose client_name hides characters: the sign-in is not offered', async () => {
    const clientId = `${documents.base}/disguised.json`;
    documents.routes.set('/disguised.json', (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ client_id: clientId, client_name: DISGUISED, redirect_uris: [CALLBACK] }));
    });
    const person = await server.person();
    const page = await fetch(authorization(clientId), { headers: { cookie: await browserOf(server, person.personId) }, redirect: 'manual' });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain('client_name must not contain control or bidirectional formatting characters.');
    expect(html).not.toContain('\u202e');
  });
});

describe('names stored before the rule', () => {
  it('are shown neutralized on the consent and connected assistants pages', async () => {
    // As an older version registered it.
    const client = await server.app.ctx.store.oauth.addClient(
      { id: 'oc_disguised', secretHash: null, name: DISGUISED, redirectUris: [CALLBACK], metadata: { client_name: DISGUISED } },
      server.clock.now(),
    );
    const person = await server.person();
    const cookie = await browserOf(server, person.personId);
    const shown = 'Claude\ufffd\ufffd official';

    const page = await fetch(authorization(client.id), { headers: { cookie }, redirect: 'manual' });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<h1>Allow ${shown} to use shortlinks as you?</h1>`);
    expect(html).not.toMatch(/[\u0000\u202e]/);

    await consent(server, cookie, authorization(client.id));
    const assistants = await (await fetch(`${server.url}/assistants`, { headers: { cookie } })).text();
    expect(assistants).toContain(`<td data-label="Assistant" class="wrap">${shown}</td>`);
    expect(assistants).toContain(`aria-label="Disconnect ${shown}…"`);
    expect(assistants).not.toMatch(/[\u0000\u202e]/);
  });

  it('a metadata document client\'s self-chosen name too', async () => {
    const clientId = `${documents.base}/stored-before.json`;
    const freshUntil = new Date(server.clock.now().getTime() + 3_600_000).toISOString();
    await server.app.ctx.store.oauth.saveMetadataDocument(
      { id: clientId, name: DISGUISED, redirectUris: [CALLBACK], metadata: { client_id: clientId, client_name: DISGUISED }, freshUntil },
      server.clock.now(),
    );
    const person = await server.person();
    const cookie = await browserOf(server, person.personId);
    const html = await (await fetch(authorization(clientId), { headers: { cookie }, redirect: 'manual' })).text();
    expect(html).toContain('It calls itself “Claude\ufffd\ufffd official”; that name is unverified');
    expect(html).not.toMatch(/[\u0000\u202e]/);
    await consent(server, cookie, authorization(clientId));
    const assistants = await (await fetch(`${server.url}/assistants`, { headers: { cookie } })).text();
    expect(assistants).toContain('calls itself “Claude\ufffd\ufffd official” (unverified)');
    expect(assistants).not.toMatch(/[\u0000\u202e]/);
  });
});
