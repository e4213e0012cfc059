/**
 * A link's options through MCP (issue 24): the SDK's own Client over real Streamable HTTP against the real server.
 * setLinkOptions is listed with its hints; createLink, createLinks and setLinkOptions take the options and answer
 * the Link with its seven added fields; each rule's refusal is the isError result holding the HTTP API's problem
 * (test/helpers/mcp-results.ts), and no result ever holds a password.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLink, server, setState, useLinksServer } from '../helpers/api-links.js';
import { ok, problemOf, tool, type ToolResult } from '../helpers/mcp-results.js';
import { call, type Actor } from '../helpers/server.js';

useLinksServer();

const open: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((client) => client.close()));
});

const DESTINATION = 'https://example.com/mcp-options';
const PASSWORD = 'assistant-secret-42';
const OPTION_PARAMS = ['expiresAt', 'maxClicks', 'password', 'tags', 'forwardQuery'];
const LINK_FIELDS = [
  'id', 'code', 'name', 'destination', 'note', 'state', 'createdAt', 'changedAt',
  'shortUrl', 'nameUrl', 'expiresAt', 'maxClicks', 'hasPassword', 'tags', 'forwardQuery',
];

/** An SDK client connected as the actor. */
async function connect(actor: Actor): Promise<Client> {
  const client = new Client({ name: 'link-options', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${actor.token}` } } }),
  );
  open.push(client);
  return client;
}

/** Calls a tool; whatever it answered, no part of it holds the password. */
async function callTool(client: Client, name: string, args: Record<string, unknown>, password = PASSWORD): Promise<ToolResult> {
  const result = await tool(client, name, args);
  expect(JSON.stringify(result)).not.toContain(password);
  return result;
}

/** A tool's refusal, which is also what the HTTP API answers the same params at `operation`. */
async function refusal(client: Client, actor: Actor, name: string, operation: string, args: Record<string, unknown>): Promise<any> {
  const problem = problemOf(await callTool(client, name, args), server.url);
  const http = await call(server, operation, args, actor.token);
  expect(http.status).toBe(problem.status);
  expect(problem).toEqual(http.body);
  return problem;
}

/** The link as linkByCode reads it. */
async function readBack(client: Client, code: string): Promise<any> {
  return ok(await callTool(client, 'linkByCode', { code }));
}

describe('tools/list', () => {
  it('lists setLinkOptions: destructive, idempotent, not read-only; code and the five options, code required', async () => {
    const client = await connect(await server.person());
    const { tools } = await client.listTools();
    const listed = tools.find((t) => t.name === 'setLinkOptions')!;
    expect(listed.annotations).toEqual({ title: "Set a link's options", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    expect(Object.keys(listed.inputSchema.properties!)).toEqual(['code', ...OPTION_PARAMS]);
    expect(listed.inputSchema.required).toEqual(['code']);
    expect(Object.keys(listed.outputSchema!.properties!)).toEqual(LINK_FIELDS);
    const create = tools.find((t) => t.name === 'createLink')!;
    expect(Object.keys(create.inputSchema.properties!)).toEqual(['team', 'destination', 'name', 'note', ...OPTION_PARAMS]);
    expect(create.inputSchema.required).toEqual(['team', 'destination']);
  });
});

describe('results', () => {
  it('createLink takes the options and answers them as structuredContent, as the HTTP API reads the link', async () => {
    const alice = await server.person();
    const client = await connect(alice);
    const args = {
      team: alice.teamId,
      destination: DESTINATION,
      expiresAt: '2027-01-31T19:00:00+01:00',
      maxClicks: 40,
      password: PASSWORD,
      tags: ['print', 'flyer', 'print'],
      forwardQuery: false,
    };
    const link = ok(await callTool(client, 'createLink', args));
    expect(Object.keys(link)).toEqual(LINK_FIELDS);
    expect(link).toEqual({
      id: expect.stringMatching(/^link_/),
      code: expect.stringMatching(/^[A-Za-z0-9]{7}$/),
      name: null,
      destination: DESTINATION,
      note: null,
      state: 'active',
      createdAt: server.clock.now().toISOString(),
      changedAt: null,
      shortUrl: `${server.url}/${link.code}`,
      nameUrl: null,
      expiresAt: '2027-01-31T18:00:00.000Z',
      maxClicks: 40,
      hasPassword: true,
      tags: ['flyer', 'print'],
      forwardQuery: false,
    });
    expect((await call(server, 'getLink', { code: link.code }, alice.token)).body).toEqual(link);
    expect(await readBack(client, link.code)).toEqual(link);
  });

  it('createLink without options: the defaults', async () => {
    const alice = await server.person();
    const client = await connect(alice);
    const link = ok(await callTool(client, 'createLink', { team: alice.teamId, destination: DESTINATION }));
    expect(link).toMatchObject({ expiresAt: null, maxClicks: null, hasPassword: false, tags: [], forwardQuery: true, shortUrl: `${server.url}/${link.code}`, nameUrl: null });
  });

  it('setLinkOptions sets, keeps the rest and clears with null; the same again changes nothing', async () => {
    const alice = await server.person();
    const client = await connect(alice);
    const made = await createLink(alice);
    server.clock.advance(1_000);
    const set = ok(await callTool(client, 'setLinkOptions', { code: made.code, password: PASSWORD, tags: ['b', 'a'], maxClicks: 3 }));
    const changedAt = server.clock.now().toISOString();
    expect(set).toEqual({ ...(await call(server, 'getLink', { code: made.code }, alice.token)).body, changedAt });
    expect(set).toMatchObject({ hasPassword: true, tags: ['a', 'b'], maxClicks: 3, expiresAt: null, forwardQuery: true, changedAt });
    server.clock.advance(1_000);
    expect(ok(await callTool(client, 'setLinkOptions', { code: made.code, password: PASSWORD, tags: ['a', 'b'] }))).toEqual(set);
    const cleared = ok(await callTool(client, 'setLinkOptions', { code: made.code, password: null, maxClicks: null }));
    expect(cleared).toEqual({ ...set, hasPassword: false, maxClicks: null, changedAt: server.clock.now().toISOString() });
    expect(await readBack(client, made.code)).toEqual(cleared);
  });

  it('createLinks items take options; a refused item carries its status, code and message', async () => {
    const alice = await server.person();
    const client = await connect(alice);
    const results = ok(
      await callTool(client, 'createLinks', {
        team: alice.teamId,
        links: [
          { destination: DESTINATION, password: PASSWORD, tags: ['x'] },
          { destination: DESTINATION, maxClicks: 0 },
        ],
      }),
    ).results;
    expect(results[0]).toMatchObject({ status: 200, code: null, message: null, link: { hasPassword: true, tags: ['x'], forwardQuery: true } });
    expect(results[1]).toEqual({ link: null, status: 400, code: 'invalid_max_clicks', message: expect.any(String) });
  });
});

describe('refusals: the tool error holding the HTTP API\'s problem', () => {
  it.each([
    ['invalid_expiry', { expiresAt: '2027-01-31T18:00:00' }, 'expiresAt'],
    ['invalid_expiry', { expiresAt: '2026-11-21T12:00:00Z' }, 'expiresAt'],
    ['invalid_max_clicks', { maxClicks: 1.5 }, 'maxClicks'],
    ['invalid_password', { password: 'short' }, 'password'],
    ['invalid_password', { password: `${PASSWORD}\u0007` }, 'password'],
    ['invalid_tag', { tags: ['fine', 'Not Fine'] }, 'tags[1]'],
    ['invalid_tag', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'tags'],
    ['bad_request', { maxClicks: '5' }, 'maxClicks'],
  ])('%s (%j) at %s, from createLink and setLinkOptions', async (code, params, field) => {
    const alice = await server.person();
    const client = await connect(alice);
    const created = await refusal(client, alice, 'createLink', 'createLink', { team: alice.teamId, destination: DESTINATION, ...params });
    expect(created).toMatchObject({ status: 400, code, field });
    const made = await createLink(alice);
    const set = await refusal(client, alice, 'setLinkOptions', 'setLinkOptions', { code: made.code, ...params });
    expect(set).toMatchObject({ status: 400, code, field });
    expect(await readBack(client, made.code)).toEqual((await call(server, 'getLink', { code: made.code }, alice.token)).body);
  });

  it.each([
    ['flagged', 'link_flagged'],
    ['disabled', 'link_disabled'],
  ] as const)('a %s link: 409 %s', async (state, code) => {
    const alice = await server.person();
    const client = await connect(alice);
    const made = await createLink(alice);
    await setState(made.code, state);
    const problem = await refusal(client, alice, 'setLinkOptions', 'setLinkOptions', { code: made.code, password: PASSWORD });
    expect(problem).toMatchObject({ status: 409, code, field: null });
  });

  it("another team's link: 404 not_found at code", async () => {
    const alice = await server.person();
    const bob = await server.person();
    const bobs = await createLink(bob);
    const problem = await refusal(await connect(alice), alice, 'setLinkOptions', 'setLinkOptions', { code: bobs.code, maxClicks: 2 });
    expect(problem).toMatchObject({ status: 404, code: 'not_found', field: 'code' });
  });

  it('past the change limit: 429 limit_reached', async () => {
    await server.setLimits({ changesPerHour: 1 });
    const alice = await server.person();
    const client = await connect(alice);
    const made = await createLink(alice);
    ok(await callTool(client, 'setLinkOptions', { code: made.code, tags: ['one'] }));
    const problem = problemOf(await callTool(client, 'setLinkOptions', { code: made.code, tags: ['two'] }), server.url);
    expect(problem).toMatchObject({ status: 429, code: 'limit_reached', field: null });
    expect((await readBack(client, made.code)).tags).toEqual(['one']);
  });
});
