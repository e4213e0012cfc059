import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { reportsList } from '../../src/cli/moderation.js';
import { HOUR_MS } from '../../src/domain/limits.js';
import { listReports } from '../../src/operator/moderation.js';
import { call, expectProblem, startServer, TestClock, type TestServer } from '../helpers/server.js';
import { WebVisitor } from '../helpers/web-forms.js';

/**
 * reportLink against accounts made for the purpose: sign-up is open and unverified, so only reports of established
 * people (added by the operator, or signed up 72 hours ago, agreed to the terms and in a team) flag a link. Every
 * report is kept for the operator.
 */

let server: TestServer;
let accounts = 0;
const NO_ARGS = { values: {}, positionals: [] };

beforeEach(async () => {
  // The service's clock starts at the real time, so the operator CLI (which reads the real time) agrees with it.
  server = await startServer({ clock: new TestClock(new Date()) });
});
afterEach(() => server.stop());

/** reportLink as an assistant calls it: MCP over Streamable HTTP with the person's token. */
async function report(token: string, code: string, reason: string): Promise<unknown> {
  const client = new Client({ name: 'reporter', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  }));
  try {
    const result = await client.callTool({ name: 'reportLink', arguments: { code, reason } });
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    return result.structuredContent;
  } finally {
    await client.close();
  }
}

/** Another team's link, with its owner's token. */
async function victim(): Promise<{ code: string; token: string }> {
  const owner = await server.person({ teamName: 'Victims' });
  const made = await call(server, 'createLink', { team: owner.teamId, destination: 'https://example.com/ours' }, owner.token);
  expect(made.status).toBe(200);
  return { code: made.body.code, token: owner.token };
}

/** Fresh accounts made through the web app's sign-up, as an attacker would, each with a token. */
async function signUps(count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) tokens.push(await new WebVisitor(server.url).newAccountWithToken(`fresh${++accounts}@example.com`));
  return tokens;
}

async function expectActive(link: { code: string; token: string }): Promise<void> {
  expect((await call(server, 'getLink', { code: link.code }, link.token)).body.state).toBe('active');
  const visit = await fetch(`${server.url}/${link.code}`, { redirect: 'manual' });
  expect(visit.status).toBe(302);
  expect(visit.headers.get('location')).toBe('https://example.com/ours');
}

async function expectFlagged(link: { code: string; token: string }): Promise<void> {
  expect((await call(server, 'getLink', { code: link.code }, link.token)).body.state).toBe('flagged');
  const visit = await fetch(`${server.url}/${link.code}`, { redirect: 'manual' });
  expect(visit.status).toBe(200);
  const moved = await call(server, 'setDestination', { code: link.code, destination: 'https://example.com/other' }, link.token);
  expectProblem(server, moved, 409, 'link_flagged', null);
}

describe('reportLink', () => {
  it('three accounts signed up moments ago do not flag another team\'s link; the operator sees their reports', async () => {
    const link = await victim();
    const tokens = await signUps(3);
    const answers = await Promise.all(tokens.map((token) => report(token, link.code, 'phishing')));
    expect(answers).toEqual(Array(3).fill({ code: link.code, reported: true }));

    await expectActive(link);
    const moved = await call(server, 'setDestination', { code: link.code, destination: 'https://example.com/new' }, link.token);
    expect(moved.status).toBe(200);

    const { reports } = await listReports(server.app.ctx.store, server.clock.now());
    expect(reports).toHaveLength(3);
    for (const kept of reports) {
      expect(kept).toEqual({
        id: expect.stringMatching(/^report_/),
        linkCode: link.code,
        personId: expect.stringMatching(/^person_/),
        reason: 'phishing',
        createdAt: server.clock.now().toISOString(),
        counts: false,
      });
    }
    const printed = await reportsList.execute(NO_ARGS, server.app.ctx.store);
    expect(printed.text.split('\n')).toHaveLength(3);
    for (const line of printed.text.split('\n')) {
      expect(line).toContain(`${link.code}  person_`);
      expect(line).toContain(' (not established: does not count)  "phishing"');
    }
  });

  it('reports of 3 people the operator added flag the link; fresh accounts do not make up the number', async () => {
    const link = await victim();
    for (const token of await signUps(3)) await report(token, link.code, 'spam');
    const added = [1, 2, 3].map(() => server.person({ addedByOperator: true }));
    const [first, second, third] = await Promise.all(added);

    await report(first!.token, link.code, 'malware');
    await report(second!.token, link.code, 'malware');
    await expectActive(link);
    await report(third!.token, link.code, 'malware');
    await expectFlagged(link);

    const { reports } = await listReports(server.app.ctx.store, server.clock.now());
    // One instant on the test clock, so their order is the ids'.
    expect(reports.map((r) => `${r.reason} ${r.counts}`).sort()).toEqual([
      'malware true', 'malware true', 'malware true', 'spam false', 'spam false', 'spam false',
    ]);
  });

  it('counts accounts once they are 72 hours old (agreed, in a team): their next report flags the link', async () => {
    const link = await victim();
    const tokens = await signUps(3);
    for (const token of tokens) await report(token, link.code, 'phishing');

    server.clock.advance(72 * HOUR_MS - 1_000);
    await report(tokens[0]!, link.code, 'still phishing');
    await expectActive(link);

    server.clock.advance(1_000);
    const { reports } = await listReports(server.app.ctx.store, server.clock.now());
    expect(reports.map((r) => r.counts)).toEqual([true, true, true]);
    await report(tokens[1]!, link.code, 'still phishing');
    await expectFlagged(link);
  });

  it('follows the operator\'s established-after-hours limit', async () => {
    const link = await victim();
    await server.setLimits({ establishedAfterHours: 0 });
    for (const token of await signUps(3)) await report(token, link.code, 'phishing');
    await expectFlagged(link);
  });
});
