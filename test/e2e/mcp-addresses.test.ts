/**
 * What assistants are told of addresses and limits, through the SDK's own Client over real Streamable HTTP:
 * tool descriptions name the service's real address and the limits in force at the time of tools/list, and every
 * result that returns links adds a second text item naming each link's short addresses and QR code, while the
 * JSON text item and structuredContent stay the Link exactly (the spec's fields, then the service's additions) (docs/behaviour.md "Assistants (MCP)").
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { runCli } from '../helpers/cli.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';
import { LINK_FIELDS } from '../helpers/api-links.js';


let server: TestServer;
let url: string;
const open: Client[] = [];

beforeAll(async () => {
  server = await startServer();
  url = server.url;
});
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((client) => client.close()));
  await server.setLimits({ ...DEFAULT_LIMITS });
});
afterAll(() => server.stop());

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'addresses', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  open.push(client);
  return client;
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

/** The text items of a result. */
function texts(result: ToolResult): string[] {
  const content = result.content as Array<{ type: string; text?: string }>;
  expect(content.every((block) => block.type === 'text')).toBe(true);
  return content.map((block) => block.text!);
}

/** A successful result that returns links: the JSON item first (equal to structuredContent), then the addresses. */
function withAddresses(result: ToolResult): { structured: any; addresses: string } {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const items = texts(result);
  expect(items).toHaveLength(2);
  expect(JSON.parse(items[0]!)).toEqual(result.structuredContent);
  return { structured: result.structuredContent, addresses: items[1]! };
}

/** What the second text item says of one active link. */
function block(link: { code: string; name: string | null; destination: string }): string {
  return [
    `Short link: ${url}/${link.code}`,
    ...(link.name ? [`By name: ${url}/${link.name}`] : []),
    `QR code: ${url}/${link.code}/qr`,
    `Leads to: ${link.destination}`,
  ].join('\n');
}

async function descriptions(client: Client): Promise<Map<string, string>> {
  const { tools } = await client.listTools();
  return new Map(tools.map((t) => [t.name, t.description!]));
}

let counter = 0;
const uniqueName = (base: string) => `${base}-${process.pid}-${++counter}`;

describe('tool descriptions', () => {
  it("name the service's real address and the limits in force, and never the placeholder", async () => {
    const alice = await server.person();
    const described = await descriptions(await connect(alice.token));
    for (const [name, text] of described) expect(text, name).not.toContain('PUBLIC_URL');
    const create = described.get('createLink')!;
    expect(create).toContain(`${url}/<code>`);
    expect(create).toContain(`${url}/<name>`);
    expect(create).toContain(`${url}/<code>/qr`);
    expect(create).toContain('A team holds at most 25 links and may make 20 an hour and 100 a day (10 a day in its first week).');
    expect(described.get('createLinks')).toContain('A team holds at most 25 links and may make 20 an hour');
    expect(described.get('linkByCode')).toContain(`the part after ${url}/ in a short link`);
    expect(described.get('createLinks')).toContain('600 calls a minute');
    expect(described.get('teamLinks')).toContain('600 calls a minute');
    for (const name of ['changeDestination', 'renameLink', 'deleteLink']) {
      expect(described.get(name), name).toContain('60 changes an hour');
    }
  });

  it('show a limit the operator changed on the very next tools/list, in the same session', async () => {
    const alice = await server.person();
    const client = await connect(alice.token);
    expect((await descriptions(client)).get('createLink')).toContain('at most 25 links');
    await server.setLimits({ maxLinksPerTeam: 40, perHour: 7, perDay: 70, firstWeekPerDay: 5, changesPerHour: 9, callsPerMinute: 300 });
    const described = await descriptions(client);
    expect(described.get('createLink')).toContain('A team holds at most 40 links and may make 7 an hour and 70 a day (5 a day in its first week).');
    expect(described.get('changeDestination')).toContain('9 changes an hour');
    expect(described.get('teamLinks')).toContain('300 calls a minute');
  });

  it('follow `shortlinks limits set`, run as its own process while the server runs', async () => {
    const alice = await server.person();
    const client = await connect(alice.token);
    expect((await descriptions(client)).get('createLink')).toContain('at most 25 links');
    const run = await runCli(server.dbPath, 'limits', 'set', '--team-links', '33', '--first-week-per-day', '200');
    expect(run.code, run.stderr).toBe(0);
    // A first-week allowance above the daily one cannot apply: the description names the one in force.
    expect((await descriptions(client)).get('createLink')).toContain(
      'A team holds at most 33 links and may make 20 an hour and 100 a day (100 a day in its first week).',
    );
  });
});

