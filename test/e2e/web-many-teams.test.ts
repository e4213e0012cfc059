import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { memberWithTeam, startWebServer, type WebVisitor } from '../helpers/web-forms.js';

/**
 * A person in more teams than one read of the store returns (100): every page that lists their teams lists all of
 * them, and the dashboard pages the last one's links.
 */
let server: TestServer;
let visitor: WebVisitor;
let last: string;

beforeAll(async () => {
  server = await startWebServer();
  const first = await memberWithTeam(server.url, 'many-teams@example.com', 'Team 000');
  visitor = first.visitor;
  const { store } = server.app.ctx;
  const personId = (await store.people.findByEmail('many-teams@example.com'))!.id;
  for (let i = 1; i <= 104; i++) {
    last = (await store.teams.add({ name: `Team ${String(i).padStart(3, '0')}`, ownerId: personId }, server.clock.now())).id;
  }
});

afterAll(async () => {
  await server?.stop();
});

describe('a person in 105 teams', () => {
  it('sees every team on the teams page, the dashboard, the bulk page and the developers page', async () => {
    for (const path of ['/teams', '/app', '/app/links/bulk', '/developers']) {
      const page = await visitor.request('GET', path);
      expect(page.status, path).toBe(200);
      expect(page.body, path).toContain('Team 104');
      expect(page.body.match(/>Team \d{3}</g)?.length ?? 0, path).toBeGreaterThanOrEqual(105);
    }
  });

  it('lists the 105th team’s links on the dashboard', async () => {
    const page = await visitor.request('GET', `/app?team=${last}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Team 104');
    expect(page.body).toContain('0 of 25 links');
  });
});
