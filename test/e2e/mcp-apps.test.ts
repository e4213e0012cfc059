/**
 * MCP Apps (`io.modelcontextprotocol/ui`) over real MCP, both revisions: the three `ui://` views listed and read,
 * self-contained under a strict policy; the tools that show them name them in `_meta.ui.resourceUri`; the link
 * tools' results carry the QR codes the card draws, which decode to the short address. A client that did not
 * declare the extension gets tools and results exactly as before. The views themselves run in
 * test/browser/mcp-apps.test.ts.
 */
import { createHash } from 'node:crypto';
import { Client as Client2026, StreamableHTTPClientTransport as Transport2026 } from '@modelcontextprotocol/client';
import { Client as Client2025 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport2025 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import jsQR from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/index.js';
import { rpc2026 } from '../helpers/mcp-2026.js';
import { startServer, type Actor, type TestServer } from '../helpers/server.js';

const MIME = 'text/html;profile=mcp-app';
const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } } };
const CARD = 'ui://shortlinks/link-card';
const VIEWS: Record<string, string> = {
  createLink: CARD,
  createLinks: CARD,
  linkByCode: CARD,
  changeDestination: CARD,
  renameLink: CARD,
  setNote: CARD,
  setLinkOptions: CARD,
  linkClicks: 'ui://shortlinks/clicks-chart',
  teamLinks: 'ui://shortlinks/link-list',
};
const NO_OUTSIDE = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

let server: TestServer;
let alice: Actor;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  server = await startServer();
  alice = await server.person();
});
afterAll(async () => {
  await Promise.allSettled(open.map((client) => client.close()));
  await server.stop();
});

/** A client of the revision, declaring the extension or not; both SDKs answer to the same calls used here. */
async function connect(revision: '2025-11-25' | '2026-07-28', apps: boolean): Promise<any> {
  const headers = { authorization: `Bearer ${alice.token}` };
  const url = new URL(`${server.url}/mcp`);
  const capabilities = apps ? APPS : {};
  const client =
    revision === '2026-07-28'
      ? new Client2026({ name: 'apps-host', version: '1' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } })
      : new Client2025({ name: 'apps-host', version: '1' }, { capabilities });
  const transport = revision === '2026-07-28' ? new Transport2026(url, { requestInit: { headers } }) : new Transport2025(url, { requestInit: { headers } });
  await client.connect(transport as never);
  open.push(client);
  return client;
}

/** The QR code the card draws, from its rows of modules, as the picture a phone sees: 8 px a module, a quiet zone. */
function decodeRows(rows: string[]): string | null {
  const scale = 8;
  const size = (rows.length + 8) * scale;
  const pixels = new Uint8ClampedArray(size * size * 4).fill(255);
  rows.forEach((row, y) => {
    [...row].forEach((bit, x) => {
      if (bit !== '1') return;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const at = (((y + 4) * scale + dy) * size + (x + 4) * scale + dx) * 4;
          pixels[at] = pixels[at + 1] = pixels[at + 2] = 0;
        }
      }
    });
  });
  return jsQR(pixels, size, size)?.data ?? null;
}

