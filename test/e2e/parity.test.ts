/**
 * Parity of the two surfaces: the same input through `POST /v1/<operation>` and through the MCP tool of the same
 * registry entry, by the same person on the same server, answers the same: the same success shape and values
 * (ids, codes and creation times aside), or the same problem (status, code, field, detail, type, title).
 * Each side gets its own, equivalent fixture (its own team and links) so one side's changes cannot touch the other's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { tools } from '../../src/tools/index.js';
import { DEFAULT_LIMITS, type Limits } from '../../src/domain/limits.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';

/** operation → MCP tool name, from the registry (tools only assistants have are not on the HTTP API). */
const toolNameOf = new Map(tools.flatMap((t) => (t.operation ? [[t.operation, t.name] as const] : [])));
const confirming = new Set(tools.filter((t) => t.confirmation).map((t) => t.name));

let server: TestServer;
let person: Actor;
let stranger: Actor;
let client: Client;
/** A name held by a live link of another team, for name_taken. */
let takenName: string;
let strangerCode: string;

beforeAll(async () => {
  server = await startServer();
  person = await server.person({ teamName: 'Parity home' });
  stranger = await server.person({ teamName: 'Elsewhere' });
  // A second team, so listTeams has more than one page at limit 1.
  await server.app.ctx.store.teams.add({ name: 'Parity second', ownerId: person.personId }, server.clock.now());
  takenName = `taken-${process.pid}`;
  const taken = await call(
    server,
    'createLink',
    { team: stranger.teamId, destination: 'https://example.com/taken', name: takenName },
    stranger.token,
  );
  expect(taken.status).toBe(200);
  strangerCode = taken.body.code;
  client = new Client({ name: 'parity', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${person.token}` } },
    }),
  );
});
afterEach(async () => {
  await server.setLimits({ ...DEFAULT_LIMITS });
});
afterAll(async () => {
  await client?.close();
  await server.stop();
});

// ---------------------------------------------------------------------------------------------------------------
// Fixtures

type Side = 'http' | 'mcp';

/** One side's own state: a fresh team of the person, and what was made in it. */
interface Fixture {
  side: Side;
  /** Put into names so the two sides' names do not clash (names are unique across teams). */
  tag: string;
  teamId: string;
  codes: string[];
}

let fixtureCounter = 0;

async function fixture(side: Side, ownTeam = true): Promise<Fixture> {
  const n = ++fixtureCounter;
  const tag = `p${process.pid}n${n}${side === 'http' ? 'qh' : 'qm'}`;
  if (!ownTeam) return { side, tag, teamId: `<no team of ${tag}>`, codes: [] };
  const team = await server.app.ctx.store.teams.add({ name: 'Parity', ownerId: person.personId }, server.clock.now());
  return { side, tag, teamId: team.id, codes: [] };
}

/** A link in the fixture's team, made through the HTTP API. */
async function link(f: Fixture, fields: Record<string, unknown> = {}): Promise<{ code: string; name: string | null }> {
  const made = await call(
    server,
    'createLink',
    { team: f.teamId, destination: 'https://example.com/fixture', ...fields },
    person.token,
  );
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  f.codes.push(made.body.code);
  return made.body;
}

const named = (f: Fixture, base: string) => `${base}-${f.tag}`;

async function flagged(f: Fixture): Promise<string> {
  const { code } = await link(f);
  await server.app.ctx.store.links.setState(code, 'flagged', server.clock.now());
  return code;
}

/**
 * Makes a value comparable across the sides: the fixture's own strings (team id, codes, tag) become placeholders,
 * and a link object's id, code, createdAt and shortUrl (its code again) are blanked (keeping the key, so the
 * shapes still compare).
 */
function normalize(value: unknown, f: Fixture): unknown {
  if (typeof value === 'string') {
    let text = value.replaceAll(f.teamId, '<team>').replaceAll(f.tag, '<tag>');
    for (const code of f.codes) text = text.replaceAll(code, '<code>');
    return text;
  }
  if (Array.isArray(value)) return value.map((item) => normalize(item, f));
  if (value !== null && typeof value === 'object') {
    const isLink = 'destination' in value && 'state' in value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        isLink && ['id', 'code', 'createdAt', 'shortUrl'].includes(key) ? `<${key}>` : normalize(item, f),
      ]),
    );
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// The two surfaces

interface Outcome {
  status: number;
  body: any;
}

async function viaHttp(operation: string, input: Record<string, unknown>): Promise<Outcome> {
  const reply = await call(server, operation, input, person.token);
  return { status: reply.status, body: reply.body };
}

/** The MCP answer, as the HTTP API would have put it: the status of the problem, or 200 and the result. */
async function viaMcp(operation: string, input: Record<string, unknown>): Promise<Outcome> {
  const name = toolNameOf.get(operation);
  expect(name, `no tool for ${operation}`).toBeDefined();
  const args = confirming.has(name!) ? { ...input, confirm: true } : input;
  const result = await client.callTool({ name: name!, arguments: args });
  const content = result.content as Array<{ type: string; text?: string }>;
  // The JSON comes first; a result that returns links adds a second text item naming their addresses.
  expect(content.length).toBeLessThanOrEqual(result.isError ? 1 : 2);
  expect(content[0]!.type).toBe('text');
  const json = JSON.parse(content[0]!.text!);
  if (result.isError) return { status: json.status, body: json };
  expect(json).toEqual(result.structuredContent);
  const tool = tools.find((t) => t.name === name)!;
  const answersObject = (tool.output as any).def?.type === 'object';
  if (answersObject) return { status: 200, body: result.structuredContent };
  // A non-object answer (deleteLink's null) is wrapped as {result}.
  expect(Object.keys(result.structuredContent as object)).toEqual(['result']);
  return { status: 200, body: (result.structuredContent as any).result };
}

// ---------------------------------------------------------------------------------------------------------------
// The cases

type Expected = { status: 200 } | { status: number; code: string; field: string | null };

interface Case {
  title: string;
  operation: string;
  input: (f: Fixture) => Promise<Record<string, unknown>> | Record<string, unknown>;
  expected: Expected;
  limits?: Partial<Limits>;
  /** False for a case that must not add teams (listTeams lists them all). */
  ownTeam?: boolean;
  /** Extra checks on the (HTTP) success body. */
  check?: (body: any, f: Fixture) => void;
}

const success: Expected = { status: 200 };
const error = (status: number, code: string, field: string | null = null): Expected => ({ status, code, field });
const UNKNOWN_CODE = 'zzzzzzz';

const cases: Case[] = [
  // listTeams / myTeams
  { title: 'listTeams', operation: 'listTeams', input: () => ({}), expected: success, ownTeam: false,
    check: (body) => expect(body.data.map((t: any) => t.id)).toContain(person.teamId) },
  { title: 'listTeams with a page size', operation: 'listTeams', input: () => ({ limit: 1 }), expected: success, ownTeam: false,
    check: (body) => { expect(body.data).toHaveLength(1); expect(body.next).toBeTypeOf('string'); } },
  { title: 'listTeams limit 0', operation: 'listTeams', input: () => ({ limit: 0 }), expected: error(400, 'bad_request', 'limit') },
  { title: 'listTeams unknown param', operation: 'listTeams', input: () => ({ team: 'x' }), expected: error(400, 'bad_request', 'team') },
  { title: 'listTeams foreign cursor', operation: 'listTeams', input: () => ({ after: 'not-a-cursor' }), expected: error(400, 'cursor_mismatch', 'after') },

  // listLinks / teamLinks
  { title: 'listLinks', operation: 'listLinks', expected: success,
    input: async (f) => { await link(f, { name: named(f, 'one') }); await link(f, { note: 'two' }); return { team: f.teamId }; },
    check: (body) => { expect(body.data).toHaveLength(2); expect(body.next).toBeNull(); } },
  { title: 'listLinks search and state', operation: 'listLinks', expected: success,
    input: async (f) => { await link(f, { note: 'needle' }); await link(f); return { team: f.teamId, q: 'NEEDLE', state: 'active' }; },
    check: (body) => expect(body.data.map((l: any) => l.note)).toEqual(['needle']) },
  { title: 'listLinks by tag', operation: 'listLinks', expected: success,
    input: async (f) => { await link(f, { tags: ['fair'], note: 'tagged' }); await link(f); return { team: f.teamId, tag: 'fair' }; },
    check: (body) => expect(body.data.map((l: any) => [l.note, l.tags])).toEqual([['tagged', ['fair']]]) },
  { title: 'listLinks unknown team', operation: 'listLinks', input: () => ({ team: 'team_nope' }), expected: error(404, 'not_found', 'team') },

  // listTags / teamTags
  { title: 'listTags', operation: 'listTags', expected: success,
    input: async (f) => { await link(f, { tags: ['fair', 'print'] }); await link(f, { tags: ['fair'] }); return { team: f.teamId }; },
    check: (body) => expect(body).toEqual({ data: [{ tag: 'fair', links: 2 }, { tag: 'print', links: 1 }] }) },
  { title: "listTags another person's team", operation: 'listTags', input: () => ({ team: stranger.teamId }), expected: error(404, 'not_found', 'team') },
  { title: "listLinks another person's team", operation: 'listLinks', input: () => ({ team: stranger.teamId }), expected: error(404, 'not_found', 'team') },
  { title: 'listLinks bad state', operation: 'listLinks', input: (f) => ({ team: f.teamId, state: 'gone' }), expected: error(400, 'bad_request', 'state') },
  { title: 'listLinks missing team', operation: 'listLinks', input: () => ({}), expected: error(400, 'bad_request', 'team') },

  // getLink / linkByCode
  { title: 'getLink', operation: 'getLink', expected: success,
    input: async (f) => ({ code: (await link(f, { name: named(f, 'get'), note: 'read me' })).code }),
    check: (body, f) => expect(body).toMatchObject({ name: named(f, 'get'), note: 'read me', state: 'active' }) },
  { title: 'getLink flagged', operation: 'getLink', expected: success, input: async (f) => ({ code: await flagged(f) }),
    check: (body) => expect(body.state).toBe('flagged') },
  { title: 'getLink unknown code', operation: 'getLink', input: () => ({ code: UNKNOWN_CODE }), expected: error(404, 'not_found', 'code') },
  { title: "getLink another person's link", operation: 'getLink', input: () => ({ code: strangerCode }), expected: error(404, 'not_found', 'code') },
  { title: 'getLink code of the wrong type', operation: 'getLink', input: () => ({ code: 1234567 }), expected: error(400, 'bad_request', 'code') },
  { title: 'getLink code too short', operation: 'getLink', input: () => ({ code: 'abc' }), expected: error(400, 'bad_request', 'code') },

  // linkClicks
  { title: 'linkClicks', operation: 'linkClicks', expected: success, input: async (f) => ({ code: (await link(f)).code }),
    check: (body) => { expect(body.days).toHaveLength(30); expect(body.last30).toBe(0); } },
  { title: 'linkClicks unknown code', operation: 'linkClicks', input: () => ({ code: UNKNOWN_CODE }), expected: error(404, 'not_found', 'code') },

  // clickBreakdown (issue 23's addition to the spec's operations)
  { title: 'clickBreakdown of a link', operation: 'clickBreakdown', expected: success,
    input: async (f) => ({ code: (await link(f)).code, by: 'country', days: 7 }),
    check: (body) => expect(body).toMatchObject({ by: 'country', days: 7, rows: [], total: { clicks: 0, visitors: 0 } }) },
  { title: 'clickBreakdown of a team by link', operation: 'clickBreakdown', expected: success,
    input: (f) => ({ team: f.teamId, by: 'link' }), check: (body) => expect(body).toMatchObject({ by: 'link', days: 30, rows: [] }) },
  { title: 'clickBreakdown code and team', operation: 'clickBreakdown',
    input: async (f) => ({ code: (await link(f)).code, team: f.teamId, by: 'os' }), expected: error(400, 'bad_request') },
  { title: 'clickBreakdown by link of a link', operation: 'clickBreakdown',
    input: async (f) => ({ code: (await link(f)).code, by: 'link' }), expected: error(400, 'bad_request', 'by') },
  { title: 'clickBreakdown 91 days', operation: 'clickBreakdown',
    input: (f) => ({ team: f.teamId, by: 'source', days: 91 }), expected: error(400, 'bad_request', 'days') },
  { title: "clickBreakdown another person's link", operation: 'clickBreakdown',
    input: () => ({ code: strangerCode, by: 'referrer' }), expected: error(404, 'not_found', 'code') },

  // createLink
  { title: 'createLink', operation: 'createLink', expected: success,
    input: (f) => ({ team: f.teamId, destination: 'https://example.com/new?x=1', name: named(f, 'made'), note: 'Flyer, May (2026)' }),
    check: (body, f) => expect(body).toMatchObject({ name: named(f, 'made'), destination: 'https://example.com/new?x=1', state: 'active', changedAt: null }) },
  { title: 'createLink, defaults', operation: 'createLink', expected: success,
    input: (f) => ({ team: f.teamId, destination: 'https://example.com/' }),
    check: (body) => expect(body).toMatchObject({ name: null, note: null }) },
  { title: 'createLink http destination', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'http://example.com/' }),
    expected: error(400, 'invalid_destination', 'destination') },
  { title: 'createLink destination not a URL', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'not a url' }),
    expected: error(400, 'invalid_destination', 'destination') },
  { title: 'createLink private destination', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://printer.local/' }),
    expected: error(400, 'private_destination', 'destination') },
  { title: 'createLink another shortener', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://bit.ly/abc' }),
    expected: error(400, 'shortener_destination', 'destination') },
  { title: 'createLink IP address', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://10.0.0.1/' }),
    expected: error(400, 'private_destination', 'destination') },
  { title: 'createLink invalid name', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://example.com/', name: 'Has Spaces' }),
    expected: error(400, 'invalid_name', 'name') },
  { title: 'createLink name too short', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://example.com/', name: 'ab' }),
    expected: error(400, 'invalid_name', 'name') },
  { title: 'createLink reserved name', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://example.com/', name: 'admin' }),
    expected: error(400, 'reserved_name', 'name') },
  { title: 'createLink version-like name', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://example.com/', name: 'v2' }),
    expected: error(400, 'invalid_name', 'name') },
  { title: 'createLink version-like reserved name', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://example.com/', name: 'v20' }),
    expected: error(400, 'reserved_name', 'name') },
  { title: 'createLink name taken by another team', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://example.com/', name: takenName }),
    expected: error(409, 'name_taken', 'name') },
  { title: 'createLink invalid note', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://example.com/', note: 'x'.repeat(101) }),
    expected: error(400, 'invalid_note', 'note') },
  { title: 'createLink unknown param', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 'https://example.com/', colour: 'red' }),
    expected: error(400, 'bad_request', 'colour') },
  { title: 'createLink destination of the wrong type', operation: 'createLink', input: (f) => ({ team: f.teamId, destination: 42 }),
    expected: error(400, 'bad_request', 'destination') },
  { title: 'createLink missing destination', operation: 'createLink', input: (f) => ({ team: f.teamId }),
    expected: error(400, 'bad_request', 'destination') },
  { title: 'createLink unknown team', operation: 'createLink', input: () => ({ team: 'team_nope', destination: 'https://example.com/' }),
    expected: error(404, 'not_found', 'team') },
  { title: 'createLink team full', operation: 'createLink', limits: { maxLinksPerTeam: 1 },
    input: async (f) => { await link(f); return { team: f.teamId, destination: 'https://example.com/more' }; },
    expected: error(409, 'team_full') },

  // createLinks
  { title: 'createLinks, mixed items', operation: 'createLinks', expected: success,
    input: (f) => ({ team: f.teamId, links: [
      { destination: 'https://example.com/a', name: named(f, 'batch') },
      { destination: 'https://example.com/b', name: 'Bad Name' },
      { destination: 'ftp://example.com/' },
      { destination: 'https://example.com/c', name: takenName },
      { destination: 'https://example.com/d', bogus: true },
      'not an object',
    ] }),
    check: (body) => expect(body.results.map((r: any) => [r.status, r.code])).toEqual([
      [200, null], [400, 'invalid_name'], [400, 'invalid_destination'], [409, 'name_taken'], [400, 'bad_request'], [400, 'bad_request'],
    ]) },
  { title: 'createLinks team full per item', operation: 'createLinks', expected: success, limits: { maxLinksPerTeam: 2 },
    input: async (f) => { await link(f); return { team: f.teamId, links: [{ destination: 'https://example.com/1' }, { destination: 'https://example.com/2' }] }; },
    check: (body) => expect(body.results.map((r: any) => [r.status, r.code])).toEqual([[200, null], [409, 'team_full']]) },
  { title: 'createLinks empty', operation: 'createLinks', input: (f) => ({ team: f.teamId, links: [] }), expected: error(400, 'bad_request', 'links') },
  { title: 'createLinks too many', operation: 'createLinks', input: (f) => ({ team: f.teamId, links: Array.from({ length: 51 }, () => ({ destination: 'https://example.com/' })) }),
    expected: error(400, 'bad_request', 'links') },
  { title: 'createLinks unknown team', operation: 'createLinks', input: () => ({ team: 'team_nope', links: [{ destination: 'https://example.com/' }] }),
    expected: error(404, 'not_found', 'team') },

  // setDestination / changeDestination
  { title: 'setDestination', operation: 'setDestination', expected: success,
    input: async (f) => ({ code: (await link(f, { name: named(f, 'moving') })).code, destination: 'https://example.org/moved' }),
    check: (body) => expect(body).toMatchObject({ destination: 'https://example.org/moved', changedAt: server.clock.now().toISOString() }) },
  { title: 'setDestination invalid destination', operation: 'setDestination',
    input: async (f) => ({ code: (await link(f)).code, destination: 'ftp://example.com/file' }), expected: error(400, 'invalid_destination', 'destination') },
  { title: 'setDestination flagged link', operation: 'setDestination',
    input: async (f) => ({ code: await flagged(f), destination: 'https://example.org/elsewhere' }), expected: error(409, 'link_flagged') },
  { title: 'setDestination unknown code', operation: 'setDestination',
    input: () => ({ code: UNKNOWN_CODE, destination: 'https://example.org/' }), expected: error(404, 'not_found', 'code') },
  { title: 'setDestination unknown param', operation: 'setDestination',
    input: async (f) => ({ code: (await link(f)).code, destination: 'https://example.org/', name: 'x' }), expected: error(400, 'bad_request', 'name') },

  // setNote
  { title: 'setNote', operation: 'setNote', expected: success,
    input: async (f) => ({ code: (await link(f)).code, note: "Spring fair: Tom's list!" }),
    check: (body) => expect(body.note).toBe("Spring fair: Tom's list!") },
  { title: 'setNote clears', operation: 'setNote', expected: success,
    input: async (f) => ({ code: (await link(f, { note: 'old' })).code, note: null }), check: (body) => expect(body.note).toBeNull() },
  { title: 'setNote on a flagged link', operation: 'setNote', expected: success,
    input: async (f) => ({ code: await flagged(f), note: 'still mine' }), check: (body) => expect(body).toMatchObject({ note: 'still mine', state: 'flagged' }) },
  { title: 'setNote invalid note', operation: 'setNote',
    input: async (f) => ({ code: (await link(f)).code, note: '<script>' }), expected: error(400, 'invalid_note', 'note') },
  { title: 'setNote unknown code', operation: 'setNote', input: () => ({ code: UNKNOWN_CODE, note: 'x' }), expected: error(404, 'not_found', 'code') },
  { title: 'setNote missing note', operation: 'setNote', input: async (f) => ({ code: (await link(f)).code }), expected: error(400, 'bad_request', 'note') },

  // setLinkOptions
  { title: 'setLinkOptions', operation: 'setLinkOptions', expected: success,
    input: async (f) => ({ code: (await link(f)).code, maxClicks: 100, tags: ['print', 'fair'], password: 'a password of ours' }),
    check: (body) => expect(body).toMatchObject({ maxClicks: 100, tags: ['fair', 'print'], hasPassword: true }) },
  { title: 'setLinkOptions invalid tag', operation: 'setLinkOptions',
    input: async (f) => ({ code: (await link(f)).code, tags: ['ok', 'Not OK'] }), expected: error(400, 'invalid_tag', 'tags[1]') },
  { title: 'setLinkOptions on a flagged link', operation: 'setLinkOptions',
    input: async (f) => ({ code: await flagged(f), maxClicks: 5 }), expected: error(409, 'link_flagged') },

  // renameLink
  { title: 'renameLink', operation: 'renameLink', expected: success,
    input: async (f) => ({ code: (await link(f)).code, name: named(f, 'renamed') }),
    check: (body, f) => expect(body.name).toBe(named(f, 'renamed')) },
  { title: 'renameLink removes the name', operation: 'renameLink', expected: success,
    input: async (f) => ({ code: (await link(f, { name: named(f, 'dropped') })).code, name: null }), check: (body) => expect(body.name).toBeNull() },
  { title: 'renameLink invalid name', operation: 'renameLink',
    input: async (f) => ({ code: (await link(f)).code, name: 'UPPER' }), expected: error(400, 'invalid_name', 'name') },
  { title: 'renameLink reserved name', operation: 'renameLink',
    input: async (f) => ({ code: (await link(f)).code, name: 'mcp' }), expected: error(400, 'reserved_name', 'name') },
  { title: 'renameLink name taken', operation: 'renameLink',
    input: async (f) => ({ code: (await link(f)).code, name: takenName }), expected: error(409, 'name_taken', 'name') },
  { title: 'renameLink flagged link', operation: 'renameLink',
    input: async (f) => ({ code: await flagged(f), name: named(f, 'flagged') }), expected: error(409, 'link_flagged') },
  { title: "renameLink another person's link", operation: 'renameLink',
    input: (f) => ({ code: strangerCode, name: named(f, 'stolen') }), expected: error(404, 'not_found', 'code') },

  // deleteLink (over MCP with confirm: true, since this client has no elicitation)
  { title: 'deleteLink', operation: 'deleteLink', expected: success, input: async (f) => ({ code: (await link(f)).code }),
    check: (body) => expect(body).toBeNull() },
  { title: 'deleteLink unknown code', operation: 'deleteLink', input: () => ({ code: UNKNOWN_CODE }), expected: error(404, 'not_found', 'code') },
  { title: "deleteLink another person's link", operation: 'deleteLink', input: () => ({ code: strangerCode }), expected: error(404, 'not_found', 'code') },
  { title: 'deleteLink unknown param', operation: 'deleteLink',
    input: async (f) => ({ code: (await link(f)).code, force: true }), expected: error(400, 'bad_request', 'force') },
];

describe('HTTP and MCP answer the same', () => {
  it('covers every operation of the registry', () => {
    expect(new Set(cases.map((c) => c.operation))).toEqual(new Set(toolNameOf.keys()));
  });

  it.each(cases)('$title', async ({ operation, input, expected, limits, check, ownTeam }) => {
    const httpSide = await fixture('http', ownTeam);
    const mcpSide = await fixture('mcp', ownTeam);
    const httpInput = await input(httpSide);
    const mcpInput = await input(mcpSide);
    if (limits) await server.setLimits(limits);

    const http = await viaHttp(operation, httpInput);
    const mcp = await viaMcp(operation, mcpInput);

    if (expected.status === 200) {
      expect(http.status, JSON.stringify(http.body)).toBe(200);
      expect(mcp.status, JSON.stringify(mcp.body)).toBe(200);
      check?.(http.body, httpSide);
      check?.(mcp.body, mcpSide);
      expect(normalize(mcp.body, mcpSide)).toEqual(normalize(http.body, httpSide));
    } else {
      const want = expected as { status: number; code: string; field: string | null };
      expect(http.body, `HTTP ${http.status}`).toMatchObject({ status: want.status, code: want.code, field: want.field });
      expect(http.status).toBe(want.status);
      expect(mcp.body).toMatchObject({ status: want.status, code: want.code, field: want.field });
      expect(normalize(mcp.body, mcpSide)).toEqual(normalize(http.body, httpSide));
    }
  });

  it('leaves the same state behind: a link deleted on each side is gone on both', async () => {
    const httpSide = await fixture('http');
    const mcpSide = await fixture('mcp');
    const a = await link(httpSide);
    const b = await link(mcpSide);
    expect((await viaHttp('deleteLink', { code: a.code })).status).toBe(200);
    expect((await viaMcp('deleteLink', { code: b.code })).status).toBe(200);
    for (const code of [a.code, b.code]) {
      expect((await viaHttp('getLink', { code })).body).toMatchObject({ code: 'not_found' });
      expect((await viaMcp('getLink', { code })).body).toMatchObject({ code: 'not_found' });
    }
  });
});
