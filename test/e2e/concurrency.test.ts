import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.setLimits({ perHour: 1000, perDay: 1000, firstWeekPerDay: 1000 });
});
afterAll(() => server.stop());

describe('limits under concurrent calls', () => {
  it('makes exactly 25 links from 30 parallel createLink calls against a 25-link team', async () => {
    const alice = await server.person();
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(server, 'createLink', { team: alice.teamId, destination: `https://example.com/${i}` }, alice.token),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(25);
    expect(replies.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(Array(5).fill('team_full'));
    const listed = await call(server, 'listLinks', { team: alice.teamId, limit: 100 }, alice.token);
    expect(listed.body.data).toHaveLength(25);
    expect(new Set(listed.body.data.map((l: { code: string }) => l.code)).size).toBe(25);
  });

  it('gives a contested name to exactly one of many parallel calls', async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => server.person()));
    const replies = await Promise.all(
      people.map((p) =>
        call(server, 'createLink', { team: p.teamId, destination: 'https://example.com/', name: 'contested' }, p.token),
      ),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409 && r.body.code === 'name_taken')).toHaveLength(7);
  });

  it('makes exactly 25 links from parallel createLinks calls', async () => {
    const alice = await server.person();
    const batch = (n: number) => ({
      team: alice.teamId,
      links: Array.from({ length: 10 }, (_, i) => ({ destination: `https://example.com/${n}/${i}` })),
    });
    const replies = await Promise.all([0, 1, 2].map((n) => call(server, 'createLinks', batch(n), alice.token)));
    const results = replies.flatMap((r) => r.body.results);
    expect(results.filter((r: { status: number }) => r.status === 200)).toHaveLength(25);
    expect(results.filter((r: { code: string }) => r.code === 'team_full')).toHaveLength(5);
  });
});