describe.each(['2026-07-28', '2025-11-25'] as const)('MCP Apps under %s', (revision) => {
  it('lists the three views as ui:// resources of the extension\'s media type, allowing no outside origin', async () => {
    const client = await connect(revision, true);
    const { resources } = await client.listResources();
    expect(resources.map((resource: any) => resource.uri)).toEqual([CARD, 'ui://shortlinks/clicks-chart', 'ui://shortlinks/link-list']);
    for (const resource of resources) {
      expect(resource.mimeType).toBe(MIME);
      expect(resource._meta.ui.csp).toEqual(NO_OUTSIDE);
    }
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
  });

  it.each(Object.values(VIEWS).filter((uri, i, all) => all.indexOf(uri) === i))('reads %s: one self-contained page under a strict policy', async (uri) => {
    const client = await connect(revision, true);
    const { contents } = await client.readResource({ uri });
    expect(contents).toHaveLength(1);
    const [page] = contents;
    expect(page.uri).toBe(uri);
    expect(page.mimeType).toBe(MIME);
    expect(page._meta.ui).toEqual({ csp: NO_OUTSIDE, permissions: { clipboardWrite: {} }, prefersBorder: true });
    const text: string = page.text;
    expect(text.startsWith('<!doctype html>')).toBe(true);
    // Nothing loaded from anywhere: no src or href attribute at all, no inline handlers, no @import or url().
    expect(text).not.toMatch(/\s(src|href|srcset|action)\s*=/i);
    expect(text).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
    expect(text).not.toMatch(/@import|url\(/i);
    expect([...text.matchAll(/<script\b/g)]).toHaveLength(1);
    // The page's own policy allows exactly its one script and one style block, by hash.
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(text)![1]!.replace(/&#39;/g, "'");
    const script = /<script>([\s\S]*)<\/script>/.exec(text)![1]!;
    const style = /<style>([\s\S]*)<\/style>/.exec(text)![1]!;
    const hash = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
    expect(policy).toBe(`default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; base-uri 'none'; form-action 'none'`);
  });

  it('answers an unknown ui:// address with "resource not found" (-32602) naming it', async () => {
    const client = await connect(revision, true);
    const error = await client.readResource({ uri: 'ui://shortlinks/nothing' }).then(() => null, (caught: any) => caught);
    expect(error?.code).toBe(-32602);
    expect(error?.data).toEqual({ uri: 'ui://shortlinks/nothing' });
  });

  it('names each tool\'s view in _meta.ui.resourceUri for a host that shows them, and changes nothing else', async () => {
    const host = await connect(revision, true);
    const plain = await connect(revision, false);
    const withViews = (await host.listTools()).tools;
    const without = (await plain.listTools()).tools;
    expect(withViews.map((tool: any) => tool.name)).toEqual(tools.map((tool) => tool.name));
    for (const tool of withViews) {
      const { _meta, ...rest } = tool;
      expect(_meta).toEqual(VIEWS[tool.name] === undefined ? undefined : { ui: { resourceUri: VIEWS[tool.name] } });
      expect(rest).toEqual(without.find((other: any) => other.name === tool.name));
    }
    expect(without.filter((tool: any) => '_meta' in tool)).toEqual([]);
  });

  it('gives a host the QR code of each link it answers, decoding to the short address; the result is otherwise the same', async () => {
    const host = await connect(revision, true);
    const plain = await connect(revision, false);
    const made = await host.callTool({ name: 'createLinks', arguments: { team: alice.teamId, links: [{ destination: 'https://example.com/a' }, { destination: 'https://example.com/b' }] } });
    const codes = made.structuredContent.results.map((item: any) => item.link.code);
    expect(Object.keys(made._meta['shortlinks/qrCodes'])).toEqual(codes);
    for (const code of codes) expect(decodeRows(made._meta['shortlinks/qrCodes'][code])).toBe(`${server.url}/${code}?qr`);

    const seen = await host.callTool({ name: 'linkByCode', arguments: { code: codes[0] } });
    const seenPlain = await plain.callTool({ name: 'linkByCode', arguments: { code: codes[0] } });
    expect(seen.content).toEqual(seenPlain.content);
    expect(seen.structuredContent).toEqual(seenPlain.structuredContent);
    expect(Object.keys(seen._meta['shortlinks/qrCodes'])).toEqual([codes[0]]);
    expect(seenPlain._meta?.['shortlinks/qrCodes']).toBeUndefined();

    // A view of its own for the clicks, which is told the link's address (its team's domain, or PUBLIC_URL's) beside
    // the structured content; the plain client's result is the spec's alone.
    const clicks = await host.callTool({ name: 'linkClicks', arguments: { code: codes[0] } });
    expect(clicks._meta?.['shortlinks/qrCodes']).toBeUndefined();
    expect(clicks._meta?.['shortlinks/address']).toBe(`${server.url}/${codes[0]}`);
    expect(clicks.structuredContent.last30).toBe(0);
    const plainClicks = await plain.callTool({ name: 'linkClicks', arguments: { code: codes[0] } });
    expect(plainClicks._meta?.['shortlinks/address']).toBeUndefined();
  });

  it('answers a refused call as before: an error result, no view data', async () => {
    const host = await connect(revision, true);
    const refused = await host.callTool({ name: 'linkByCode', arguments: { code: 'zzzzzzz' } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0].text).code).toBe('not_found');
    expect(refused._meta?.['shortlinks/qrCodes']).toBeUndefined();
  });
});

describe('what a client sends wrong', () => {
  it('a read without a string uri is invalid params (-32602), not a fault', async () => {
    const rpc = rpc2026(server.url, APPS);
    for (const params of [{}, { uri: 5 }, { uri: null }]) {
      const reply = await rpc.send(alice.token, 'resources/read', params);
      expect(reply.status).toBe(200);
      expect(reply.body.error.code).toBe(-32602);
      expect(reply.body.error.message).toMatch(/^Invalid params for resources\/read: uri: /);
    }
  });

  it.each(['tools/list', 'resources/list', 'resources/templates/list'])('%s with any cursor is invalid params (-32602): every list is one page, and gives none', async (method) => {
    const rpc = rpc2026(server.url, APPS);
    for (const cursor of [5, null, ['a'], 'anything', '']) {
      const reply = await rpc.send(alice.token, method, { cursor });
      expect(reply.status).toBe(200);
      expect(reply.body.error).toEqual({
        code: -32602,
        message: `Invalid params for ${method}: cursor: This list comes in one page; there is no cursor to give.`,
      });
    }
    const whole = await rpc.send(alice.token, method, {});
    expect(whole.body.error).toBeUndefined();
    expect(whole.body.result.nextCursor).toBeUndefined();
  });

  it.each([
    ['extensions not an object', { extensions: 'x' }],
    ['the extension null', { extensions: { 'io.modelcontextprotocol/ui': null } }],
    ['mimeTypes a string', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: MIME } } }],
    ['another media type only', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } }],
  ])('a malformed or other declaration (%s) is no declaration: tools and results as before', async (_, capabilities) => {
    const rpc = rpc2026(server.url, capabilities);
    const listed = await rpc.send(alice.token, 'tools/list', {});
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools.filter((tool: any) => '_meta' in tool)).toEqual([]);
    const made = await rpc.call(alice.token, 'createLink', { team: alice.teamId, destination: 'https://example.com/plain' });
    expect(made.status).toBe(200);
    expect(made.body.result.structuredContent.code).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(made.body.result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': expect.any(Object) });
  });
});
