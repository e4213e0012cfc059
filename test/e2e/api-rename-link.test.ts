import { describe, expect, it } from 'vitest';
import { createLink, expectOk, freshName, getLink, server, setState, useLinksServer } from '../helpers/api-links.js';
import { call, expectProblem, type Actor } from '../helpers/server.js';

/**
 * renameLink over the real HTTP API: names, reserved names, old names kept by their team, states and the
 * change limit.
 * Spec: short-link-api-v1.md; our decisions: docs/behaviour.md. The server, with a real SQLite file, is shared by
 * the file (test/helpers/api-links.ts): each test makes its own person and team; limits are put back after each.
 */

useLinksServer();

describe('renameLink', () => {
  const rename = (actor: Actor, code: string, name: string | null) =>
    call(server, 'renameLink', { code, name }, actor.token);

  it('sets a name and changedAt', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    server.clock.advance(1_000);
    const name = freshName();
    const reply = await rename(alice, made.code, name);
    expectOk(reply);
    const expected = { ...made, name, nameUrl: `${server.url}/${name}`, changedAt: server.clock.now().toISOString() };
    expect(reply.body).toEqual(expected);
    expect((await getLink(alice, made.code)).body).toEqual(expected);
  });

  it('changes a name: the old one stays with the team (name_taken for another team, free for its own)', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const oldName = freshName('old');
    const newName = freshName('new');
    const made = await createLink(alice, { name: oldName });
    const reply = await rename(alice, made.code, newName);
    expectOk(reply);
    expect(reply.body.name).toBe(newName);

    const taken = await call(server, 'createLink', { team: bob.teamId, destination: 'https://example.com/', name: oldName }, bob.token);
    expectProblem(server, taken, 409, 'name_taken', 'name');
    const bobs = await createLink(bob);
    expectProblem(server, await rename(bob, bobs.code, oldName), 409, 'name_taken', 'name');

    const again = await createLink(alice, { name: oldName });
    expect(again.name).toBe(oldName);
  });

  it('the same team may rename a link back to its old name', async () => {
    const alice = await server.person();
    const oldName = freshName('old');
    const made = await createLink(alice, { name: oldName });
    expectOk(await rename(alice, made.code, freshName('mid')));
    const back = await rename(alice, made.code, oldName);
    expectOk(back);
    expect(back.body.name).toBe(oldName);
  });

  it('null removes the name; the name stays with the team', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const name = freshName();
    const made = await createLink(alice, { name });
    const reply = await rename(alice, made.code, null);
    expectOk(reply);
    expect(reply.body.name).toBeNull();
    expect((await getLink(alice, made.code)).body.name).toBeNull();
    const taken = await call(server, 'createLink', { team: bob.teamId, destination: 'https://example.com/', name }, bob.token);
    expectProblem(server, taken, 409, 'name_taken', 'name');
    expectOk(await rename(alice, made.code, name));
  });

  it('renaming to the name it has changes nothing and is not counted', async () => {
    await server.setLimits({ changesPerHour: 1 });
    const alice = await server.person();
    const name = freshName();
    const made = await createLink(alice, { name });
    for (let i = 0; i < 3; i++) {
      const reply = await rename(alice, made.code, name);
      expectOk(reply);
      expect(reply.body).toEqual(made);
    }
    expectOk(await rename(alice, made.code, freshName()));
  });

  it.each([
    ['too short', 'ab'],
    ['too long', 'a'.repeat(51)],
    ['uppercase', 'Upper-case'],
    ['space', 'has space'],
    ['dot', 'has.dot'],
    ['empty', ''],
    ['non-ascii', 'café-link'],
  ])('%s: 400 invalid_name at name, unchanged', async (_what, name) => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectProblem(server, await rename(alice, made.code, name), 400, 'invalid_name', 'name');
    expect((await getLink(alice, made.code)).body).toEqual(made);
  });

  it('accepts 3 and 50 characters', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    const long = `${freshName('l')}-`.padEnd(50, 'x');
    expect(long).toHaveLength(50);
    expectOk(await rename(alice, made.code, long));
    // Used nowhere else in this file (each run has a fresh database).
    const short = await rename(alice, made.code, 'x7q');
    expectOk(short);
    expect(short.body.name).toBe('x7q');
  });

  it.each(['admin', 'api', 'v10', 'v123', 'mcp', 'docs', 'well-known', 'welcome', 'login', 'dashboard'])(
    'a word of the service (%s): 400 reserved_name at name',
    async (name) => {
      const alice = await server.person();
      const made = await createLink(alice);
      expectProblem(server, await rename(alice, made.code, name), 400, 'reserved_name', 'name');
    },
  );

  // behaviour.md lists v1, v2 and qr among the reserved words, but they are 2 characters: the spec's own rule
  // (a name is 3 to 50 characters) makes them invalid_name first, and the spec is the contract.
  it.each(['v1', 'v2', 'qr'])('a 2-character reserved word (%s): 400 invalid_name at name', async (name) => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectProblem(server, await rename(alice, made.code, name), 400, 'invalid_name', 'name');
  });

  it('the name of a deleted link: 400 reserved_name for everyone, its team included', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const name = freshName('gone');
    const doomed = await createLink(alice, { name });
    expectOk(await call(server, 'deleteLink', { code: doomed.code }, alice.token));
    const mine = await createLink(alice);
    expectProblem(server, await rename(alice, mine.code, name), 400, 'reserved_name', 'name');
    const bobs = await createLink(bob);
    expectProblem(server, await rename(bob, bobs.code, name), 400, 'reserved_name', 'name');
  });

  it('a name held by another team\'s link: 409 name_taken at name', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const name = freshName();
    await createLink(bob, { name });
    const made = await createLink(alice);
    expectProblem(server, await rename(alice, made.code, name), 409, 'name_taken', 'name');
    expect((await getLink(alice, made.code)).body.name).toBeNull();
  });

  it('a name held by another link of the same team: 409 name_taken', async () => {
    const alice = await server.person();
    const name = freshName();
    await createLink(alice, { name });
    const made = await createLink(alice);
    expectProblem(server, await rename(alice, made.code, name), 409, 'name_taken', 'name');
  });

  it.each([
    ['flagged', 'link_flagged', 'The short link name cannot change while the link is flagged; ask for a review.'],
    ['disabled', 'link_disabled', 'The link was disabled by the service and cannot be changed.'],
  ] as const)('a %s link: 409 %s, unchanged', async (state, code, detail) => {
    const alice = await server.person();
    const name = freshName();
    const made = await createLink(alice, { name });
    await setState(made.code, state);
    const refused = await rename(alice, made.code, null);
    expectProblem(server, refused, 409, code);
    expect(refused.body.detail).toBe(detail);
    expectProblem(server, await rename(alice, made.code, freshName()), 409, code);
    expect((await getLink(alice, made.code)).body.name).toBe(name);
  });

  it('past the change limit: 429 limit_reached with Retry-After', async () => {
    await server.setLimits({ changesPerHour: 2 });
    const alice = await server.person();
    const made = await createLink(alice);
    expectOk(await rename(alice, made.code, freshName()));
    const second = freshName();
    expectOk(await rename(alice, made.code, second));
    const reply = await rename(alice, made.code, freshName());
    expectProblem(server, reply, 429, 'limit_reached');
    expect(reply.headers.get('retry-after')).toBe('3600');
    expect((await getLink(alice, made.code)).body.name).toBe(second);
  });

  it('setDestination, renameLink and deleteLink share one change limit', async () => {
    await server.setLimits({ changesPerHour: 2 });
    const alice = await server.person();
    const a = await createLink(alice);
    const b = await createLink(alice);
    expectOk(await call(server, 'setDestination', { code: a.code, destination: 'https://example.org/1' }, alice.token));
    expectOk(await call(server, 'deleteLink', { code: b.code }, alice.token));
    expectProblem(server, await rename(alice, a.code, freshName()), 429, 'limit_reached');
  });

  it('another team\'s link: 404 not_found at code', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const bobs = await createLink(bob);
    expectProblem(server, await rename(alice, bobs.code, freshName()), 404, 'not_found', 'code');
  });

  it('name missing: 400 bad_request at name', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectProblem(server, await call(server, 'renameLink', { code: made.code }, alice.token), 400, 'bad_request', 'name');
  });
});