describe('results name the short addresses and the QR code', () => {
  let alice: Actor;
  let client: Client;
  beforeAll(async () => {
    alice = await server.person({ teamName: 'Addresses' });
  });

  it('createLink: the spec Link as structured content and JSON, then its addresses, which work', async () => {
    client = await connect(alice.token);
    const name = uniqueName('flyer');
    const result = await client.callTool({
      name: 'createLink',
      arguments: { team: alice.teamId, destination: 'https://example.com/spring', name, note: 'for print' },
    });
    const { structured, addresses } = withAddresses(result);
    expect(Object.keys(structured)).toEqual(LINK_FIELDS);
    const http = await call(server, 'getLink', { code: structured.code }, alice.token);
    expect(http.status).toBe(200);
    expect(Object.keys(http.body)).toEqual(LINK_FIELDS);
    expect(structured).toEqual(http.body);
    expect(addresses).toBe(
      `Short link: ${url}/${structured.code}\n` +
        `By name: ${url}/${name}\n` +
        `QR code: ${url}/${structured.code}/qr\n` +
        'Leads to: https://example.com/spring',
    );
    for (const address of [`${url}/${structured.code}`, `${url}/${name}`]) {
      const res = await fetch(address, { redirect: 'manual' });
      expect(res.status, address).toBe(302);
      expect(res.headers.get('location')).toBe('https://example.com/spring');
    }
    const qr = await fetch(`${url}/${structured.code}/qr`);
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('a link without a name has no "By name" line', async () => {
    client = await connect(alice.token);
    const result = await client.callTool({ name: 'createLink', arguments: { team: alice.teamId, destination: 'https://example.com/plain' } });
    const { structured, addresses } = withAddresses(result);
    expect(structured.name).toBeNull();
    expect(addresses).toBe(block(structured));
  });

  it('createLinks names every made link, in order, and no failed item', async () => {
    client = await connect(alice.token);
    const name = uniqueName('batch');
    const result = await client.callTool({
      name: 'createLinks',
      arguments: {
        team: alice.teamId,
        links: [
          { destination: 'https://example.com/b1', name },
          { destination: 'https://example.com/bad', name: 'Bad Name' },
          { destination: 'https://example.com/b3' },
        ],
      },
    });
    const { structured, addresses } = withAddresses(result);
    const [first, failed, third] = structured.results;
    expect(failed).toMatchObject({ link: null, status: 400, code: 'invalid_name' });
    expect(Object.keys(first.link)).toEqual(LINK_FIELDS);
    expect(addresses).toBe(`${block(first.link)}\n\n${block(third.link)}`);
  });

  it('teamLinks names every row of the page; an empty page adds nothing', async () => {
    const bob = await server.person();
    client = await connect(bob.token);
    const empty = await client.callTool({ name: 'teamLinks', arguments: { team: bob.teamId } });
    expect(texts(empty)).toHaveLength(1);
    expect(JSON.parse(texts(empty)[0]!)).toEqual({ data: [], next: null });
    for (const path of ['one', 'two', 'three']) {
      await client.callTool({ name: 'createLink', arguments: { team: bob.teamId, destination: `https://example.com/${path}` } });
    }
    const { structured, addresses } = withAddresses(await client.callTool({ name: 'teamLinks', arguments: { team: bob.teamId } }));
    expect(structured.data).toHaveLength(3);
    expect(addresses).toBe(structured.data.map(block).join('\n\n'));
  });

  it('linkByCode, changeDestination, setNote and renameLink name the link as it now is', async () => {
    client = await connect(alice.token);
    const made = withAddresses(
      await client.callTool({ name: 'createLink', arguments: { team: alice.teamId, destination: 'https://example.com/a' } }),
    ).structured;
    const read = withAddresses(await client.callTool({ name: 'linkByCode', arguments: { code: made.code } }));
    expect(read.addresses).toBe(block(made));
    const moved = withAddresses(
      await client.callTool({ name: 'changeDestination', arguments: { code: made.code, destination: 'https://example.org/b' } }),
    );
    expect(moved.addresses).toBe(block({ ...made, destination: 'https://example.org/b' }));
    const noted = withAddresses(await client.callTool({ name: 'setNote', arguments: { code: made.code, note: 'hello' } }));
    expect(noted.addresses).toBe(block({ ...made, destination: 'https://example.org/b' }));
    const name = uniqueName('renamed');
    const renamed = withAddresses(await client.callTool({ name: 'renameLink', arguments: { code: made.code, name } }));
    expect(renamed.addresses).toBe(block({ code: made.code, name, destination: 'https://example.org/b' }));
    const unnamed = withAddresses(await client.callTool({ name: 'renameLink', arguments: { code: made.code, name: null } }));
    expect(unnamed.addresses).toBe(block({ code: made.code, name: null, destination: 'https://example.org/b' }));
  });

  it('a flagged or disabled link says what its visitors see (askForReview, linkByCode)', async () => {
    client = await connect(alice.token);
    const made = withAddresses(
      await client.callTool({ name: 'createLink', arguments: { team: alice.teamId, destination: 'https://example.com/f' } }),
    ).structured;
    await server.app.ctx.store.links.setState(made.code, 'flagged', new Date());
    const reviewed = withAddresses(await client.callTool({ name: 'askForReview', arguments: { code: made.code, reason: 'fine' } }));
    expect(reviewed.structured.state).toBe('flagged');
    expect(reviewed.addresses).toBe(
      `${block(made)}\nState: flagged (visitors see a warning page before the destination)`,
    );
    await server.app.ctx.store.links.setState(made.code, 'disabled', new Date());
    const disabled = withAddresses(await client.callTool({ name: 'linkByCode', arguments: { code: made.code } }));
    expect(disabled.addresses).toBe(`${block(made)}\nState: disabled (visitors get a page saying the link no longer works)`);
  });

  it('results without links and errors keep their one JSON text item', async () => {
    client = await connect(alice.token);
    const made = withAddresses(
      await client.callTool({ name: 'createLink', arguments: { team: alice.teamId, destination: 'https://example.com/c' } }),
    ).structured;
    for (const [name, args] of [
      ['myTeams', {}],
      ['linkClicks', { code: made.code }],
      ['linkByCode', { code: 'zzzzzzz' }],
      ['createLink', { team: alice.teamId, destination: 'http://example.com/' }],
      ['deleteLink', { code: made.code, confirm: true }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(texts(result), name).toHaveLength(1);
      JSON.parse(texts(result)[0]!);
    }
  });
});
