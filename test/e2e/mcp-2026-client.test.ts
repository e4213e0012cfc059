/**
 * The official 2026 client (@modelcontextprotocol/client, pinned to 2026-07-28) against the real server: it lists
 * the tools, makes links, pages through them and deletes one, answering deleteLink's question with its
 * input-required handler.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/index.js';
import { startServer, type Actor, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** A 2026-07-28 client for the token's person; it answers every question the server puts with `answer`. */
async function connect(token: string, answer: (message: string) => boolean) {
  const client = new Client(
    { name: 'e2e-2026', version: '1' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => ({
    action: 'accept' as const,
    content: { confirm: answer((request.params as { message: string }).message) },
  }));
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

async function structured(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as any;
}

describe('the official 2026-07-28 client', () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await server.person();
  });

  it('negotiates 2026-07-28 and lists the tools in registry order', async () => {
    const client = await connect(alice.token, () => false);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    await client.close();
  });

  it('creates links and pages through them', async () => {
    const client = await connect(alice.token, () => false);
    for (let i = 0; i < 3; i++) {
      await structured(client, 'createLink', { team: alice.teamId, destination: `https://example.com/page-${i}` });
    }
    const first = await structured(client, 'teamLinks', { team: alice.teamId, limit: 2 });
    expect(first.data.map((l: { destination: string }) => l.destination)).toEqual(['https://example.com/page-2', 'https://example.com/page-1']);
    const second = await structured(client, 'teamLinks', { team: alice.teamId, limit: 2, after: first.next });
    expect(second.data.map((l: { destination: string }) => l.destination)).toEqual(['https://example.com/page-0']);
    expect(second.next).toBeNull();
    await client.close();
  });

  it("deletes a link once the person says yes to the question naming its destination, and not on a no", async () => {
    const questions: string[] = [];
    const sayNo = await connect(alice.token, (message) => (questions.push(message), false));
    const made = await structured(sayNo, 'createLink', { team: alice.teamId, destination: 'https://example.com/bye' });
    expect(await structured(sayNo, 'deleteLink', { code: made.code })).toEqual({ result: null, declined: true });
    expect((await structured(sayNo, 'linkByCode', { code: made.code })).state).toBe('active');

    const sayYes = await connect(alice.token, (message) => (questions.push(message), true));
    expect(await structured(sayYes, 'deleteLink', { code: made.code })).toEqual({ result: null });
    const gone = await sayYes.callTool({ name: 'linkByCode', arguments: { code: made.code } });
    expect(gone.isError).toBe(true);
    expect(questions).toHaveLength(2);
    for (const question of questions) expect(question).toContain('https://example.com/bye');
    await Promise.all([sayNo.close(), sayYes.close()]);
  });
});
