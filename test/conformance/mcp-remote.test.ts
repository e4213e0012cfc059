import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as registry } from '../../src/tools/index.js';
import { startServer, type Actor, type TestServer } from '../helpers/server.js';

/**
 * `mcp-remote`, the stdio-to-HTTP proxy many desktop clients launch for remote servers, in front of our /mcp with a
 * personal token: a stdio client (the SDK's) lists, creates and reads links through it.
 */
const PROXY = join(dirname(createRequire(import.meta.url).resolve('mcp-remote/package.json')), 'dist/proxy.js');

let server: TestServer;
let alice: Actor;
let config: string;
let client: Client;

beforeAll(async () => {
  server = await startServer();
  alice = await server.person();
  // mcp-remote keeps its state (client registrations, tokens) in a folder of its own; give it a throwaway one.
  config = mkdtempSync(join(tmpdir(), 'mcp-remote-'));
  client = new Client({ name: 'stdio-host', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [PROXY, `${server.url}/mcp`, '--header', `Authorization:Bearer ${alice.token}`, '--transport', 'http-only', '--silent'],
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: config },
      stderr: 'ignore',
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await server.stop();
  rmSync(config, { recursive: true, force: true });
});

describe('through mcp-remote', () => {
  it('lists every tool of the registry', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(registry.map((tool) => tool.name).sort());
  });

  it('creates a link and reads it back, with its short address in the text', async () => {
    const made = await client.callTool({ name: 'createLink', arguments: { team: alice.teamId, destination: 'https://example.com/remote' } });
    expect(made.isError).toBeUndefined();
    const link = made.structuredContent as { code: string; destination: string };
    expect(link.destination).toBe('https://example.com/remote');
    expect((made.content as Array<{ text: string }>)[1]!.text).toContain(`Short link: ${server.url}/${link.code}`);
    const read = await client.callTool({ name: 'linkByCode', arguments: { code: link.code } });
    expect(read.structuredContent).toEqual(made.structuredContent);
  });

  it('passes a refusal through as the tool error it is', async () => {
    const refused = await client.callTool({ name: 'linkByCode', arguments: { code: 'Nothing' } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ status: 404, code: 'not_found' });
  });
});
