import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { memberWithTeam, startWebServer } from '../helpers/web-forms.js';

/** A team's page lists its links' tags, each with its links, each leading to the dashboard's list of them. */
let server: TestServer;
beforeAll(async () => {
  server = await startWebServer();
});
afterAll(() => server.stop());

async function tagged(team: string, tags: string[]): Promise<void> {
  const { store, clock } = server.app.ctx;
  const found = await store.teams.get(team);
  await store.links.create(
    { teamId: team, teamCreatedAt: new Date(found!.createdAt), destination: 'https://example.com/', name: null, note: null, tags },
    await store.settings.limits(),
    clock.now(),
  );
}

describe("a team's tags", () => {
  it('are listed by tag with their links, each a link to the dashboard filtered by it', async () => {
    const { visitor, team } = await memberWithTeam(server.url, 'tags-owner@example.com', 'Fair crew');
    const bare = await visitor.request('GET', `/teams/${team}`);
    expect(bare.status).toBe(200);
    expect(bare.body).not.toContain('<h2>Tags</h2>');
    await tagged(team, ['spring', 'print']);
    await tagged(team, ['spring']);
    const page = await visitor.request('GET', `/teams/${team}`);
    expect(page.body).toContain(
      '<h2>Tags</h2><ul class="tags">' +
        `<li><a href="/app?team=${team}&amp;tag=print">print</a> <span class="muted">1 link</span></li>` +
        `<li><a href="/app?team=${team}&amp;tag=spring">spring</a> <span class="muted">2 links</span></li></ul>`,
    );
  });
});
