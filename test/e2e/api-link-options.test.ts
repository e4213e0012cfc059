import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { createLink, expectOk, freshName, getLink, server, setState, useLinksServer } from '../helpers/api-links.js';
import { call, expectProblem, type Actor, type Reply } from '../helpers/server.js';

/**
 * A link's options over the real HTTP API (issue 24): createLink's and createLinks' optional expiresAt, maxClicks,
 * password, tags and forwardQuery, setLinkOptions, and the seven fields every Link has after the spec's eight.
 * The server, with a real database, is shared by the file (test/helpers/api-links.ts): each test makes its own
 * person and team, moves the clock by seconds at most, and any limit it lowers is put back after it.
 */

useLinksServer();

const DESTINATION = 'https://example.com/page';
const PASSWORD = 'correct-horse-battery';
const OTHER_PASSWORD = 'staple-9-Tr0mbone';
/** Every field of a Link, in the order the API answers them: the spec's eight, then the options'. */
const LINK_FIELDS = [
  'id', 'code', 'name', 'destination', 'note', 'state', 'createdAt', 'changedAt',
  'shortUrl', 'nameUrl', 'expiresAt', 'maxClicks', 'hasPassword', 'tags', 'forwardQuery',
];
const SECOND = 1_000;

type Params = Record<string, unknown>;

/** A reply and the text it came as (what must never hold a password). */
interface RawReply extends Reply {
  text: string;
}

