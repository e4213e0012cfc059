import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { call, problem, startServer, type Actor, type Reply, type TestServer, expectProblem } from '../helpers/server.js';

/**
 * End-to-end tests of the link operations of the HTTP API (spec: short-link-api-v1.md; our decisions:
 * docs/behaviour.md), against the real server with a real SQLite file.
 *
 * The server, its clock and its limits are shared by the whole file: every test makes its own person and team,
 * moves the clock forward by seconds at most (linkClicks relies on "today" being 2026-11-21), and any test that
 * lowers a limit has it put back by afterEach.
 */

let server: TestServer;
const BLOCKED_DOMAIN = 'blocked-site.com';

beforeAll(async () => {
  server = await startServer();
  await server.app.ctx.store.settings.block(BLOCKED_DOMAIN, new Date());
});
afterAll(() => server.stop());
afterEach(async () => {
  await server.setLimits({ ...DEFAULT_LIMITS });
});

// ---------------------------------------------------------------------------------------------------------------
// Helpers

let unique = 0;
/** A short link name no other test uses (names are one namespace for the whole service). */
function freshName(prefix = 'nm'): string {
  return `${prefix}-${process.pid}-${++unique}`;
}

function expectOk(reply: Reply): void {
  expect({ status: reply.status, body: reply.body }).toMatchObject({ status: 200 });
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
}

interface Link {
  id: string;
  code: string;
  name: string | null;
  destination: string;
  note: string | null;
  state: 'active' | 'flagged' | 'disabled';
  createdAt: string;
  changedAt: string | null;
}

function expectLinkShape(link: Link): void {
  expect(Object.keys(link).sort()).toEqual(
    ['changedAt', 'code', 'createdAt', 'destination', 'id', 'name', 'note', 'state'].sort(),
  );
  expect(link.id).toMatch(/^link_/);
  expect(link.code).toMatch(/^[A-Za-z0-9]{7}$/);
  expect(link.code).toMatch(/[A-Z]/);
  expect(Number.isNaN(Date.parse(link.createdAt))).toBe(false);
}

async function createLink(
  actor: Actor,
  fields: { destination?: string; name?: string | null; note?: string | null } = {},
  team = actor.teamId,
  token = actor.token,
): Promise<Link> {
  const reply = await call(server, 'createLink', { team, destination: 'https://example.com/page', ...fields }, token);
  expectOk(reply);
  return reply.body as Link;
}

async function getLink(actor: Actor, code: string, token = actor.token): Promise<Reply> {
  return call(server, 'getLink', { code }, token);
}

async function setState(code: string, state: 'active' | 'flagged' | 'disabled'): Promise<void> {
  const changed = await server.app.ctx.store.links.setState(code, state, server.clock.now());
  expect(changed?.state).toBe(state);
}

/** Another team the actor belongs to (owner). */
async function extraTeam(actor: Actor, name: string): Promise<string> {
  const team = await server.app.ctx.store.teams.add({ name, ownerId: actor.personId }, server.clock.now());
  return team.id;
}

