import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { call, startServer, TestClock, type TestServer } from '../helpers/server.js';
import { WebVisitor } from '../helpers/web-forms.js';

/** The operator's side of reports and of the sign-up limits, through the compiled CLI on the server's database. */

let server: TestServer;

beforeAll(async () => {
  // The CLI reads the real time; the server's clock starts there too.
  server = await startServer({ clock: new TestClock(new Date()) });
});
afterAll(() => server.stop());

async function json(...args: string[]): Promise<any> {
  const run = await runCli(server.dbPath, ...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('the operator CLI', () => {
  it('limits set takes the report and sign-up limits; established-after-hours may be 0, the others may not', async () => {
    const set = await json('limits', 'set', '--established-after-hours', '0', '--signups-per-hour', '1', '--teams-per-hour', '7');
    expect(set).toMatchObject({ establishedAfterHours: 0, signupsPerHour: 1, teamsPerHour: 7, reportsToFlag: 3 });
    for (const flag of ['--signups-per-hour', '--teams-per-hour']) {
      const run = await runCli(server.dbPath, 'limits', 'set', flag, '0');
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${flag} must be a whole number from 1 to 1000000000: "0"`);
    }
    expect((await runCli(server.dbPath, 'limits', 'set', '--established-after-hours', '-1')).code).toBe(2);

    // The running server applies the new sign-up limit on its next request.
    expect((await new WebVisitor(server.url).signUp('first@example.com')).status).toBe(303);
    expect((await new WebVisitor(server.url).signUp('second@example.com')).status).toBe(429);
    await json('limits', 'set', '--established-after-hours', '72', '--signups-per-hour', '10', '--teams-per-hour', '10');
  });

  it('reports list marks the reports of people not yet established, and person add makes people who count', async () => {
    const owner = await server.person();
    const made = await call(server, 'createLink', { team: owner.teamId, destination: 'https://example.com/x' }, owner.token);
    const { store } = server.app.ctx;
    const link = (await store.links.findByCode(made.body.code))!;
    const report = async (personId: string, reason: string) =>
      store.moderation.report(link.id, personId, reason, await store.settings.limits(), server.clock.now());

    const fresh = await server.person();
    await report(fresh.personId, 'spam');
    const added = await json('person', 'add', '--email', 'vouched@example.com', '--agree-terms', '--password', 'long enough password');
    await report(added.id, 'malware');

    const { reports } = await json('reports', 'list');
    expect(reports.map((r: any) => [r.personId, r.reason, r.counts]).sort()).toEqual(
      [[fresh.personId, 'spam', false], [added.id, 'malware', true]].sort(),
    );
    const text = await runCli(server.dbPath, 'reports', 'list');
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n').filter((line) => line.includes(made.body.code));
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.includes(fresh.personId))).toContain(`${fresh.personId} (not established: does not count)  "spam"`);
    expect(lines.find((line) => line.includes(added.id))).toContain(`${added.id}  "malware"`);
  });
});
