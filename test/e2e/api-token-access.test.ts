import { describe, expect, it } from 'vitest';
import { createLink, expectOk, freshName, getLink, server, useLinksServer, type Link } from '../helpers/api-links.js';
import { call, expectProblem } from '../helpers/server.js';

/**
 * Access through tokens across the link operations, over the real HTTP API: tokens limited to a team's
 * record, and scopes.
 * Spec: short-link-api-v1.md; our decisions: docs/behaviour.md. The server, with a real SQLite file, is shared by
 * the file (test/helpers/api-links.ts): each test makes its own person and team; limits are put back after each.
 */

useLinksServer();

describe('access through tokens', () => {
  /** Alice in team A (her own) and member of Bob's team B, with a token limited to A. */
  async function setup() {
    const alice = await server.person({ teamName: 'A' });
    const bob = await server.person({ teamName: 'B' });
    const teamB = bob.teamId;
    expect(await server.app.ctx.store.teams.addMember(teamB, alice.personId, server.clock.now())).toBe('added');
    const linkB = await createLink(bob, { note: 'in B' });
    const limited = await server.token(alice.personId, alice.teamId, { limited: true });
    return { alice, bob, teamB, linkB, limited };
  }

  it('limited to A: createLink in B is 403 outside_token_record, nothing made', async () => {
    const { bob, teamB, limited } = await setup();
    const reply = await call(server, 'createLink', { team: teamB, destination: 'https://example.com/' }, limited);
    expectProblem(server, reply, 403, 'outside_token_record');
    const list = await call(server, 'listLinks', { team: teamB }, bob.token);
    expect(list.body.data).toHaveLength(1);
  });

  it('limited to A: setNote on a B link is 403 outside_token_record, unchanged', async () => {
    const { bob, linkB, limited } = await setup();
    expectProblem(server, await call(server, 'setNote', { code: linkB.code, note: 'from A' }, limited), 403, 'outside_token_record');
    expect((await getLink(bob, linkB.code)).body.note).toBe('in B');
  });

  it('limited to A: setDestination, renameLink and deleteLink on a B link are 403 outside_token_record', async () => {
    const { bob, linkB, limited } = await setup();
    expectProblem(server, 
      await call(server, 'setDestination', { code: linkB.code, destination: 'https://example.org/' }, limited),
      403,
      'outside_token_record',
    );
    expectProblem(server, await call(server, 'renameLink', { code: linkB.code, name: freshName() }, limited), 403, 'outside_token_record');
    expectProblem(server, await call(server, 'deleteLink', { code: linkB.code }, limited), 403, 'outside_token_record');
    expect((await getLink(bob, linkB.code)).body).toEqual(linkB);
  });

  it('limited to A: getLink and linkClicks of a B link are 404', async () => {
    const { linkB, limited } = await setup();
    expectProblem(server, await call(server, 'getLink', { code: linkB.code }, limited), 404, 'not_found', 'code');
    expectProblem(server, await call(server, 'linkClicks', { code: linkB.code }, limited), 404, 'not_found', 'code');
  });

  it('limited to A: listLinks of B is 404 not_found at team', async () => {
    const { teamB, limited } = await setup();
    expectProblem(server, await call(server, 'listLinks', { team: teamB }, limited), 404, 'not_found', 'team');
  });

  it('limited to A: works in A', async () => {
    const { alice, limited } = await setup();
    const made = await createLink(alice, {}, alice.teamId, limited);
    expectOk(await call(server, 'getLink', { code: made.code }, limited));
    expectOk(await call(server, 'setNote', { code: made.code, note: 'ok' }, limited));
    const list = await call(server, 'listLinks', { team: alice.teamId }, limited);
    expect(list.body.data.map((link: Link) => link.code)).toEqual([made.code]);
  });

  it('limited to A, on a team Alice is not in: 404, not 403', async () => {
    const { limited } = await setup();
    const carol = await server.person();
    const carols = await createLink(carol);
    expectProblem(server, await call(server, 'setNote', { code: carols.code, note: 'x' }, limited), 404, 'not_found', 'code');
    expectProblem(server, 
      await call(server, 'createLink', { team: carol.teamId, destination: 'https://example.com/' }, limited),
      404,
      'not_found',
      'team',
    );
  });

  it('a token not limited works in both teams', async () => {
    const { alice, teamB, linkB } = await setup();
    const inA = await createLink(alice);
    const inB = await createLink(alice, {}, teamB);
    expectOk(await getLink(alice, inA.code));
    expectOk(await getLink(alice, linkB.code));
    expectOk(await call(server, 'setNote', { code: linkB.code, note: 'from alice' }, alice.token));
    const list = await call(server, 'listLinks', { team: teamB }, alice.token);
    expect(list.body.data.map((link: Link) => link.code)).toEqual([inB.code, linkB.code]);
    const teams = await call(server, 'listTeams', {}, alice.token);
    expect(teams.body.data.map((team: { name: string }) => team.name)).toEqual(['A', 'B']);
  });

  it('a token with scopes [getLink]: createLink 403 insufficient_scope, getLink 200', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    const scoped = await server.token(alice.personId, alice.teamId, { scopes: ['getLink'] });
    expectProblem(server, 
      await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, scoped),
      403,
      'insufficient_scope',
    );
    expectProblem(server, await call(server, 'listLinks', { team: alice.teamId }, scoped), 403, 'insufficient_scope');
    expectProblem(server, await call(server, 'deleteLink', { code: made.code }, scoped), 403, 'insufficient_scope');
    const read = await call(server, 'getLink', { code: made.code }, scoped);
    expectOk(read);
    expect(read.body).toEqual(made);
  });
});