function readCodes(): string[] {
  const db = new Database(server.dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT code FROM codes').pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** Follows `next` to the end; returns every page. */
async function allPages(operation: string, body: Record<string, unknown>, token: string): Promise<Reply[]> {
  const pages: Reply[] = [];
  let after: string | null = null;
  for (let i = 0; i < 50; i++) {
    const reply = await call(server, operation, { ...body, after }, token);
    expectOk(reply);
    pages.push(reply);
    after = reply.body.next;
    if (after === null) return pages;
    expect(typeof after).toBe('string');
  }
  throw new Error('paging did not end');
}

// ---------------------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------------------

describe('setDestination', () => {
  it('changes the destination and sets changedAt to now', async () => {
    const alice = await server.person();
    const made = await createLink(alice, { destination: 'https://example.com/old' });
    server.clock.advance(1_000);
    const reply = await call(server, 'setDestination', { code: made.code, destination: 'https://example.org/new' }, alice.token);
    expectOk(reply);
    const expected = { ...made, destination: 'https://example.org/new', changedAt: server.clock.now().toISOString() };
    expect(reply.body).toEqual(expected);
    expect((await getLink(alice, made.code)).body).toEqual(expected);
  });

  it('stores the destination as the parser serializes it, the address the redirect goes to', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    const destination = 'https://EXAMPLE.org/Path?b=2&a=1#Frag';
    const reply = await call(server, 'setDestination', { code: made.code, destination }, alice.token);
    expectOk(reply);
    expect(reply.body.destination).toBe('https://example.org/Path?b=2&a=1#Frag');
  });

  it('accepts a destination of exactly 2,048 characters', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    const base = 'https://example.org/';
    const destination = base + 'a'.repeat(2048 - base.length);
    const reply = await call(server, 'setDestination', { code: made.code, destination }, alice.token);
    expectOk(reply);
    expect(reply.body.destination).toBe(destination);
  });

  it.each([
    ['http://example.org/', 'invalid_destination'],
    ['ftp://example.org/', 'invalid_destination'],
    ['not a url', 'invalid_destination'],
    ['', 'invalid_destination'],
    [`https://example.org/${'a'.repeat(2049 - 'https://example.org/'.length)}`, 'invalid_destination'],
    [' https://example.org/', 'invalid_destination'],
    ['https://user@example.org/', 'invalid_destination'],
    ['https://localhost/x', 'private_destination'],
    ['https://10.0.0.1/', 'private_destination'],
    ['https://8.8.8.8/', 'private_destination'],
    ['https://[::1]/', 'private_destination'],
    ['https://printer.local/', 'private_destination'],
    ['https://intranet/', 'private_destination'],
    ['https://bit.ly/abc', 'shortener_destination'],
    ['https://WWW.Bit.Ly./abc', 'shortener_destination'],
    ['https://tinyurl.com/abc', 'shortener_destination'],
    [`https://${BLOCKED_DOMAIN}/x`, 'blocked_destination'],
    [`https://sub.${BLOCKED_DOMAIN.toUpperCase()}/x`, 'blocked_destination'],
  ])('%j: 400 %s at destination, link unchanged', async (destination, code) => {
    const alice = await server.person();
    const made = await createLink(alice);
    const reply = await call(server, 'setDestination', { code: made.code, destination }, alice.token);
    expectProblem(server, reply, 400, code, 'destination');
    expect((await getLink(alice, made.code)).body).toEqual(made);
  });

  it.each([
    ['flagged', 'link_flagged'],
    ['disabled', 'link_disabled'],
  ] as const)('a %s link: 409 %s, unchanged', async (state, code) => {
    const alice = await server.person();
    const made = await createLink(alice);
    await setState(made.code, state);
    const before = (await getLink(alice, made.code)).body;
    const reply = await call(server, 'setDestination', { code: made.code, destination: 'https://example.org/x' }, alice.token);
    expectProblem(server, reply, 409, code);
    expect((await getLink(alice, made.code)).body).toEqual(before);
  });

  it('a link made active again can change', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    await setState(made.code, 'flagged');
    await setState(made.code, 'active');
    expectOk(await call(server, 'setDestination', { code: made.code, destination: 'https://example.org/back' }, alice.token));
  });

  it('past the change limit: 429 limit_reached with Retry-After, unchanged', async () => {
    await server.setLimits({ changesPerHour: 2 });
    const alice = await server.person();
    const made = await createLink(alice);
    expectOk(await call(server, 'setDestination', { code: made.code, destination: 'https://example.org/1' }, alice.token));
    server.clock.advance(60_000);
    expectOk(await call(server, 'setDestination', { code: made.code, destination: 'https://example.org/2' }, alice.token));
    const reply = await call(server, 'setDestination', { code: made.code, destination: 'https://example.org/3' }, alice.token);
    expectProblem(server, reply, 429, 'limit_reached');
    // The oldest change leaves the hour's window in 3600 - 60 seconds.
    expect(reply.headers.get('retry-after')).toBe('3540');
    expect((await getLink(alice, made.code)).body.destination).toBe('https://example.org/2');
  });

  it('the change limit is per team', async () => {
    await server.setLimits({ changesPerHour: 1 });
    const alice = await server.person();
    const bob = await server.person();
    const a = await createLink(alice);
    const b = await createLink(bob);
    expectOk(await call(server, 'setDestination', { code: a.code, destination: 'https://example.org/1' }, alice.token));
    expectOk(await call(server, 'setDestination', { code: b.code, destination: 'https://example.org/1' }, bob.token));
    expectProblem(server, await call(server, 'setDestination', { code: a.code, destination: 'https://example.org/2' }, alice.token), 429, 'limit_reached');
  });

  it('another team\'s link: 404 not_found at code, unchanged', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const bobs = await createLink(bob);
    const reply = await call(server, 'setDestination', { code: bobs.code, destination: 'https://example.org/x' }, alice.token);
    expectProblem(server, reply, 404, 'not_found', 'code');
    expect((await getLink(bob, bobs.code)).body).toEqual(bobs);
  });

  it('destination missing: 400 bad_request at destination', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectProblem(server, await call(server, 'setDestination', { code: made.code }, alice.token), 400, 'bad_request', 'destination');
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('setNote', () => {
  it('sets a note and changedAt', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    server.clock.advance(1_000);
    const note = "Spring sale, 50 off! (Q&A) - it's: ok?";
    const reply = await call(server, 'setNote', { code: made.code, note }, alice.token);
    expectOk(reply);
    const expected = { ...made, note, changedAt: server.clock.now().toISOString() };
    expect(reply.body).toEqual(expected);
    expect((await getLink(alice, made.code)).body).toEqual(expected);
  });

  it('null clears the note', async () => {
    const alice = await server.person();
    const made = await createLink(alice, { note: 'to clear' });
    const reply = await call(server, 'setNote', { code: made.code, note: null }, alice.token);
    expectOk(reply);
    expect(reply.body.note).toBeNull();
    expect((await getLink(alice, made.code)).body.note).toBeNull();
  });

  it('"" reads back as ""', async () => {
    const alice = await server.person();
    const made = await createLink(alice, { note: 'something' });
    const reply = await call(server, 'setNote', { code: made.code, note: '' }, alice.token);
    expectOk(reply);
    expect(reply.body.note).toBe('');
    expect((await getLink(alice, made.code)).body.note).toBe('');
  });

  it('accepts 100 characters, counted as code points, letters of any script', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    for (const note of ['a'.repeat(100), 'é'.repeat(100), '日本'.repeat(50), '𝒜'.repeat(100)]) {
      const reply = await call(server, 'setNote', { code: made.code, note }, alice.token);
      expectOk(reply);
      expect(reply.body.note).toBe(note);
    }
  });

  it.each([
    ['101 characters', 'a'.repeat(101)],
    ['101 astral letters', '𝒜'.repeat(101)],
    ['<', 'a<b'],
    ['semicolon', 'semi;colon'],
    ['double quote', 'say "hi"'],
    ['newline', 'line\nbreak'],
    ['tab', 'a\tb'],
    ['slash', 'a/b'],
    ['emoji', 'nice 👍'],
  ])('%s: 400 invalid_note at note, unchanged', async (_what, note) => {
    const alice = await server.person();
    const made = await createLink(alice, { note: 'kept' });
    const reply = await call(server, 'setNote', { code: made.code, note }, alice.token);
    expectProblem(server, reply, 400, 'invalid_note', 'note');
    expect((await getLink(alice, made.code)).body).toEqual(made);
  });

  it('note missing: 400 bad_request at note', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectProblem(server, await call(server, 'setNote', { code: made.code }, alice.token), 400, 'bad_request', 'note');
  });

  it('note not a string: 400 bad_request at note', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectProblem(server, await call(server, 'setNote', { code: made.code, note: 5 }, alice.token), 400, 'bad_request', 'note');
  });

  it('works on a flagged link', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    await setState(made.code, 'flagged');
    const reply = await call(server, 'setNote', { code: made.code, note: 'while flagged' }, alice.token);
    expectOk(reply);
    expect(reply.body).toMatchObject({ note: 'while flagged', state: 'flagged' });
  });

  it('a disabled link: 409 conflict, unchanged', async () => {
    const alice = await server.person();
    const made = await createLink(alice, { note: 'kept' });
    await setState(made.code, 'disabled');
    const before = (await getLink(alice, made.code)).body;
    const reply = await call(server, 'setNote', { code: made.code, note: 'nope' }, alice.token);
    expectProblem(server, reply, 409, 'conflict');
    expect((await getLink(alice, made.code)).body).toEqual(before);
  });

  it('is not limited by the change limit', async () => {
    await server.setLimits({ changesPerHour: 1 });
    const alice = await server.person();
    const made = await createLink(alice);
    for (let i = 0; i < 3; i++) {
      expectOk(await call(server, 'setNote', { code: made.code, note: `note ${i}` }, alice.token));
    }
  });

  it('another team\'s link: 404 not_found at code', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const bobs = await createLink(bob, { note: 'bobs' });
    expectProblem(server, await call(server, 'setNote', { code: bobs.code, note: 'mine' }, alice.token), 404, 'not_found', 'code');
    expect((await getLink(bob, bobs.code)).body.note).toBe('bobs');
  });
});

