import { beforeAll, describe, expect, it } from 'vitest';
import {
  allPages,
  createLink,
  expectLinkShape,
  expectOk,
  extraTeam,
  freshName,
  server,
  setState,
  useLinksServer,
  type Link,
} from '../helpers/api-links.js';
import { call, expectProblem, type Actor } from '../helpers/server.js';

/**
 * listLinks over the real HTTP API: a team's links newest first, deleted ones left out, the state and q
 * filters, and signed cursors.
 * Spec: short-link-api-v1.md; our decisions: docs/behaviour.md. The server, with a real SQLite file, is shared by
 * the file (test/helpers/api-links.ts): each test makes its own person and team; limits are put back after each.
 */

useLinksServer();

// The q tests name a link with a counter of their own (a fresh server per file: no name can clash).
let unique = 0;

describe('listLinks', () => {
  it('lists newest first, ids and createdAt descending, same-millisecond links included', async () => {
    const alice = await server.person();
    const made: Link[] = [];
    made.push(await createLink(alice, { destination: 'https://example.com/1' }));
    server.clock.advance(5);
    made.push(await createLink(alice, { destination: 'https://example.com/2' }));
    // No clock move: the next two are made in the same millisecond.
    made.push(await createLink(alice, { destination: 'https://example.com/3' }));
    made.push(await createLink(alice, { destination: 'https://example.com/4' }));
    server.clock.advance(1);
    made.push(await createLink(alice, { destination: 'https://example.com/5' }));

    const reply = await call(server, 'listLinks', { team: alice.teamId }, alice.token);
    expectOk(reply);
    expect(reply.body.next).toBeNull();
    const data = reply.body.data as Link[];
    data.forEach(expectLinkShape);
    expect(data).toEqual([...made].reverse());
    for (let i = 1; i < data.length; i++) {
      expect(data[i - 1]!.id > data[i]!.id).toBe(true);
      expect(Date.parse(data[i - 1]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(data[i]!.createdAt));
    }
  });

  it('an empty team: empty page', async () => {
    const alice = await server.person();
    const reply = await call(server, 'listLinks', { team: alice.teamId }, alice.token);
    expectOk(reply);
    expect(reply.body).toEqual({ data: [], next: null });
  });

  it('lists only the team\'s own links', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const mine = await createLink(alice);
    await createLink(bob);
    const reply = await call(server, 'listLinks', { team: alice.teamId }, alice.token);
    expect(reply.body.data.map((link: Link) => link.code)).toEqual([mine.code]);
  });

  it('leaves deleted links out', async () => {
    const alice = await server.person();
    const a = await createLink(alice, { destination: 'https://example.com/del-a' });
    const b = await createLink(alice, { destination: 'https://example.com/del-b' });
    const c = await createLink(alice, { destination: 'https://example.com/del-c' });
    expectOk(await call(server, 'deleteLink', { code: b.code }, alice.token));
    const reply = await call(server, 'listLinks', { team: alice.teamId }, alice.token);
    expect(reply.body.data.map((link: Link) => link.code)).toEqual([c.code, a.code]);
    const searched = await call(server, 'listLinks', { team: alice.teamId, q: 'del-b' }, alice.token);
    expect(searched.body.data).toEqual([]);
  });

  it('filters by state; null means every state', async () => {
    const alice = await server.person();
    const active = await createLink(alice);
    const flagged = await createLink(alice);
    const disabled = await createLink(alice);
    await setState(flagged.code, 'flagged');
    await setState(disabled.code, 'disabled');
    const codes = async (state: string | null) => {
      const reply = await call(server, 'listLinks', { team: alice.teamId, state }, alice.token);
      expectOk(reply);
      return reply.body.data.map((link: Link) => [link.code, link.state]);
    };
    expect(await codes('active')).toEqual([[active.code, 'active']]);
    expect(await codes('flagged')).toEqual([[flagged.code, 'flagged']]);
    expect(await codes('disabled')).toEqual([[disabled.code, 'disabled']]);
    expect(await codes(null)).toEqual([
      [disabled.code, 'disabled'],
      [flagged.code, 'flagged'],
      [active.code, 'active'],
    ]);
  });

  it('state with q: both must hold', async () => {
    const alice = await server.person();
    const a = await createLink(alice, { destination: 'https://example.com/both-1' });
    const b = await createLink(alice, { destination: 'https://example.com/both-2' });
    await createLink(alice, { destination: 'https://example.com/other' });
    await setState(b.code, 'flagged');
    const reply = await call(server, 'listLinks', { team: alice.teamId, state: 'active', q: 'BOTH' }, alice.token);
    expect(reply.body.data.map((link: Link) => link.code)).toEqual([a.code]);
    const short = await call(server, 'listLinks', { team: alice.teamId, state: 'flagged', q: '-2' }, alice.token);
    expect(short.body.data.map((link: Link) => link.code)).toEqual([b.code]);
  });

  describe('q', () => {
    let alice: Actor;
    let linkA: Link; // destination with Example, note
    let linkB: Link; // name with _, destination with %
    let linkC: Link; // destination with ", stored as %22
    let linkD: Link; // note with '!'
    let bName: string;

    beforeAll(async () => {
      alice = await server.person();
      bName = `spring_sale${++unique}`;
      linkA = await createLink(alice, { destination: 'https://Example.com/Alpha', note: 'First note' });
      linkB = await createLink(alice, { destination: 'https://other.org/50%25off', name: bName });
      linkC = await createLink(alice, { destination: 'https://quote.org/say"hi"' });
      linkD = await createLink(alice, { destination: 'https://plain.org/x', note: 'zz! top' });
    });

    const search = async (q: string | null) => {
      const reply = await call(server, 'listLinks', { team: alice.teamId, q }, alice.token);
      expectOk(reply);
      return reply.body.data.map((link: Link) => link.code);
    };

    it('null and "" list everything', async () => {
      const all = [linkD.code, linkC.code, linkB.code, linkA.code];
      expect(await search(null)).toEqual(all);
      expect(await search('')).toEqual(all);
    });

    it('matches a substring of the destination, in any case', async () => {
      expect(await search('EXAMPLE')).toEqual([linkA.code]);
      expect(await search('example.com/alpha')).toEqual([linkA.code]);
      expect(await search('ample')).toEqual([linkA.code]);
    });

    it('matches a substring of the note, in any case', async () => {
      expect(await search('first NOTE')).toEqual([linkA.code]);
      expect(await search('ST NO')).toEqual([linkA.code]);
    });

    it('matches a substring of the short link name', async () => {
      expect(await search('SPRING')).toEqual([linkB.code]);
      expect(await search(bName)).toEqual([linkB.code]);
    });

    it('matches the code and a substring of it, in any case', async () => {
      expect(await search(linkD.code)).toEqual([linkD.code]);
      expect(await search(linkD.code.toLowerCase())).toEqual([linkD.code]);
      expect(await search(linkD.code.slice(1, 6))).toContain(linkD.code);
    });

    it('a q of 1 or 2 characters works', async () => {
      expect(await search('Z!')).toEqual([linkD.code]);
      expect(await search('!')).toEqual([linkD.code]);
      expect(await search('%2')).toEqual([linkC.code, linkB.code]);
    });

    it('% matches itself, not "anything"', async () => {
      expect(await search('%')).toEqual([linkC.code, linkB.code]);
      expect(await search('0%')).toEqual([linkB.code]);
      expect(await search('50%25')).toEqual([linkB.code]);
      expect(await search('e%')).toEqual([]);
      expect(await search('le%')).toEqual([]);
      expect(await search('%ple%')).toEqual([]);
    });

    it('_ matches itself, not "any character"', async () => {
      expect(await search('_')).toEqual([linkB.code]);
      expect(await search('g_s')).toEqual([linkB.code]);
      expect(await search('e_c')).toEqual([]);
      expect(await search('e_')).toEqual([]);
    });

    it('" matches itself, and a destination holds it percent-encoded, as its link leads there', async () => {
      expect(linkC.destination).toBe('https://quote.org/say%22hi%22');
      expect(await search('y%22h')).toEqual([linkC.code]);
      expect(await search('"hi"')).toEqual([]);
      expect(await search('"x"')).toEqual([]);
    });

    it('text found nowhere: empty page', async () => {
      expect(await search('nowhere-at-all')).toEqual([]);
      expect(await search('q!')).toEqual([]);
      expect(await search('a!')).toEqual([]);
    });

    it('finds a changed note, name and destination, and no longer the old ones', async () => {
      const bob = await server.person();
      const link = await createLink(bob, { destination: 'https://example.com/before-dest', note: 'before note' });
      const find = async (q: string) =>
        (await call(server, 'listLinks', { team: bob.teamId, q }, bob.token)).body.data.map((l: Link) => l.code);
      expectOk(await call(server, 'setDestination', { code: link.code, destination: 'https://example.com/after-dest' }, bob.token));
      expectOk(await call(server, 'setNote', { code: link.code, note: 'after note' }, bob.token));
      const name = freshName('renamed');
      expectOk(await call(server, 'renameLink', { code: link.code, name }, bob.token));
      expect(await find('before')).toEqual([]);
      expect(await find('after-dest')).toEqual([link.code]);
      expect(await find('after note')).toEqual([link.code]);
      expect(await find(name)).toEqual([link.code]);
    });
  });

  it('pages with limit 2 over 5 links: every link exactly once, newest first', async () => {
    const alice = await server.person();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      if (i % 2 === 0) server.clock.advance(1);
      made.push((await createLink(alice, { destination: `https://example.com/page-${i}` })).code);
    }
    const pages = await allPages('listLinks', { team: alice.teamId, limit: 2 }, alice.token);
    expect(pages.map((page) => page.body.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((page) => page.body.data.map((link: Link) => link.code))).toEqual(made.reverse());
  });

  it('pages with q and limit 2: every match exactly once', async () => {
    const alice = await server.person();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push((await createLink(alice, { destination: `https://example.com/paging-q-${i}` })).code);
      await createLink(alice, { destination: `https://example.com/unrelated-${i}` });
    }
    const pages = await allPages('listLinks', { team: alice.teamId, q: 'PAGING-Q', limit: 2 }, alice.token);
    expect(pages.flatMap((page) => page.body.data.map((link: Link) => link.code))).toEqual(made.reverse());
    const short = await allPages('listLinks', { team: alice.teamId, q: 'g-', limit: 2 }, alice.token);
    expect(short.flatMap((page) => page.body.data.map((link: Link) => link.code))).toEqual(made);
  });

  it('a page exactly full at the end: next may lead to an empty last page, never repeats', async () => {
    const alice = await server.person();
    const made: string[] = [];
    for (let i = 0; i < 4; i++) made.push((await createLink(alice)).code);
    const pages = await allPages('listLinks', { team: alice.teamId, limit: 2 }, alice.token);
    expect(pages.flatMap((page) => page.body.data.map((link: Link) => link.code))).toEqual(made.reverse());
    expect(pages.at(-1)!.body.next).toBeNull();
  });

  describe('cursor reuse', () => {
    let alice: Actor;
    let otherTeam: string;
    let next: string;

    beforeAll(async () => {
      alice = await server.person({ teamName: 'A' });
      otherTeam = await extraTeam(alice, 'B');
      for (let i = 0; i < 3; i++) await createLink(alice);
      for (let i = 0; i < 3; i++) await createLink(alice, {}, otherTeam);
      const first = await call(server, 'listLinks', { team: alice.teamId, limit: 2 }, alice.token);
      next = first.body.next;
      expect(typeof next).toBe('string');
    });

    it('with the same params: the next page', async () => {
      const reply = await call(server, 'listLinks', { team: alice.teamId, limit: 2, after: next }, alice.token);
      expectOk(reply);
      expect(reply.body.data).toHaveLength(1);
      expect(reply.body.next).toBeNull();
    });

    it('with another q: 400 cursor_mismatch', async () => {
      const reply = await call(server, 'listLinks', { team: alice.teamId, limit: 2, q: 'example', after: next }, alice.token);
      expectProblem(server, reply, 400, 'cursor_mismatch', 'after');
    });

    it('with another state: 400 cursor_mismatch', async () => {
      const reply = await call(server, 'listLinks', { team: alice.teamId, limit: 2, state: 'active', after: next }, alice.token);
      expectProblem(server, reply, 400, 'cursor_mismatch', 'after');
    });

    it('with another team: 400 cursor_mismatch', async () => {
      const reply = await call(server, 'listLinks', { team: otherTeam, limit: 2, after: next }, alice.token);
      expectProblem(server, reply, 400, 'cursor_mismatch', 'after');
    });

    it('with another limit: 400 cursor_mismatch', async () => {
      const reply = await call(server, 'listLinks', { team: alice.teamId, limit: 3, after: next }, alice.token);
      expectProblem(server, reply, 400, 'cursor_mismatch', 'after');
      const byDefault = await call(server, 'listLinks', { team: alice.teamId, after: next }, alice.token);
      expectProblem(server, byDefault, 400, 'cursor_mismatch', 'after');
    });

    it('a cursor from listTeams: 400 cursor_mismatch', async () => {
      const teams = await call(server, 'listTeams', { limit: 1 }, alice.token);
      expect(typeof teams.body.next).toBe('string');
      const reply = await call(server, 'listLinks', { team: alice.teamId, limit: 1, after: teams.body.next }, alice.token);
      expectProblem(server, reply, 400, 'cursor_mismatch', 'after');
    });

    it('a tampered cursor: 400 cursor_mismatch', async () => {
      const flip = (c: string) => (c === 'A' ? 'B' : 'A');
      const tampered = next.slice(0, -1) + flip(next.at(-1)!);
      const reply = await call(server, 'listLinks', { team: alice.teamId, limit: 2, after: tampered }, alice.token);
      expectProblem(server, reply, 400, 'cursor_mismatch', 'after');
    });
  });

  it('another person\'s team: 404 not_found at team', async () => {
    const alice = await server.person();
    const bob = await server.person();
    await createLink(bob);
    expectProblem(server, await call(server, 'listLinks', { team: bob.teamId }, alice.token), 404, 'not_found', 'team');
  });

  it('a team that does not exist: 404 not_found at team', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listLinks', { team: 'team_doesnotexist00' }, alice.token), 404, 'not_found', 'team');
  });

  it('a team not starting with team_: 400 bad_request at team', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listLinks', { team: 'nope' }, alice.token), 400, 'bad_request', 'team');
  });

  it('team missing: 400 bad_request at team', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listLinks', {}, alice.token), 400, 'bad_request', 'team');
  });

  it('state "bogus": 400 bad_request at state', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listLinks', { team: alice.teamId, state: 'bogus' }, alice.token), 400, 'bad_request', 'state');
  });

  it.each([0, 101])('limit %s: 400 bad_request at limit', async (limit) => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listLinks', { team: alice.teamId, limit }, alice.token), 400, 'bad_request', 'limit');
  });
});
