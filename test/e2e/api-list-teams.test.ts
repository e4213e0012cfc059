import { describe, expect, it } from 'vitest';
import { allPages, createLink, expectOk, extraTeam, server, useLinksServer } from '../helpers/api-links.js';
import { call, expectProblem } from '../helpers/server.js';

/**
 * listTeams over the real HTTP API: the caller's teams by name, then id, in signed pages.
 * Spec: short-link-api-v1.md; our decisions: docs/behaviour.md. The server, with a real SQLite file, is shared by
 * the file (test/helpers/api-links.ts): each test makes its own person and team; limits are put back after each.
 */

useLinksServer();

describe('listTeams', () => {
  it('answers a page of the caller\'s one team for an empty body', async () => {
    const alice = await server.person({ teamName: 'Solo' });
    const reply = await call(server, 'listTeams', {}, alice.token);
    expectOk(reply);
    expect(reply.body).toEqual({ data: [{ id: alice.teamId, name: 'Solo' }], next: null });
  });

  it('sorts the teams by name, then id, and shows only id and name', async () => {
    const alice = await server.person({ teamName: 'Bravo' });
    const charlie = await extraTeam(alice, 'Charlie');
    const alpha1 = await extraTeam(alice, 'Alpha');
    const alpha2 = await extraTeam(alice, 'Alpha');
    // A team she is not in does not appear.
    await server.person({ teamName: 'Aardvark' });
    const alphas = [alpha1, alpha2].sort().map((id) => ({ id, name: 'Alpha' }));
    const reply = await call(server, 'listTeams', {}, alice.token);
    expectOk(reply);
    expect(reply.body).toEqual({
      data: [...alphas, { id: alice.teamId, name: 'Bravo' }, { id: charlie, name: 'Charlie' }],
      next: null,
    });
  });

  it('pages with limit 1: a cursor per page, every team once, next null on the last page', async () => {
    const alice = await server.person({ teamName: 'Bravo' });
    const charlie = await extraTeam(alice, 'Charlie');
    const alpha1 = await extraTeam(alice, 'Alpha');
    const alpha2 = await extraTeam(alice, 'Alpha');
    const expected = [...[alpha1, alpha2].sort(), alice.teamId, charlie];
    const pages = await allPages('listTeams', { limit: 1 }, alice.token);
    expect(pages).toHaveLength(4);
    expect(pages.map((page) => page.body.data.length)).toEqual([1, 1, 1, 1]);
    expect(pages.flatMap((page) => page.body.data.map((team: { id: string }) => team.id))).toEqual(expected);
    expect(pages.slice(0, 3).every((page) => typeof page.body.next === 'string')).toBe(true);
    expect(pages[3]!.body.next).toBeNull();
  });

  it('pages with limit 2 over 3 teams: 2 then 1', async () => {
    const alice = await server.person({ teamName: 'B' });
    await extraTeam(alice, 'A');
    await extraTeam(alice, 'C');
    const pages = await allPages('listTeams', { limit: 2 }, alice.token);
    expect(pages.map((page) => page.body.data.map((team: { name: string }) => team.name))).toEqual([['A', 'B'], ['C']]);
  });

  it('accepts limit 1 and limit 100', async () => {
    const alice = await server.person();
    expectOk(await call(server, 'listTeams', { limit: 1 }, alice.token));
    expectOk(await call(server, 'listTeams', { limit: 100 }, alice.token));
  });

  it.each([0, 101, -1, 1.5])('limit %s: 400 bad_request at limit', async (limit) => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listTeams', { limit }, alice.token), 400, 'bad_request', 'limit');
  });

  it('an after from listLinks: 400 cursor_mismatch at after', async () => {
    const alice = await server.person();
    await createLink(alice);
    await createLink(alice);
    const links = await call(server, 'listLinks', { team: alice.teamId, limit: 1 }, alice.token);
    expectOk(links);
    expect(typeof links.body.next).toBe('string');
    const reply = await call(server, 'listTeams', { limit: 1, after: links.body.next }, alice.token);
    expectProblem(server, reply, 400, 'cursor_mismatch', 'after');
  });

  it('a tampered cursor: 400 cursor_mismatch at after', async () => {
    const alice = await server.person({ teamName: 'A' });
    await extraTeam(alice, 'B');
    await extraTeam(alice, 'C');
    const first = await call(server, 'listTeams', { limit: 1 }, alice.token);
    const next: string = first.body.next;
    expect(typeof next).toBe('string');
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const tampered = [
      next.slice(0, -1) + flip(next.at(-1)!),
      flip(next[0]!) + next.slice(1),
      `${next}x`,
      'garbage',
      '',
    ];
    for (const after of tampered) {
      expectProblem(server, await call(server, 'listTeams', { limit: 1, after }, alice.token), 400, 'cursor_mismatch', 'after');
    }
    // The untouched cursor still works.
    const second = await call(server, 'listTeams', { limit: 1, after: next }, alice.token);
    expectOk(second);
    expect(second.body.data.map((team: { name: string }) => team.name)).toEqual(['B']);
  });

  it('a cursor made with another limit: 400 cursor_mismatch', async () => {
    const alice = await server.person({ teamName: 'A' });
    await extraTeam(alice, 'B');
    await extraTeam(alice, 'C');
    const first = await call(server, 'listTeams', { limit: 1 }, alice.token);
    expectProblem(server, await call(server, 'listTeams', { limit: 2, after: first.body.next }, alice.token), 400, 'cursor_mismatch', 'after');
  });

  it('a token limited to a team sees only that team', async () => {
    const alice = await server.person({ teamName: 'Bravo' });
    await extraTeam(alice, 'Alpha');
    const charlie = await extraTeam(alice, 'Charlie');
    const limited = await server.token(alice.personId, charlie, { limited: true });
    const reply = await call(server, 'listTeams', {}, limited);
    expectOk(reply);
    expect(reply.body).toEqual({ data: [{ id: charlie, name: 'Charlie' }], next: null });
  });

  it('a missing body (empty string): 400 bad_request', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listTeams', '', alice.token), 400, 'bad_request');
  });

  it('an unknown param: 400 bad_request naming it', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listTeams', { team: alice.teamId }, alice.token), 400, 'bad_request', 'team');
  });
});
