import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { memberWithTeam, startWebServer, type WebVisitor } from '../helpers/web-forms.js';

/** The operator's list with more open reports than a page shows: the oldest 200, and where to see the rest. */
let server: TestServer;
let operator: WebVisitor;

beforeAll(async () => {
  server = await startWebServer();
  const made = await memberWithTeam(server.url, 'many-reports-operator@example.com', 'Operators');
  operator = made.visitor;
  const { store } = server.app.ctx;
  const personId = (await store.people.findByEmail('many-reports-operator@example.com'))!.id;
  await store.people.setOperator(personId, true);
  const limits = await store.settings.limits();
  const team = await store.teams.get(made.team);
  for (let i = 0; i < 203; i++) {
    const link = await store.links.create(
      { teamId: made.team, teamCreatedAt: new Date(team!.createdAt), destination: `https://example.com/${i}`, name: null, note: null },
      { ...limits, maxLinksPerTeam: 1_000, perHour: 1_000, perDay: 1_000, firstWeekPerDay: 1_000 },
      new Date(server.clock.now().getTime() + i),
    );
    await store.moderation.report(link.id, personId, `Report ${i}`, { reportsToFlag: 1_000, establishedAfterHours: 72 }, new Date(server.clock.now().getTime() + i));
  }
});

afterAll(async () => {
  await server?.stop();
});

describe('an operator with 203 open reports', () => {
  it('sees the oldest 200 and the command that lists them all', async () => {
    const page = await operator.request('GET', '/admin');
    expect(page.status).toBe(200);
    expect(page.body.match(/Reason: “Report \d+”/g)).toHaveLength(200);
    expect(page.body).toContain('Reason: “Report 0”');
    expect(page.body).not.toContain('Reason: “Report 200”');
    expect(page.body).toContain('The oldest 200 of 203; <code>shortlinks reports list</code> lists them all.');
  });
});
