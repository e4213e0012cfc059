/**
 * A person in no team (a new account, signed in by an assistant before making or joining one) is never left
 * stuck: the tools that need a team say where to make one (docs/behaviour.md "The first hour of a private
 * instance"), keeping the spec's status and code. Through MCP in process, on SQLite here and on PostgreSQL in
 * store-postgres.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpHarness, PUBLIC_URL } from '../helpers/mcp-in-memory.js';
import { ok, problemOf, tool } from '../helpers/mcp-results.js';
import type { Caller } from '../helpers/tool-harness.js';

const NO_TEAM_YET = `You are in no team yet: make one, or accept an invitation to one, at ${PUBLIC_URL}/teams.`;

let mcp: McpHarness;
let newcomer: Caller;

beforeAll(async () => {
  mcp = await McpHarness.open();
  const person = await mcp.store.people.add({ email: `no-team-${process.pid}@example.com`, passwordHash: null, agreedTerms: true, addedByOperator: false }, mcp.clock.now());
  newcomer = { personId: person.id, scopes: null, recordTeamId: null };
});
afterEach(() => mcp.disconnect());
afterAll(() => mcp.close());

describe('a person in no team', () => {
  it('myTeams: the empty page, and a second text naming where to make a team', async () => {
    const client = await mcp.connect(newcomer);
    const result = await tool(client, 'myTeams');
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ data: [], next: null });
    expect(result.content).toEqual([
      { type: 'text', text: '{"data":[],"next":null}' },
      { type: 'text', text: NO_TEAM_YET },
    ]);
  });

  it('teamLinks and createLink: 404 not_found at team, whose detail says where to make one', async () => {
    const someone = await mcp.person();
    const client = await mcp.connect(newcomer);
    for (const [name, args] of [
      ['teamLinks', { team: someone.teamId }],
      ['createLink', { team: someone.teamId, destination: 'https://example.com/' }],
      ['createLinks', { team: 'team_AAAAAAAAAAAAAAAA', links: [{ destination: 'https://example.com/' }] }],
    ] as const) {
      expect(problemOf(await tool(client, name, args), PUBLIC_URL), name).toMatchObject({ status: 404, code: 'not_found', field: 'team', detail: NO_TEAM_YET });
    }
  });

  it('once in a team: no note on myTeams, and the usual 404 for a team not theirs', async () => {
    const member = await mcp.person();
    const other = await mcp.person();
    const client = await mcp.connect(member);
    const teams = await tool(client, 'myTeams');
    expect(ok(teams)).toEqual({ data: [{ id: member.teamId, name: 'Team' }], next: null });
    expect(teams.content).toHaveLength(1);
    expect(problemOf(await tool(client, 'teamLinks', { team: other.teamId }), PUBLIC_URL)).toMatchObject({
      status: 404,
      code: 'not_found',
      field: 'team',
      detail: 'No team with that id is among your teams.',
    });
  });
});