/** `POST /v1/<operation>` as `call` sends it, keeping the answer's text as it came. */
async function send(operation: string, body: Params, token: string, headers: Record<string, string> = {}): Promise<RawReply> {
  const res = await fetch(`${server.url}/v1/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text), text };
}

const create = (actor: Actor, params: Params = {}) =>
  send('createLink', { team: actor.teamId, destination: DESTINATION, ...params }, actor.token);
const createMany = (actor: Actor, links: Params[]) => send('createLinks', { team: actor.teamId, links }, actor.token);
const setOptions = (actor: Actor, code: string, params: Params, headers: Record<string, string> = {}) =>
  send('setLinkOptions', { code, ...params }, actor.token, headers);

/** A successful answer whose text never holds the password. */
function expectOkWithout(reply: RawReply, password = PASSWORD): any {
  expectOk(reply);
  expect(reply.text).not.toContain(password);
  return reply.body;
}

/** The team's links, newest first (every answer checked for the password). */
async function linksOf(actor: Actor): Promise<any[]> {
  return expectOkWithout(await send('listLinks', { team: actor.teamId, limit: 100 }, actor.token)).data;
}

/** The link as getLink reads it back. */
async function readBack(actor: Actor, code: string): Promise<any> {
  return expectOkWithout(await send('getLink', { code }, actor.token));
}

/** The link's stored password hash (never answered: only the store shows whether it changed). */
async function storedHash(code: string): Promise<string | null> {
  return (await server.app.ctx.store.links.findByCode(code))!.passwordHash;
}

/** The server's clock moved by `years` and `ms`, as ISO text. */
function fromNow(ms: number, years = 0): string {
  const at = server.clock.now();
  at.setUTCFullYear(at.getUTCFullYear() + years);
  return new Date(at.getTime() + ms).toISOString();
}

/** The seven fields after the spec's eight, for a link of `code` (and `name`), with `options` over the defaults. */
function optionFields(code: string, name: string | null, options: Params = {}): Params {
  return {
    shortUrl: `${server.url}/${code}`,
    nameUrl: name === null ? null : `${server.url}/${name}`,
    expiresAt: null,
    maxClicks: null,
    hasPassword: false,
    tags: [],
    forwardQuery: true,
    ...options,
  };
}

/** What every rule refuses, the same in createLink, a createLinks item and setLinkOptions. */
const REFUSALS: [string, Params, string, string][] = [
  ['expiresAt without an offset', { expiresAt: '2027-01-31T18:00:00' }, 'invalid_expiry', 'expiresAt'],
  ['expiresAt as a date only', { expiresAt: '2027-01-31' }, 'invalid_expiry', 'expiresAt'],
  ['expiresAt in words', { expiresAt: 'next tuesday' }, 'invalid_expiry', 'expiresAt'],
  ['expiresAt empty', { expiresAt: '' }, 'invalid_expiry', 'expiresAt'],
  ['expiresAt in the past', { expiresAt: '2026-01-01T00:00:00Z' }, 'invalid_expiry', 'expiresAt'],
  ['expiresAt 11 years ahead', { expiresAt: '2037-12-01T00:00:00Z' }, 'invalid_expiry', 'expiresAt'],
  ['expiresAt as a number', { expiresAt: 1801389600000 }, 'bad_request', 'expiresAt'],
  ['maxClicks 0', { maxClicks: 0 }, 'invalid_max_clicks', 'maxClicks'],
  ['maxClicks -1', { maxClicks: -1 }, 'invalid_max_clicks', 'maxClicks'],
  ['maxClicks 1.5', { maxClicks: 1.5 }, 'invalid_max_clicks', 'maxClicks'],
  ['maxClicks 10,000,001', { maxClicks: 10_000_001 }, 'invalid_max_clicks', 'maxClicks'],
  ['maxClicks as a string', { maxClicks: '5' }, 'bad_request', 'maxClicks'],
  ['a password of 7 characters', { password: 'seven77' }, 'invalid_password', 'password'],
  ['a password of 7 astral letters (14 UTF-16 units)', { password: '𝒜'.repeat(7) }, 'invalid_password', 'password'],
  ['a password of 129 characters', { password: 'p'.repeat(129) }, 'invalid_password', 'password'],
  ['a password of 129 astral letters', { password: '𝒜'.repeat(129) }, 'invalid_password', 'password'],
  ['an empty password', { password: '' }, 'invalid_password', 'password'],
  ['a password with a line break', { password: 'pass\nword-long' }, 'invalid_password', 'password'],
  ['a password with a tab', { password: 'pass\tword-long' }, 'invalid_password', 'password'],
  ['a password with a NUL', { password: 'pass\u0000word-long' }, 'invalid_password', 'password'],
  ['a password with DEL', { password: 'pass\u007fword-long' }, 'invalid_password', 'password'],
  ['a password as a number', { password: 12345678 }, 'bad_request', 'password'],
  ['an uppercase tag', { tags: ['Ads'] }, 'invalid_tag', 'tags[0]'],
  ['a tag with a space, second', { tags: ['ok', 'has space'] }, 'invalid_tag', 'tags[1]'],
  ['an empty tag, third', { tags: ['ok', 'fine', ''] }, 'invalid_tag', 'tags[2]'],
  ['a tag of 31 characters', { tags: ['a'.repeat(31)] }, 'invalid_tag', 'tags[0]'],
  ['a tag with a dot', { tags: ['a.b'] }, 'invalid_tag', 'tags[0]'],
  ['a tag with an accent', { tags: ['café'] }, 'invalid_tag', 'tags[0]'],
  ['the first bad tag of two', { tags: ['fine', 'Bad', 'also bad'] }, 'invalid_tag', 'tags[1]'],
  ['11 tags', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'invalid_tag', 'tags'],
  ['tags as a string', { tags: 'ads' }, 'bad_request', 'tags'],
  ['a tag that is a number', { tags: [1] }, 'bad_request', 'tags[0]'],
  ['tags null', { tags: null }, 'bad_request', 'tags'],
  ['forwardQuery as a string', { forwardQuery: 'yes' }, 'bad_request', 'forwardQuery'],
  ['forwardQuery null', { forwardQuery: null }, 'bad_request', 'forwardQuery'],
];
/** The refusals of the options' own rules (not of their JSON types), one code each. */
const RULE_REFUSALS = REFUSALS.filter(([, , code]) => code !== 'bad_request');

/** Options that pass every rule (a set of five to make a link with). */
const ALL_OPTIONS = {
  expiresAt: '2027-01-31T19:00:00+01:00',
  maxClicks: 500,
  password: PASSWORD,
  tags: ['spring', 'ads', 'q4-2026', 'ads'],
  forwardQuery: false,
};
/** ALL_OPTIONS as a Link answers them. */
const ALL_ANSWERED = { expiresAt: '2027-01-31T18:00:00.000Z', maxClicks: 500, hasPassword: true, tags: ['ads', 'q4-2026', 'spring'], forwardQuery: false };

/** A link of the actor's with ALL_OPTIONS, as made. */
async function optioned(actor: Actor): Promise<any> {
  return expectOkWithout(await create(actor, ALL_OPTIONS));
}

/** A refusal does not echo the password it refused. */
function expectNoEcho(reply: RawReply, params: Params): void {
  if (typeof params.password === 'string' && params.password.length > 0) expect(reply.text).not.toContain(params.password);
}

/** createLink refuses `params` with 400 `code` at `field`, makes nothing, and does not echo a password sent. */
async function refusedByCreate(_what: string, params: Params, code: string, field: string): Promise<void> {
  const alice = await server.person();
  const reply = await create(alice, params);
  expectProblem(server, reply, 400, code, field);
  expectNoEcho(reply, params);
  expect(await linksOf(alice)).toEqual([]);
}

/** setLinkOptions refuses `params` on a link with every option with 400 `code` at `field`, and changes nothing. */
async function refusedBySet(_what: string, params: Params, code: string, field: string): Promise<void> {
  const alice = await server.person();
  const made = await optioned(alice);
  const reply = await setOptions(alice, made.code, params);
  expectProblem(server, reply, 400, code, field);
  expectNoEcho(reply, params);
  expect(await readBack(alice, made.code)).toEqual(made);
}

describe('createLink with options', () => {
  it('answers the options given after the spec\'s eight fields; getLink and listLinks read them back', async () => {
    const alice = await server.person();
    const name = freshName();
    const link = expectOkWithout(await create(alice, { name, note: 'opts', ...ALL_OPTIONS }));
    expect(Object.keys(link)).toEqual(LINK_FIELDS);
    expect(link).toEqual({
      id: expect.stringMatching(/^link_/),
      code: expect.stringMatching(/^[A-Za-z0-9]{7}$/),
      name,
      destination: DESTINATION,
      note: 'opts',
      state: 'active',
      createdAt: server.clock.now().toISOString(),
      changedAt: null,
      ...optionFields(link.code, name, ALL_ANSWERED),
    });
    expect(await readBack(alice, link.code)).toEqual(link);
    expect(await linksOf(alice)).toEqual([link]);
  });

  it('without options: no end, no cap, no password, no tags, the query string forwarded; shortUrl and nameUrl', async () => {
    const alice = await server.person();
    const plain = expectOkWithout(await create(alice));
    expect(Object.keys(plain)).toEqual(LINK_FIELDS);
    expect(plain).toMatchObject(optionFields(plain.code, null));
    const name = freshName();
    const named = expectOkWithout(await create(alice, { name }));
    expect(named).toMatchObject(optionFields(named.code, name));
    expect(named.nameUrl).toBe(`${server.url}/${name}`);
    expect(named.shortUrl).toBe(`${server.url}/${named.code}`);
    expect(await readBack(alice, plain.code)).toEqual(plain);
    expect(await linksOf(alice)).toEqual([named, plain]);
  });

  it('explicit nulls, [] and true are the defaults', async () => {
    const alice = await server.person();
    const link = expectOkWithout(await create(alice, { expiresAt: null, maxClicks: null, password: null, tags: [], forwardQuery: true }));
    expect(link).toMatchObject(optionFields(link.code, null));
  });

  it('a link the store makes without options (as links before them) does not forward the query string', async () => {
    const alice = await server.person();
    const now = server.clock.now();
    const record = await server.app.ctx.store.links.create(
      { teamId: alice.teamId, teamCreatedAt: now, destination: DESTINATION, name: null, note: null },
      DEFAULT_LIMITS,
      now,
    );
    expect(await readBack(alice, record.code)).toMatchObject(optionFields(record.code, null, { forwardQuery: false }));
  });

  it.each([
    ['maxClicks 1', { maxClicks: 1 }, { maxClicks: 1 }],
    ['maxClicks 10,000,000', { maxClicks: 10_000_000 }, { maxClicks: 10_000_000 }],
    ['a password of 8 characters', { password: 'eight888' }, { hasPassword: true }],
    ['a password of 128 characters', { password: 'p'.repeat(128) }, { hasPassword: true }],
    ['a password of 8 astral letters', { password: '𝒜'.repeat(8) }, { hasPassword: true }],
    ['a password of 128 astral letters (256 UTF-16 units)', { password: '𝒜'.repeat(128) }, { hasPassword: true }],
    ['a password of spaces and any script', { password: 'Пароль 日本 ✓ ok' }, { hasPassword: true }],
    ['tags of 1 and 30 characters, - and _', { tags: ['z', 'a'.repeat(30), 'a-b_c', '_', '-'] }, { tags: ['-', '_', 'a-b_c', 'a'.repeat(30), 'z'] }],
    ['10 tags', { tags: Array.from({ length: 10 }, (_, i) => `t${9 - i}`) }, { tags: Array.from({ length: 10 }, (_, i) => `t${i}`) }],
    ['11 tags that are 10 once each', { tags: [...Array.from({ length: 10 }, (_, i) => `t${i}`), 't3'] }, { tags: Array.from({ length: 10 }, (_, i) => `t${i}`) }],
    ['expiresAt with a fraction of a second', { expiresAt: '2027-01-31T18:00:00.5Z' }, { expiresAt: '2027-01-31T18:00:00.500Z' }],
    ['expiresAt with a negative offset', { expiresAt: '2027-01-31T13:30:00-04:30' }, { expiresAt: '2027-01-31T18:00:00.000Z' }],
    ['expiresAt with +01:00', { expiresAt: '2027-01-31T19:00:00+01:00' }, { expiresAt: '2027-01-31T18:00:00.000Z' }],
  ])('takes %s', async (_what, params, answered) => {
    const alice = await server.person();
    const link = expectOkWithout(await create(alice, params));
    expect(link).toEqual({ ...link, ...optionFields(link.code, null, answered) });
    expect(await readBack(alice, link.code)).toEqual(link);
  });

  it.each(REFUSALS)('%s: 400, and nothing made', refusedByCreate);
});

describe('createLinks items with options', () => {
  it('fail alone, with the status, code and message createLink answers; the other items are made', async () => {
    const alice = await server.person();
    const refused = RULE_REFUSALS.map(([, params]) => ({ destination: DESTINATION, ...params }));
    const reply = await createMany(alice, [{ destination: DESTINATION }, ...refused, { destination: DESTINATION, ...ALL_OPTIONS }]);
    expectOkWithout(reply);
    const results = reply.body.results;
    expect(results.map((r: any) => [r.status, r.code])).toEqual([
      [200, null],
      ...RULE_REFUSALS.map(([, , code]) => [400, code]),
      [200, null],
    ]);
    for (const [i, [, params]] of RULE_REFUSALS.entries()) {
      const alone = await create(alice, params);
      expect(results[i + 1]).toEqual({ link: null, status: 400, code: alone.body.code, message: alone.body.detail });
    }
    const first = results[0].link;
    const last = results.at(-1).link;
    expect(first).toMatchObject(optionFields(first.code, null));
    expect(last).toMatchObject(optionFields(last.code, null, ALL_ANSWERED));
    expect(await linksOf(alice)).toEqual([last, first]);
  });

  it('a malformed option fails its item alone with bad_request', async () => {
    const alice = await server.person();
    const reply = await createMany(alice, [{ destination: DESTINATION, maxClicks: '5' }, { destination: DESTINATION, tags: ['ok'] }]);
    expectOk(reply);
    expect(reply.body.results[0]).toEqual({ link: null, status: 400, code: 'bad_request', message: expect.stringContaining('maxClicks') });
    expect(reply.body.results[1]).toMatchObject({ status: 200, code: null, message: null, link: { tags: ['ok'] } });
    expect(await linksOf(alice)).toHaveLength(1);
  });
});

describe('setLinkOptions', () => {
  it('sets each option given and keeps the rest; changedAt is the change\'s time', async () => {
    const alice = await server.person();
    let link = await optioned(alice);
    const steps: [Params, Params][] = [
      [{ maxClicks: 10 }, { maxClicks: 10 }],
      [{ tags: ['zeta', 'alpha'] }, { tags: ['alpha', 'zeta'] }],
      [{ forwardQuery: true }, { forwardQuery: true }],
      [{ expiresAt: '2028-06-01T00:00:00+02:00' }, { expiresAt: '2028-05-31T22:00:00.000Z' }],
      [{ tags: [] }, { tags: [] }],
    ];
    for (const [params, answered] of steps) {
      server.clock.advance(SECOND);
      const expected = { ...link, ...answered, changedAt: server.clock.now().toISOString() };
      expect(expectOkWithout(await setOptions(alice, link.code, params))).toEqual(expected);
      expect(await readBack(alice, link.code)).toEqual(expected);
      link = expected;
    }
    expect(await linksOf(alice)).toEqual([link]);
  });

  it('sets all five on a plain link at once', async () => {
    const alice = await server.person();
    const made = expectOkWithout(await create(alice));
    server.clock.advance(SECOND);
    const reply = await setOptions(alice, made.code, ALL_OPTIONS);
    const expected = { ...made, ...ALL_ANSWERED, changedAt: server.clock.now().toISOString() };
    expect(expectOkWithout(reply)).toEqual(expected);
    expect(await readBack(alice, made.code)).toEqual(expected);
  });

  it('a new password replaces the stored hash; hasPassword stays true', async () => {
    const alice = await server.person();
    const link = await optioned(alice);
    const before = await storedHash(link.code);
    expect(before).toEqual(expect.any(String));
    const reply = await setOptions(alice, link.code, { password: OTHER_PASSWORD });
    expect(expectOkWithout(reply, OTHER_PASSWORD)).toEqual({ ...link, changedAt: server.clock.now().toISOString() });
    expect(reply.text).not.toContain(PASSWORD);
    const after = await storedHash(link.code);
    expect(after).toEqual(expect.any(String));
    expect(after).not.toBe(before);
    expect(after).not.toContain(OTHER_PASSWORD);
  });

  it('null clears expiresAt, maxClicks and password; tags and forwardQuery stay', async () => {
    const alice = await server.person();
    const link = await optioned(alice);
    server.clock.advance(SECOND);
    const reply = await setOptions(alice, link.code, { expiresAt: null, maxClicks: null, password: null });
    const expected = { ...link, expiresAt: null, maxClicks: null, hasPassword: false, changedAt: server.clock.now().toISOString() };
    expect(expectOkWithout(reply)).toEqual(expected);
    expect(await readBack(alice, link.code)).toEqual(expected);
    expect(await storedHash(link.code)).toBeNull();
  });

  it('the password is in no answer: set, replayed, read, listed, refused, reused key', async () => {
    const alice = await server.person();
    const made = expectOkWithout(await create(alice));
    const headers = { 'idempotency-key': 'password-set' };
    const set = expectOkWithout(await setOptions(alice, made.code, { password: PASSWORD }, headers));
    expect(set.hasPassword).toBe(true);
    const replayed = await setOptions(alice, made.code, { password: PASSWORD }, headers);
    expect(expectOkWithout(replayed)).toEqual(set);
    const reused = await setOptions(alice, made.code, { password: OTHER_PASSWORD }, headers);
    expectProblem(server, reused, 422, 'idempotency_key_reused', 'Idempotency-Key');
    expect(reused.text).not.toContain(OTHER_PASSWORD);
    expect(await readBack(alice, made.code)).toEqual(set);
    expect(await linksOf(alice)).toEqual([set]);
    const tooLong = `${PASSWORD}${'x'.repeat(128)}`;
    const refused = await setOptions(alice, made.code, { password: tooLong });
    expectProblem(server, refused, 400, 'invalid_password', 'password');
    expect(refused.text).not.toContain(PASSWORD);
    const badItem = await createMany(alice, [{ destination: DESTINATION, password: tooLong }, { destination: DESTINATION, password: PASSWORD }]);
    expectOkWithout(badItem);
    expect(badItem.body.results.map((r: any) => r.status)).toEqual([400, 200]);
  });

  it('the same options again change nothing: the link as it was, changedAt kept, no change counted', async () => {
    await server.setLimits({ changesPerHour: 1 });
    const alice = await server.person();
    const made = await optioned(alice);
    const hash = await storedHash(made.code);
    server.clock.advance(SECOND);
    for (const same of [ALL_OPTIONS, { code: made.code }, { password: PASSWORD }, { tags: ['spring', 'q4-2026', 'ads'] }, { expiresAt: '2027-01-31T18:00:00Z' }]) {
      expect(expectOkWithout(await setOptions(alice, made.code, same))).toEqual(made);
    }
    expect(await storedHash(made.code)).toBe(hash);
    expect(await readBack(alice, made.code)).toEqual(made);
    // The one change the hour allows, then the same again: still answered, not counted, changedAt the change's.
    const changed = expectOkWithout(await setOptions(alice, made.code, { maxClicks: 7 }));
    expect(changed).toEqual({ ...made, maxClicks: 7, changedAt: server.clock.now().toISOString() });
    server.clock.advance(SECOND);
    expect(expectOkWithout(await setOptions(alice, made.code, { ...ALL_OPTIONS, maxClicks: 7 }))).toEqual(changed);
    const limited = await setOptions(alice, made.code, { maxClicks: 8 });
    expectProblem(server, limited, 429, 'limit_reached');
    expect(limited.headers.get('retry-after')).toBe('3599');
    expect(await readBack(alice, made.code)).toEqual(changed);
  });

  it('shares the change limit with setDestination and renameLink', async () => {
    await server.setLimits({ changesPerHour: 2 });
    const alice = await server.person();
    const link = await createLink(alice);
    expectOk(await call(server, 'setDestination', { code: link.code, destination: 'https://example.org/1' }, alice.token));
    expectOkWithout(await setOptions(alice, link.code, { tags: ['one'] }));
    expectProblem(server, await call(server, 'renameLink', { code: link.code, name: freshName() }, alice.token), 429, 'limit_reached');
    expectProblem(server, await setOptions(alice, link.code, { tags: ['two'] }), 429, 'limit_reached');
    expect((await readBack(alice, link.code)).tags).toEqual(['one']);
  });

  it.each([
    ['flagged', 'link_flagged', "The link's options cannot change while the link is flagged; ask for a review."],
    ['disabled', 'link_disabled', 'The link was disabled by the service and cannot be changed.'],
  ] as const)('a %s link: 409 %s, whatever the options, unchanged', async (state, code, detail) => {
    const alice = await server.person();
    const made = await optioned(alice);
    await setState(made.code, state);
    const before = await readBack(alice, made.code);
    for (const params of [{ maxClicks: 9 }, { password: null }, { maxClicks: 0 }, ALL_OPTIONS]) {
      const refused = await setOptions(alice, made.code, params);
      expectProblem(server, refused, 409, code);
      expect(refused.body.detail).toBe(detail);
    }
    expect(await readBack(alice, made.code)).toEqual(before);
  });

  it('an unknown code: 404 not_found at code', async () => {
    const alice = await server.person();
    expectProblem(server, await setOptions(alice, 'Zz9Zz9Q', { maxClicks: 3 }), 404, 'not_found', 'code');
  });

  it("another team's link: 404 not_found at code, unchanged", async () => {
    const alice = await server.person();
    const bob = await server.person();
    const bobs = await optioned(bob);
    expectProblem(server, await setOptions(alice, bobs.code, { password: null, tags: ['mine'] }), 404, 'not_found', 'code');
    expect(await readBack(bob, bobs.code)).toEqual(bobs);
  });

  it('an Idempotency-Key replays the first answer and makes no second change', async () => {
    await server.setLimits({ changesPerHour: 2 });
    const alice = await server.person();
    const made = await createLink(alice);
    const headers = { 'idempotency-key': 'options-1' };
    server.clock.advance(SECOND);
    const first = await setOptions(alice, made.code, { tags: ['first'] }, headers);
    expect(expectOkWithout(first)).toMatchObject({ tags: ['first'], changedAt: server.clock.now().toISOString() });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    server.clock.advance(SECOND);
    const second = expectOkWithout(await setOptions(alice, made.code, { tags: ['second'] }));
    server.clock.advance(SECOND);
    const again = await setOptions(alice, made.code, { tags: ['first'] }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await readBack(alice, made.code)).toEqual(second);
    // Two changes counted (the first call and the second), not three: the hour's limit is reached now.
    expectProblem(server, await setOptions(alice, made.code, { tags: ['third'] }), 429, 'limit_reached');
  });

  it.each(REFUSALS)('%s: 400, unchanged', refusedBySet);

  it('an unknown param: 400 bad_request naming it; code missing: at code', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectProblem(server, await setOptions(alice, made.code, { colour: 'red' }), 400, 'bad_request', 'colour');
    expectProblem(server, await send('setLinkOptions', { maxClicks: 5 }, alice.token), 400, 'bad_request', 'code');
  });
});

/**
 * Failing when written (bugs reported with them): checkExpiresAt (src/domain/link-options.ts) checks the text's
 * shape with a regular expression and leaves the calendar to Date.parse, which rolls 30 February over to 2 March
 * and 24:00 over to the next day, so neither is refused and another instant than the one sent is stored; and
 * checkPassword refuses C0 controls and DEL but not the C1 controls (U+0080 to U+009F), which the service's other
 * rules count as control characters (src/domain/hidden-characters.ts; docs/behaviour.md on client names: "a
 * control character (C0, C1, DEL)").
 */
describe('values RFC 3339 and the password rule refuse', () => {
  const MISSED: [string, Params, string, string][] = [
    ['expiresAt on 30 February', { expiresAt: '2027-02-30T12:00:00Z' }, 'invalid_expiry', 'expiresAt'],
    ['expiresAt on 31 April', { expiresAt: '2027-04-31T12:00:00Z' }, 'invalid_expiry', 'expiresAt'],
    ['expiresAt at 24:00', { expiresAt: '2027-01-31T24:00:00Z' }, 'invalid_expiry', 'expiresAt'],
    ['a password with a C1 control (NEL)', { password: 'pass\u0085word-long' }, 'invalid_password', 'password'],
  ];

  it.each(MISSED)('createLink, %s: 400, and nothing made', refusedByCreate);
  it.each(MISSED)('setLinkOptions, %s: 400, unchanged', refusedBySet);
});

describe('expiresAt against the server clock', () => {
  /** Makes a link expiring at `expiresAt` with createLink, or sets it with setLinkOptions on a plain link. */
  const OPERATIONS: [string, (actor: Actor, expiresAt: string) => Promise<RawReply>][] = [
    ['createLink', (actor, expiresAt) => create(actor, { expiresAt })],
    ['setLinkOptions', async (actor, expiresAt) => setOptions(actor, (await createLink(actor)).code, { expiresAt })],
  ];

  it.each(OPERATIONS)('%s: now and 10 years and a second ahead are refused; a second ahead and 10 years are taken', async (_op, give) => {
    const alice = await server.person();
    for (const at of [fromNow(0), fromNow(-SECOND), fromNow(SECOND, 10)]) {
      expectProblem(server, await give(alice, at), 400, 'invalid_expiry', 'expiresAt');
    }
    for (const at of [fromNow(SECOND), fromNow(0, 10), fromNow(-SECOND, 10)]) {
      const reply = await give(alice, at);
      expectOk(reply);
      expect(reply.body.expiresAt).toBe(at);
    }
  });

  it.each(OPERATIONS)('%s: the same instants written with an offset are judged and stored as UTC', async (_op, give) => {
    const alice = await server.person();
    /** `iso` (UTC) written at +05:30. */
    const atPlus0530 = (iso: string) => {
      const local = new Date(Date.parse(iso) + (5 * 60 + 30) * 60_000).toISOString();
      return `${local.slice(0, 23)}+05:30`;
    };
    expectProblem(server, await give(alice, atPlus0530(fromNow(0))), 400, 'invalid_expiry', 'expiresAt');
    expectProblem(server, await give(alice, atPlus0530(fromNow(SECOND, 10))), 400, 'invalid_expiry', 'expiresAt');
    for (const at of [fromNow(SECOND), fromNow(0, 10)]) {
      const reply = await give(alice, atPlus0530(at));
      expectOk(reply);
      expect(reply.body.expiresAt).toBe(at);
    }
  });

  it('sending 2027-01-31T19:00:00+01:00 reads back 2027-01-31T18:00:00.000Z', async () => {
    const alice = await server.person();
    const link = expectOkWithout(await create(alice, { expiresAt: '2027-01-31T19:00:00+01:00' }));
    expect(link.expiresAt).toBe('2027-01-31T18:00:00.000Z');
    expect((await readBack(alice, link.code)).expiresAt).toBe('2027-01-31T18:00:00.000Z');
    expect((await linksOf(alice))[0].expiresAt).toBe('2027-01-31T18:00:00.000Z');
  });
});
