/**
 * Each tool's declared error codes (`errors`: the docs, the OpenAPI document and tools/list name them) against the
 * codes its `run` throws. "Can throw" is found by driving: every tool of the registry runs, on a fresh SQLite
 * store, in every situation below (a link flagged or disabled, a full team, spent limits, a stranger, a token of
 * another team, each bad name, note and destination, the network down, a cursor of another call), with a good value
 * for each of its params unless the situation changes it. A code it throws there but does not declare fails, and so
 * does a code it declares but throws in none of them: a new rule either names its code or gets its situation here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/errors.js';
import type { Tool } from '../../src/tools/define-tool.js';
import { tools } from '../../src/tools/index.js';
import { myTeams } from '../../src/tools/my-teams.js';
import { teamLinks } from '../../src/tools/team-links.js';
import { ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

/** What any call may answer whatever the tool: malformed params, and a team or link outside the caller's reach. */
const COMMON: readonly ErrorCode[] = ['bad_request', 'not_found'];

/** The world of one situation: Alice's team, a link of hers, another named one, and Bob, a stranger to them. */
interface World {
  h: ToolHarness;
  alice: Actor;
  bob: Actor;
  code: string;
}

/** A good value for each param a tool may take. */
const GOOD: Record<string, (w: World) => unknown> = {
  team: (w) => w.alice.teamId,
  code: (w) => w.code,
  destination: () => 'https://example.org/new',
  name: () => 'a-fresh-name',
  note: () => 'A fine note',
  reason: () => 'It is fine.',
  links: () => [{ destination: 'https://example.org/new' }],
  limit: () => 1,
  maxClicks: () => 100,
};

/** A situation: what it does to the world, then the caller and the params it changes (only those the tool takes). */
type Situation = (w: World) => Promise<{ caller?: Caller; params?: Record<string, unknown> }>;

const SITUATIONS: Record<string, Situation> = {
  'all is well': async () => ({}),
  'the link is flagged': async (w) => (await w.h.setState(w.code, 'flagged'), {}),
  'the link is disabled': async (w) => (await w.h.setState(w.code, 'disabled'), {}),
  'the team is full': async (w) => (await w.h.setLimits({ maxLinksPerTeam: 2 }), {}),
  'the hour’s limits are spent': async (w) => (await w.h.setLimits({ perHour: 2, changesPerHour: 0 }), {}),
  'a stranger calls': async (w) => ({ caller: w.bob }),
  'a token of another team calls': async (w) => ({ caller: w.h.caller(w.alice, { limitedTo: await w.h.team(w.alice, 'Other') }) }),
  'a malformed name': async () => ({ params: { name: 'No!' } }),
  'a reserved name': async () => ({ params: { name: 'admin' } }),
  'a name taken': async () => ({ params: { name: 'taken-name' } }),
  'a malformed note': async () => ({ params: { note: 'no <tags>' } }),
  'a destination not https': async () => ({ params: { destination: 'http://example.org/' } }),
  'a blocked destination': async (w) => (await w.h.block('blocked-site.com'), { params: { destination: 'https://blocked-site.com/' } }),
  'a private destination': async (w) => (w.h.network.privateHosts.add('private.example'), { params: { destination: 'https://private.example/' } }),
  'an unsafe destination': async (w) => (w.h.network.unsafeUrls.add('https://phish.example.com/login'), { params: { destination: 'https://phish.example.com/login' } }),
  'another shortener': async () => ({ params: { destination: 'https://bit.ly/x' } }),
  'an expiry in the past': async () => ({ params: { expiresAt: '2020-01-01T00:00:00Z' } }),
  'a click cap of 0': async () => ({ params: { maxClicks: 0 } }),
  'a password too short': async () => ({ params: { password: 'short' } }),
  'an uppercase tag': async () => ({ params: { tags: ['Launch'] } }),
  'the DNS is down': async (w) => ((w.h.network.dnsDown = true), { params: { destination: 'https://example.org/new' } }),
  'a cursor of listLinks': async (w) => ({ params: { after: (await w.h.ok(teamLinks, w.alice, { team: w.alice.teamId, limit: 1 })).next } }),
  'a cursor of listTeams': async (w) => {
    await w.h.team(w.alice, 'Second');
    return { params: { after: (await w.h.ok(myTeams, w.alice, { limit: 1 })).next } };
  },
};

let harness: ToolHarness | undefined;
afterEach(() => harness?.close());

/** The code the tool throws in the situation, or null when it answers. */
async function codeIn(tool: Tool, situation: Situation): Promise<ErrorCode | null> {
  harness?.close();
  const h = (harness = new ToolHarness());
  const alice = await h.person();
  const bob = await h.person();
  const { code } = await h.link(alice);
  await h.link(alice, { name: 'taken-name' });
  const world = { h, alice, bob, code };
  const { caller = alice, params = {} } = await situation(world);
  const keys = Object.keys(tool.input.shape);
  const good = Object.fromEntries(keys.filter((key) => GOOD[key]).map((key) => [key, GOOD[key]!(world)]));
  const changed = Object.fromEntries(Object.entries(params).filter(([key]) => keys.includes(key)));
  const answer = await h.call(tool, caller, { ...good, ...changed });
  return answer !== null && typeof answer === 'object' && 'code' in answer && 'status' in answer && 'detail' in answer
    ? (answer.code as ErrorCode)
    : null;
}

describe('declared error codes', () => {
  it.each(tools.map((tool) => [tool.name, tool] as const))('%s throws exactly the codes it declares', async (_, tool) => {
    const thrown = new Set<ErrorCode>();
    for (const situation of Object.values(SITUATIONS)) {
      const code = await codeIn(tool, situation);
      if (code !== null) thrown.add(code);
    }
    const particular = [...thrown].filter((code) => !COMMON.includes(code));
    expect(particular.sort()).toEqual([...tool.errors].sort());
  });
});
