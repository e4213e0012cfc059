/**
 * What each tool answers through MCP: the SDK's own Client in process, over the SDK's in-memory transport, against
 * the MCP server /mcp builds for a 2025-11-25 session (test/helpers/mcp-in-memory.ts). What HTTP adds (sessions,
 * sign-in, Origin and Host, CORS, headers) is test/e2e/mcp.test.ts's.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { tools as registry } from '../../src/tools/index.js';
import { McpHarness, PUBLIC_URL } from '../helpers/mcp-in-memory.js';
import { ok, problemOf as problemAt, tool, type ToolResult } from '../helpers/mcp-results.js';
import type { Actor } from '../helpers/tool-harness.js';

// The registry's order is the order of tools/list.
const TOOL_NAMES = registry.map((tool) => tool.name);
const READS = ['myTeams', 'teamLinks', 'teamTags', 'linkByCode', 'linkClicks', 'clickBreakdown'];

let mcp: McpHarness;

beforeAll(async () => {
  mcp = await McpHarness.open();
});
afterEach(() => mcp.disconnect());
afterAll(() => mcp.close());

function problemOf(result: ToolResult): any {
  return problemAt(result, PUBLIC_URL);
}

async function newLink(client: Client, team: string, fields: Record<string, unknown> = {}): Promise<any> {
  return ok(await tool(client, 'createLink', { team, destination: 'https://example.com/page', ...fields }));
}

let nameCounter = 0;
const uniqueName = (base: string) => `${base}-${process.pid}-${++nameCounter}`;

describe('tools/list', () => {
  let tools: Awaited<ReturnType<Client['listTools']>>['tools'];
  beforeAll(async () => {
    const alice = await mcp.person();
    const client = await mcp.connect(alice);
    tools = (await client.listTools()).tools;
    await client.close();
  });

  it('lists exactly the tools of the registry, in its order', () => {
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
  });

  it('gives every tool a valid name, title, description, closed input schema, object output schema and four boolean annotations', () => {
    for (const t of tools) {
      const where = `tool ${t.name}`;
      expect(t.name, where).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
      expect(t.title, where).toBeTypeOf('string');
      expect(t.title!.length, where).toBeGreaterThan(0);
      expect(t.description, where).toBeTypeOf('string');
      expect(t.description!.length, where).toBeGreaterThan(20);
      expect(t.inputSchema.type, where).toBe('object');
      expect((t.inputSchema as any).additionalProperties, where).toBe(false);
      expect(t.outputSchema?.type, where).toBe('object');
      const annotations = t.annotations ?? {};
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(annotations[hint], `${where} ${hint}`).toBeTypeOf('boolean');
      }
    }
  });

  it('marks reads read-only and not destructive, what overwrites destructive, and deleteLink taking confirm', () => {
    for (const name of READS) {
      const t = tools.find((x) => x.name === name)!;
      expect(t.annotations?.readOnlyHint, name).toBe(true);
      expect(t.annotations?.destructiveHint, name).toBe(false);
      expect(t.annotations?.openWorldHint, name).toBe(false);
    }
    for (const t of tools.filter((x) => !READS.includes(x.name))) {
      expect(t.annotations?.readOnlyHint, t.name).toBe(false);
    }
    const del = tools.find((t) => t.name === 'deleteLink')!;
    expect(del.annotations?.destructiveHint).toBe(true);
    expect(del.annotations?.idempotentHint).toBe(true);
    expect(del.inputSchema.properties).toHaveProperty('confirm');
    expect((del.inputSchema.properties as any).confirm.type).toBe('boolean');
    expect(del.inputSchema.required ?? []).not.toContain('confirm');
    // MCP: destructive unless it "performs only additive updates". A new destination, name or note replaces the old;
    // new options can end a link or lock its visitors out.
    const overwriting = ['deleteLink', 'changeDestination', 'renameLink', 'setNote', 'setLinkOptions'];
    for (const t of tools) expect(t.annotations?.destructiveHint, t.name).toBe(overwriting.includes(t.name));
    for (const t of tools.filter((x) => x.name !== 'deleteLink')) {
      expect(t.inputSchema.properties ?? {}, t.name).not.toHaveProperty('confirm');
    }
  });

  it('keeps the public contract of every tool (review a change to this snapshot)', async () => {
    // The test server's port changes from run to run; the snapshot holds the placeholder, as docs/tools.md does.
    const contract = JSON.stringify(tools, null, 2).replaceAll(PUBLIC_URL, 'PUBLIC_URL');
    // One reviewed file per tool, kept in step with the registry by test/tools/contract.test.ts.
    const snapshots = TOOL_NAMES.map((name) =>
      JSON.parse(readFileSync(new URL(`../tools/__snapshots__/${name}.json`, import.meta.url), 'utf8')),
    );
    expect(contract).toBe(JSON.stringify(snapshots, null, 2));
  });
});

describe('each tool through MCP', () => {
  let alice: Actor;
  let client: Client;
  beforeAll(async () => {
    alice = await mcp.person({ teamName: 'Alice team' });
  });
  // Clients are closed after each test; each test connects its own.
  const connectAlice = async () => (client = await mcp.connect(alice));

  it('myTeams lists the person\'s team', async () => {
    await connectAlice();
    const teams = ok(await tool(client, 'myTeams'));
    expect(teams).toEqual({ data: [{ id: alice.teamId, name: 'Alice team' }], next: null });
  });

  it('createLink, linkByCode and teamLinks agree on the new link', async () => {
    const bob = await mcp.person();
    const client = await mcp.connect(bob);
    const made = await newLink(client, bob.teamId, { destination: 'https://example.com/one', note: 'first' });
    expect(made).toMatchObject({ destination: 'https://example.com/one', note: 'first', name: null, state: 'active' });
    expect(made.code).toMatch(/^.{7}$/);
    expect(ok(await tool(client, 'linkByCode', { code: made.code }))).toEqual(made);
    const second = await newLink(client, bob.teamId, { destination: 'https://example.com/two' });
    const page = ok(await tool(client, 'teamLinks', { team: bob.teamId }));
    expect(page.next).toBeNull();
    expect(page.data.map((l: any) => l.code)).toEqual([second.code, made.code]);
    const found = ok(await tool(client, 'teamLinks', { team: bob.teamId, q: 'two' }));
    expect(found.data.map((l: any) => l.code)).toEqual([second.code]);
  });

  it('linkClicks answers 30 days ending today, with totals', async () => {
    await connectAlice();
    const made = await newLink(client, alice.teamId);
    const clicks = ok(await tool(client, 'linkClicks', { code: made.code }));
    expect(clicks.days).toHaveLength(30);
    expect(clicks.days.at(-1)).toEqual({ date: '2026-11-21', clicks: 0 });
    expect(clicks.days[0].date).toBe('2026-10-23');
    expect(clicks).toMatchObject({ last7: 0, last30: 0 });
  });

  it('createLinks makes each item on its own', async () => {
    await connectAlice();
    const answer = ok(
      await tool(client, 'createLinks', {
        team: alice.teamId,
        links: [{ destination: 'https://example.com/batch' }, { destination: 'https://example.com/x', name: 'Bad Name' }],
      }),
    );
    expect(answer.results).toHaveLength(2);
    expect(answer.results[0]).toMatchObject({ status: 200, code: null, message: null });
    expect(answer.results[0].link.destination).toBe('https://example.com/batch');
    expect(answer.results[1]).toMatchObject({ link: null, status: 400, code: 'invalid_name' });
    expect(answer.results[1].message).toBeTypeOf('string');
  });

  it('changeDestination, setNote and renameLink change the link', async () => {
    await connectAlice();
    const made = await newLink(client, alice.teamId);
    const moved = ok(await tool(client, 'changeDestination', { code: made.code, destination: 'https://example.org/new' }));
    expect(moved).toMatchObject({ code: made.code, destination: 'https://example.org/new' });
    const noted = ok(await tool(client, 'setNote', { code: made.code, note: 'for the flyer' }));
    expect(noted).toMatchObject({ code: made.code, note: 'for the flyer' });
    const name = uniqueName('renamed');
    const renamed = ok(await tool(client, 'renameLink', { code: made.code, name }));
    expect(renamed).toMatchObject({ code: made.code, name, destination: 'https://example.org/new', note: 'for the flyer' });
    expect(ok(await tool(client, 'linkByCode', { code: made.code }))).toEqual(renamed);
  });

  it('askForReview refuses a link that is not flagged (conflict) and takes a flagged one', async () => {
    await connectAlice();
    const made = await newLink(client, alice.teamId);
    const refused = problemOf(await tool(client, 'askForReview', { code: made.code, reason: 'it is fine' }));
    expect(refused).toMatchObject({ status: 409, code: 'conflict' });
    await mcp.store.links.setState(made.code, 'flagged', new Date());
    const reviewed = ok(await tool(client, 'askForReview', { code: made.code, reason: 'it is fine' }));
    expect(reviewed).toMatchObject({ code: made.code, state: 'flagged', destination: made.destination });
  });

  it('reportLink reports any team\'s link; three different established people flag it, one person many times does not', async () => {
    await connectAlice();
    const made = await newLink(client, alice.teamId);
    // Established at once: added by the operator (fresh sign-ups do not count, see test/e2e/reports.test.ts).
    const established = { addedByOperator: true };
    const reporters = [await mcp.person(established), await mcp.person(established), await mcp.person(established)];

    const first = await mcp.connect(reporters[0]!);
    for (let i = 0; i < 3; i++) {
      expect(ok(await tool(first, 'reportLink', { code: made.code, reason: 'phishing' }))).toEqual({
        code: made.code,
        reported: true,
      });
    }
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('active');

    const second = await mcp.connect(reporters[1]!);
    ok(await tool(second, 'reportLink', { code: made.code, reason: 'spam' }));
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('active');

    const third = await mcp.connect(reporters[2]!);
    expect(ok(await tool(third, 'reportLink', { code: made.code, reason: 'malware' }))).toEqual({
      code: made.code,
      reported: true,
    });
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('flagged');
  });

  it('reportLink of an unknown code is not_found', async () => {
    await connectAlice();
    expect(problemOf(await tool(client, 'reportLink', { code: 'zzzzzzz', reason: 'spam' }))).toMatchObject({
      status: 404,
      code: 'not_found',
      field: 'code',
    });
  });
});

describe('errors', () => {
  let alice: Actor;
  let client: Client;
  beforeAll(async () => {
    alice = await mcp.person();
  });

  it('an unknown param is bad_request naming the param', async () => {
    client = await mcp.connect(alice);
    const problem = problemOf(await tool(client, 'linkByCode', { code: 'abcdefg', colour: 'red' }));
    expect(problem).toMatchObject({ status: 400, code: 'bad_request', field: 'colour' });
  });

  it('an unknown tool is a JSON-RPC error (-32602 invalid params), not a tool result', async () => {
    client = await mcp.connect(alice);
    const failure = await tool(client, 'noSuchTool', {}).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    expect('error' in failure, `expected a JSON-RPC error, got ${JSON.stringify(failure)}`).toBe(true);
    const error = (failure as { error: unknown }).error;
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('noSuchTool');
  });
});

describe('deleteLink without elicitation', () => {
  it('refuses without confirm (bad_request on confirm) and keeps the link', async () => {
    const alice = await mcp.person();
    const client = await mcp.connect(alice);
    const made = await newLink(client, alice.teamId);
    const problem = problemOf(await tool(client, 'deleteLink', { code: made.code }));
    expect(problem).toMatchObject({ status: 400, code: 'bad_request', field: 'confirm' });
    expect(problem.detail).toContain(made.code);
    const refusedFalse = problemOf(await tool(client, 'deleteLink', { code: made.code, confirm: false }));
    expect(refusedFalse).toMatchObject({ status: 400, code: 'bad_request', field: 'confirm' });
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('active');
  });

  it('deletes with confirm: true, answering {result: null}', async () => {
    const alice = await mcp.person();
    const client = await mcp.connect(alice);
    const made = await newLink(client, alice.teamId);
    const deleted = ok(await tool(client, 'deleteLink', { code: made.code, confirm: true }));
    expect(deleted).toEqual({ result: null });
    expect(problemOf(await tool(client, 'linkByCode', { code: made.code }))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});

describe('deleteLink with elicitation', () => {
  it('asks the person, naming the code, and deletes on accept', async () => {
    const alice = await mcp.person();
    const asked: ElicitRequest[] = [];
    const client = await mcp.connect(alice, (req) => {
      asked.push(req);
      return { action: 'accept', content: { confirm: true } };
    });
    const made = await newLink(client, alice.teamId);
    const deleted = ok(await tool(client, 'deleteLink', { code: made.code }));
    expect(deleted).toEqual({ result: null });
    expect(asked).toHaveLength(1);
    const params = asked[0]!.params as any;
    expect(params.message).toContain(made.code);
    expect(params.requestedSchema.properties.confirm.type).toBe('boolean');
    expect(problemOf(await tool(client, 'linkByCode', { code: made.code }))).toMatchObject({ code: 'not_found' });
  });

  it('deletes nothing when the person declines (conflict), even if the assistant passed confirm: true', async () => {
    const alice = await mcp.person();
    let asked = 0;
    const client = await mcp.connect(alice, () => {
      asked++;
      return { action: 'decline' };
    });
    const made = await newLink(client, alice.teamId);
    expect(problemOf(await tool(client, 'deleteLink', { code: made.code }))).toMatchObject({
      status: 409,
      code: 'conflict',
    });
    expect(problemOf(await tool(client, 'deleteLink', { code: made.code, confirm: true }))).toMatchObject({
      status: 409,
      code: 'conflict',
    });
    expect(asked).toBe(2);
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('active');
  });

  it('deletes nothing when the person cancels or accepts without ticking the box', async () => {
    const alice = await mcp.person();
    const answers: ElicitResult[] = [{ action: 'cancel' }, { action: 'accept', content: { confirm: false } }];
    const client = await mcp.connect(alice, () => answers.shift()!);
    const made = await newLink(client, alice.teamId);
    for (let i = 0; i < 2; i++) {
      expect(problemOf(await tool(client, 'deleteLink', { code: made.code }))).toMatchObject({ code: 'conflict' });
    }
    expect(ok(await tool(client, 'linkByCode', { code: made.code })).state).toBe('active');
  });
});
