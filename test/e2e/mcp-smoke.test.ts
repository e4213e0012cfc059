import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('mcp smoke', () => {
  it('lists tools and creates a link', async () => {
    const alice = await server.person();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${alice.token}` } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toHaveLength(12);
    const made = await client.callTool({ name: 'createLink', arguments: { team: alice.teamId, destination: 'https://example.com/' } });
    expect(made.isError).toBeFalsy();
    expect((made.structuredContent as any).destination).toBe('https://example.com/');
    const bad = await client.callTool({ name: 'deleteLink', arguments: { code: (made.structuredContent as any).code } });
    expect(bad.isError).toBe(true);
    await client.close();
  });
});
