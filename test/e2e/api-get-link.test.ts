import { describe, expect, it } from 'vitest';
import {
  createLink,
  expectLinkShape,
  expectOk,
  freshName,
  getLink,
  NO_OPTIONS,
  server,
  setState,
  useLinksServer,
} from '../helpers/api-links.js';
import { call, expectProblem } from '../helpers/server.js';

/**
 * getLink over the real HTTP API: one link of the caller's teams by its code; anything else is 404.
 * Spec: short-link-api-v1.md; our decisions: docs/behaviour.md. The server, with a real SQLite file, is shared by
 * the file (test/helpers/api-links.ts): each test makes its own person and team; limits are put back after each.
 */

useLinksServer();

describe('getLink', () => {
  it('answers the link with every field', async () => {
    const alice = await server.person();
    const name = freshName();
    const made = await createLink(alice, { destination: 'https://example.com/get', name, note: 'A note' });
    const reply = await getLink(alice, made.code);
    expectOk(reply);
    expectLinkShape(reply.body);
    expect(reply.body).toEqual({
      id: made.id,
      code: made.code,
      name,
      destination: 'https://example.com/get',
      note: 'A note',
      state: 'active',
      createdAt: server.clock.now().toISOString(),
      changedAt: null,
      shortUrl: `${server.url}/${made.code}`,
      nameUrl: `${server.url}/${name}`,
      ...NO_OPTIONS,
    });
  });

  it('answers a flagged and a disabled link with their state', async () => {
    const alice = await server.person();
    const flagged = await createLink(alice);
    const disabled = await createLink(alice);
    await setState(flagged.code, 'flagged');
    await setState(disabled.code, 'disabled');
    expect((await getLink(alice, flagged.code)).body.state).toBe('flagged');
    expect((await getLink(alice, disabled.code)).body.state).toBe('disabled');
  });

  it('an unknown code: 404 not_found at code', async () => {
    const alice = await server.person();
    expectProblem(server, await getLink(alice, 'Zz9Qq8X'), 404, 'not_found', 'code');
  });

  it.each(['Abc123', 'Abc12345', ''])('a code of the wrong length (%j): 400 bad_request at code', async (code) => {
    const alice = await server.person();
    expectProblem(server, await getLink(alice, code), 400, 'bad_request', 'code');
  });

  it("a link's name: the problem says codes are 7 characters and how to find a link by its name", async () => {
    const alice = await server.person();
    const byName = "to find a link by its name, search the team's links for it: listLinks with q (teamLinks for an assistant)";
    const long = await getLink(alice, 'team-handbook');
    expectProblem(server, long, 400, 'bad_request', 'code');
    expect(long.body.detail).toBe(`code is a link's 7-character code, not its name; ${byName}.`);
    const seven = await getLink(alice, 'go-docs');
    expectProblem(server, seven, 404, 'not_found', 'code');
    expect(seven.body.detail).toBe(`No link has that code: codes are 7 characters of A-Z, a-z and 0-9; ${byName}.`);
  });

  it('code missing: 400 bad_request at code', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'getLink', {}, alice.token), 400, 'bad_request', 'code');
  });

  it('a link of another team: 404 not_found at code', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const bobs = await createLink(bob);
    expectProblem(server, await getLink(alice, bobs.code), 404, 'not_found', 'code');
  });

  it('a deleted link: 404 not_found at code', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectOk(await call(server, 'deleteLink', { code: made.code }, alice.token));
    expectProblem(server, await getLink(alice, made.code), 404, 'not_found', 'code');
  });
});