// ---------------------------------------------------------------------------------------------------------------

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
    const expected = { ...made, name, changedAt: server.clock.now().toISOString() };
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
    ['flagged', 'link_flagged'],
    ['disabled', 'link_disabled'],
  ] as const)('a %s link: 409 %s, unchanged', async (state, code) => {
    const alice = await server.person();
    const name = freshName();
    const made = await createLink(alice, { name });
    await setState(made.code, state);
    expectProblem(server, await rename(alice, made.code, null), 409, code);
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

// ---------------------------------------------------------------------------------------------------------------

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
    expect(readCodes()).toContain(made.code);
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

// ---------------------------------------------------------------------------------------------------------------

describe('linkClicks', () => {
  const DAY = 86_400_000;

  it('no clicks: 30 consecutive UTC days, oldest first, today last, all zero', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    const reply = await call(server, 'linkClicks', { code: made.code }, alice.token);
    expectOk(reply);
    expect(Object.keys(reply.body).sort()).toEqual(['days', 'last30', 'last7']);
    const days = reply.body.days as Array<{ date: string; clicks: number }>;
    expect(days).toHaveLength(30);
    expect(days[0]!.date).toBe('2026-10-23');
    expect(days[29]!.date).toBe('2026-11-21');
    for (let i = 0; i < days.length; i++) {
      expect(days[i]).toEqual({ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), clicks: 0 });
      if (i > 0) expect(Date.parse(days[i]!.date) - Date.parse(days[i - 1]!.date)).toBe(DAY);
    }
    expect(reply.body.last7).toBe(0);
    expect(reply.body.last30).toBe(0);
  });

  it('counts clicks per day: last7 and last30 sum the last 7 and 30 days; older days are left out', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    await server.app.ctx.store.clicks.add(
      new Map([
        [
          made.id,
          new Map([
            ['2026-11-20', 3],
            ['2026-11-10', 5],
            ['2026-10-01', 7],
          ]),
        ],
      ]),
    );
    const reply = await call(server, 'linkClicks', { code: made.code }, alice.token);
    expectOk(reply);
    const days = reply.body.days as Array<{ date: string; clicks: number }>;
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.date).toBe('2026-11-21');
    const byDate = Object.fromEntries(days.map((day) => [day.date, day.clicks]));
    expect(byDate['2026-11-20']).toBe(3);
    expect(byDate['2026-11-10']).toBe(5);
    expect(byDate['2026-11-21']).toBe(0);
    expect(byDate['2026-10-01']).toBeUndefined();
    expect(days.filter((day) => day.clicks !== 0)).toHaveLength(2);
    expect(reply.body.last7).toBe(3);
    expect(reply.body.last30).toBe(8);
  });

  it('the window edges: day 7 counts in last7, day 8 does not; day 30 counts in last30, day 31 does not', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    await server.app.ctx.store.clicks.add(
      new Map([
        [
          made.id,
          new Map([
            ['2026-11-15', 1], // 7th day back, counting today
            ['2026-11-14', 10], // 8th
            ['2026-10-23', 100], // 30th
            ['2026-10-22', 1000], // 31st
          ]),
        ],
      ]),
    );
    const reply = await call(server, 'linkClicks', { code: made.code }, alice.token);
    expect(reply.body.last7).toBe(1);
    expect(reply.body.last30).toBe(111);
  });

  it('clicks of another link do not count', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    const other = await createLink(alice);
    await server.app.ctx.store.clicks.add(new Map([[other.id, new Map([['2026-11-20', 4]])]]));
    const reply = await call(server, 'linkClicks', { code: made.code }, alice.token);
    expect(reply.body.last30).toBe(0);
  });

  it('works for flagged and disabled links', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    await setState(made.code, 'disabled');
    expectOk(await call(server, 'linkClicks', { code: made.code }, alice.token));
  });

  it('another team\'s link: 404 not_found at code', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const bobs = await createLink(bob);
    expectProblem(server, await call(server, 'linkClicks', { code: bobs.code }, alice.token), 404, 'not_found', 'code');
  });

  it('an unknown code: 404 not_found at code', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'linkClicks', { code: 'Qq7Zz7Q' }, alice.token), 404, 'not_found', 'code');
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('access through tokens', () => {
  /** Alice in team A (her own) and member of Bob's team B, with a token limited to A. */
  async function setup() {
    const alice = await server.person({ teamName: 'A' });
    const bob = await server.person({ teamName: 'B' });
    const teamB = bob.teamId;
    expect(await server.app.ctx.store.teams.addMember(teamB, alice.personId, server.clock.now())).toBe(true);
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
