import { describe, expect, it } from 'vitest';
import {
  createLink,
  expectOk,
  getLink,
  readCodes,
  server,
  setState,
  useLinksServer,
  type Link,
} from '../helpers/api-links.js';
import { call, expectProblem } from '../helpers/server.js';

/**
 * deleteLink over the real HTTP API: the link answers 404 at once; its code and name are never issued again.
 * Spec: short-link-api-v1.md; our decisions: docs/behaviour.md. The server, with a real SQLite file, is shared by
 * the file (test/helpers/api-links.ts): each test makes its own person and team; limits are put back after each.
 */

useLinksServer();

describe('deleteLink', () => {
  it('answers 200 with the JSON value null', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    const reply = await call(server, 'deleteLink', { code: made.code }, alice.token);
    expectOk(reply);
    expect(reply.body).toBeNull();
  });

  it('afterwards getLink 404, listLinks leaves it out, deleting again 404', async () => {
    const alice = await server.person();
    const kept = await createLink(alice);
    const made = await createLink(alice);
    expectOk(await call(server, 'deleteLink', { code: made.code }, alice.token));
    expectProblem(server, await getLink(alice, made.code), 404, 'not_found', 'code');
    const list = await call(server, 'listLinks', { team: alice.teamId }, alice.token);
    expect(list.body.data.map((link: Link) => link.code)).toEqual([kept.code]);
    expectProblem(server, await call(server, 'deleteLink', { code: made.code }, alice.token), 404, 'not_found', 'code');
    for (const [operation, body] of [
      ['setDestination', { code: made.code, destination: 'https://example.org/' }],
      ['setNote', { code: made.code, note: 'x' }],
      ['renameLink', { code: made.code, name: null }],
      ['linkClicks', { code: made.code }],
    ] as const) {
      expectProblem(server, await call(server, operation, body, alice.token), 404, 'not_found', 'code');
    }
  });

  it('the code is kept so it is never issued again', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectOk(await call(server, 'deleteLink', { code: made.code }, alice.token));
    expect(await readCodes()).toContain(made.code);
    // New links get other codes.
    const next = await createLink(alice);
    expect(next.code).not.toBe(made.code);
  });

  it('frees a place in the team: deleted links do not count toward team_full', async () => {
    await server.setLimits({ maxLinksPerTeam: 1 });
    const alice = await server.person();
    const made = await createLink(alice);
    const full = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, alice.token);
    expectProblem(server, full, 409, 'team_full');
    expectOk(await call(server, 'deleteLink', { code: made.code }, alice.token));
    await createLink(alice);
  });

  it.each(['disabled', 'flagged'] as const)('a %s link can be deleted', async (state) => {
    const alice = await server.person();
    const made = await createLink(alice);
    await setState(made.code, state);
    const reply = await call(server, 'deleteLink', { code: made.code }, alice.token);
    expectOk(reply);
    expect(reply.body).toBeNull();
    expectProblem(server, await getLink(alice, made.code), 404, 'not_found', 'code');
  });

  it('past the change limit: 429 limit_reached with Retry-After, nothing deleted', async () => {
    await server.setLimits({ changesPerHour: 2 });
    const alice = await server.person();
    const links = [await createLink(alice), await createLink(alice), await createLink(alice)];
    expectOk(await call(server, 'deleteLink', { code: links[0]!.code }, alice.token));
    expectOk(await call(server, 'deleteLink', { code: links[1]!.code }, alice.token));
    const reply = await call(server, 'deleteLink', { code: links[2]!.code }, alice.token);
    expectProblem(server, reply, 429, 'limit_reached');
    expect(Number(reply.headers.get('retry-after'))).toBe(3600);
    expectOk(await getLink(alice, links[2]!.code));
  });

  it('another team\'s link: 404 not_found at code, not deleted', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const bobs = await createLink(bob);
    expectProblem(server, await call(server, 'deleteLink', { code: bobs.code }, alice.token), 404, 'not_found', 'code');
    expectOk(await getLink(bob, bobs.code));
  });

  it('a code of the wrong length: 400 bad_request at code', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'deleteLink', { code: 'short' }, alice.token), 400, 'bad_request', 'code');
  });
});
