/**
 * Issue 11, "Many processes, one database", for MCP: two real server processes on one SQLite file behind a
 * round-robin balancer with no stickiness, so a client's requests alternate between them. The SDK 1.x client
 * (2025-11-25, sessions) and the official 2026 client must work as against one process; a session id must work on
 * either process for its own person only, and stop working everywhere once ended or expired.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2026, StreamableHTTPClientTransport as Transport2026 } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import { tools as registry } from '../../src/tools/index.js';
import { databaseEnv, testDatabase } from '../helpers/database-env.js';
import { SESSION_LIFETIME_MS, SessionIds } from '../../src/mcp/sessions-2025/session-id.js';
import { runCli } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { startRoundRobin, type Forwarded, type RoundRobin } from '../helpers/round-robin.js';
import { freePort } from '../helpers/server.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const PROTOCOL = '2025-11-25';

interface Person {
  id: string;
  teamId: string;
  token: string;
}

let dir: string;
let dbPath: string;
let processes: ServerProcess[] = [];
let balancer: RoundRobin;
let alice: Person;
let bob: Person;
const open: Array<{ close(): Promise<void> }> = [];

async function cli(...args: string[]) {
  const run = await runCli(dbPath, ...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

async function person(email: string): Promise<Person> {
  const made = await cli('person', 'add', '--email', email, '--agree-terms');
  const team = await cli('team', 'add', '--name', 'Spread', '--owner', email);
  return { id: made.id, teamId: team.id, token: (await cli('token', 'create', '--email', email, '--team', team.id)).token };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-processes-'));
  dbPath = join(dir, 'shared.db');
  const database = await testDatabase(dbPath);
  alice = await person('alice@example.com');
  bob = await person('bob@example.com');
  await cli('limits', 'set', '--per-hour', '1000', '--per-day', '1000', '--first-week-per-day', '1000');
  // Both processes answer to the balancer's address, as behind a real one.
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 2; i++) processes.push(await startServerProcess({ dbPath, env: { PUBLIC_URL: publicUrl, ...database } }));
  balancer = await startRoundRobin(processes.map((p) => `http://127.0.0.1:${p.port}`), { port });
}, 60_000);
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await balancer?.close();
  await Promise.all(processes.map((p) => p.stop()));
  processes = [];
  rmSync(dir, { recursive: true, force: true });
});

/** The SDK 1.x client through the balancer; with `elicit`, it declares form elicitation and answers with it. */
async function connect(token: string, elicit?: () => ElicitResult) {
  const client = elicit
    ? new Client({ name: 'spread-elicit', version: '1' }, { capabilities: { elicitation: { form: {} } } })
    : new Client({ name: 'spread', version: '1' });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async () => elicit());
  const transport = new StreamableHTTPClientTransport(new URL(`${balancer.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  open.push(client);
  return { client, transport };
}

async function structured(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent;
}

async function problem(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result)).toBe(true);
  return JSON.parse((result.content as Array<{ text: string }>)[0]!.text);
}

/** What the balancer passed on for the session, from the `from`th request on. */
function sessionTraffic(sessionId: string, from = 0): Forwarded[] {
  return balancer.forwarded.slice(from).filter((entry) => entry.headers['mcp-session-id'] === sessionId);
}

/** A raw 2025-11-25 request through the balancer. */
async function raw(token: string, body: unknown, session?: string, method = 'POST'): Promise<Response> {
  return fetch(`${balancer.url}/mcp`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });
}

const toolsList = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };

/** Sends the request twice in a row: under round robin, once to each process. */
async function onBothProcesses(send: () => Promise<Response>): Promise<number[]> {
  const before = balancer.forwarded.length;
  const statuses = [(await send()).status, (await send()).status];
  expect(new Set(balancer.forwarded.slice(before).map((entry) => entry.upstream)).size).toBe(2);
  return statuses;
}

describe('an MCP 2025-11-25 session spread over two processes', () => {
  it('initializes, lists the tools, makes, lists and finds links, its requests alternating between the processes', async () => {
    const from = balancer.forwarded.length;
    const { client, transport } = await connect(alice.token);
    expect((await client.listTools()).tools).toHaveLength(registry.length);
    const made = await structured(client, 'createLink', { team: alice.teamId, destination: 'https://example.com/spread' });
    const listed = await structured(client, 'teamLinks', { team: alice.teamId, limit: 50 });
    expect(listed.data.map((link: { code: string }) => link.code)).toContain(made.code);
    expect((await structured(client, 'linkByCode', { code: made.code })).destination).toBe('https://example.com/spread');

    // The session's POSTs went to both processes, the first (notifications/initialized) to the one that did not
    // open the session.
    const posts = sessionTraffic(transport.sessionId!, from).filter((entry) => entry.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(5);
    expect(new Set(posts.map((entry) => entry.upstream)).size).toBe(2);
    const initialize = balancer.forwarded.slice(from).find((entry) => entry.body.includes('"initialize"'))!;
    expect(posts[0]!.upstream).not.toBe(initialize.upstream);
  });

  it("asks deleteLink's question from one process and takes the answer the client sent to the other", async () => {
    const { client, transport } = await connect(alice.token, () => ({ action: 'accept', content: { confirm: true } }));
    const made = await structured(client, 'createLink', { team: alice.teamId, destination: 'https://example.com/bye' });
    const from = balancer.forwarded.length;
    expect(await structured(client, 'deleteLink', { code: made.code })).toEqual({ result: null });
    const [call, answer] = sessionTraffic(transport.sessionId!, from);
    expect(call!.body).toContain('"deleteLink"');
    expect(JSON.parse(answer!.body)).toMatchObject({ result: { action: 'accept' } });
    expect(answer!.upstream).not.toBe(call!.upstream);
    expect(await problem(client, 'linkByCode', { code: made.code })).toMatchObject({ code: 'not_found' });
  });

  it('deletes nothing when the person says no, whichever process the answer reached', async () => {
    const { client } = await connect(alice.token, () => ({ action: 'decline' }));
    const made = await structured(client, 'createLink', { team: alice.teamId, destination: 'https://example.com/stay' });
    for (let i = 0; i < 2; i++) expect(await problem(client, 'deleteLink', { code: made.code })).toMatchObject({ code: 'conflict' });
    expect((await structured(client, 'linkByCode', { code: made.code })).state).toBe('active');
  });

  it.each([
    ['2025-03-26', '2025-03-26'],
    ['2099-01-01', PROTOCOL],
  ])('keeps the version initialize settled on (asked %s, settled %s) on the process that did not answer it', async (asked, settled) => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'old', version: '1' } } };
    const opened = await raw(alice.token, initialize);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain(`"protocolVersion":"${settled}"`);
    const session = opened.headers.get('mcp-session-id')!;
    const headers = { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const list = () => fetch(`${balancer.url}/mcp`, { method: 'POST', headers: { ...headers, 'mcp-protocol-version': settled, 'mcp-session-id': session }, body: JSON.stringify(toolsList) });
    expect(await onBothProcesses(list)).toEqual([200, 200]);
  });

  it('gives out session ids that are visible ASCII, URL-safe and name nothing readable', async () => {
    const { transport } = await connect(alice.token);
    const id = transport.sessionId!;
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(id.length).toBeLessThan(200);
    const decoded = Buffer.from(id, 'base64url').toString('latin1');
    for (const secret of [alice.id, 'spread', PROTOCOL]) expect(decoded).not.toContain(secret);
  });
});

describe('a session id through two processes is refused with 404', () => {
  it("when another person sends it, on either process, and its owner keeps it", async () => {
    const { transport } = await connect(alice.token);
    const id = transport.sessionId!;
    expect(await onBothProcesses(() => raw(bob.token, toolsList, id))).toEqual([404, 404]);
    expect(await onBothProcesses(() => raw(bob.token, null, id, 'DELETE'))).toEqual([404, 404]);
    expect(await onBothProcesses(() => raw(alice.token, toolsList, id))).toEqual([200, 200]);
  });

  it('when it was tampered with', async () => {
    const { transport } = await connect(alice.token);
    const id = transport.sessionId!;
    // One character changed in the middle, the nonce, the sealed claims or the tag: each one is refused.
    for (const at of [3, Math.floor(id.length / 2), id.length - 3]) {
      const tampered = id.slice(0, at) + (id[at] === 'A' ? 'B' : 'A') + id.slice(at + 1);
      expect(await onBothProcesses(() => raw(alice.token, toolsList, tampered))).toEqual([404, 404]);
    }
    expect(await onBothProcesses(() => raw(alice.token, toolsList, `${id}x`))).toEqual([404, 404]);
    expect(await onBothProcesses(() => raw(alice.token, toolsList, id))).toEqual([200, 200]);
  });

  it('when it expired, or was sealed with another key', async () => {
    // The service's key, read through the store the processes share (SQLite's file, or PostgreSQL).
    const store = await openStore({ databasePath: dbPath, databaseUrl: databaseEnv(dbPath).DATABASE_URL });
    const secret = await store.settings.cursorSecret();
    await store.close();
    const opened = new TestClock(new Date(Date.now() - SESSION_LIFETIME_MS - 60_000));
    const mint = (key: Buffer, clock: TestClock) => {
      const ids = new SessionIds(key, clock);
      return ids.issue(ids.claims(alice.id, PROTOCOL, {}, { name: 'minted', version: '1' }));
    };
    expect(await onBothProcesses(() => raw(alice.token, toolsList, mint(secret, opened)))).toEqual([404, 404]);
    expect(await onBothProcesses(() => raw(alice.token, toolsList, mint(Buffer.alloc(32, 7), new TestClock(new Date()))))).toEqual([404, 404]);
    // The same id made now with the service's key is a session of Alice's, opened again on either process.
    expect(await onBothProcesses(() => raw(alice.token, toolsList, mint(secret, new TestClock(new Date()))))).toEqual([200, 200]);
  });

  it('once its client ended it with DELETE, on both processes', async () => {
    const { client, transport } = await connect(alice.token);
    const id = transport.sessionId!;
    expect(await onBothProcesses(() => raw(alice.token, toolsList, id))).toEqual([200, 200]);
    await transport.terminateSession();
    await client.close();
    expect(await onBothProcesses(() => raw(alice.token, toolsList, id))).toEqual([404, 404]);
  });
});

describe('MCP 2026-07-28 through the same balancer', () => {
  it('the official 2026 client lists the tools and makes and finds a link, its requests going to both processes', async () => {
    const from = balancer.forwarded.length;
    const client = new Client2026({ name: 'spread-2026', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new Transport2026(new URL(`${balancer.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${alice.token}` } } }));
    open.push(client);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await client.listTools()).tools).toHaveLength(registry.length);
    const made = (await client.callTool({ name: 'createLink', arguments: { team: alice.teamId, destination: 'https://example.com/2026' } })).structuredContent as { code: string };
    const found = await client.callTool({ name: 'linkByCode', arguments: { code: made.code } });
    expect((found.structuredContent as { destination: string }).destination).toBe('https://example.com/2026');
    expect(new Set(balancer.forwarded.slice(from).map((entry) => entry.upstream)).size).toBe(2);
  });
});
