import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('smoke', () => {
  it('creates and reads a link', async () => {
    const alice = await server.person();
    const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/a' }, alice.token);
    expect(made.status).toBe(200);
    const read = await call(server, 'getLink', { code: made.body.code }, alice.token);
    expect(read.body).toEqual(made.body);
    const list = await call(server, 'listLinks', { team: alice.teamId, q: 'example' }, alice.token);
    expect(list.body.data).toHaveLength(1);
  });
});
