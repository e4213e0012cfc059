import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DESTINATION_LENGTH } from '../../src/domain/destination.js';
import { MAX_NAME_LENGTH } from '../../src/domain/link-name.js';
import { NOTE_MAX } from '../../src/domain/note.js';
import { MAX_KEPT_ANSWER } from '../../src/store/idempotency-claims.js';
import { MAX_LINKS_PER_CALL } from '../../src/domain/limits.js';
import { call, startServer, type TestServer } from '../helpers/server.js';

/** What an Idempotency-Key keeps is bounded, and the largest legitimate answer is within the bound (issue 20). */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.setLimits({ maxLinksPerTeam: 1000, perHour: 1000, perDay: 1000, firstWeekPerDay: 1000 });
});
afterAll(() => server.stop());

describe('kept answers', () => {
  it('keep and replay the largest legitimate answer: 50 links of the longest destination, name and note', async () => {
    const alice = await server.person();
    const base = 'https://example.com/';
    // A note of 100 letters, each two UTF-16 units in JSON (the longest a note's text can be).
    const note = '𝑎'.repeat(NOTE_MAX);
    const links = Array.from({ length: MAX_LINKS_PER_CALL }, (_, i) => ({
      destination: `${base}${String(i).padStart(2, '0')}${'p'.repeat(MAX_DESTINATION_LENGTH - base.length - 2)}`,
      name: `${String(i).padStart(2, '0')}${'n'.repeat(MAX_NAME_LENGTH - 2)}`,
      note,
    }));
    const headers = { 'idempotency-key': 'largest' };
    const first = await call(server, 'createLinks', { team: alice.teamId, links }, alice.token, headers);
    expect(first.status).toBe(200);
    expect(first.body.results.map((r: { status: number }) => r.status)).toEqual(links.map(() => 200));
    const size = JSON.stringify(first.body).length;
    // About 125,500: the bound is twice that.
    expect(size).toBeGreaterThan(120_000);
    expect(size).toBeLessThan(MAX_KEPT_ANSWER);

    const again = await call(server, 'createLinks', { team: alice.teamId, links }, alice.token, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const listed = await call(server, 'listLinks', { team: alice.teamId, limit: 100 }, alice.token);
    expect(listed.body.data).toHaveLength(MAX_LINKS_PER_CALL);
  });
});
