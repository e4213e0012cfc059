import { describe, expect, it } from 'vitest';
import {
  BLOCKED_DOMAIN,
  createLink,
  expectOk,
  getLink,
  server,
  setState,
  useLinksServer,
} from '../helpers/api-links.js';
import { call, expectProblem } from '../helpers/server.js';

/**
 * setDestination over the real HTTP API: the destination rules, the link's state, the change limit.
 * Spec: short-link-api-v1.md; our decisions: docs/behaviour.md. The server, with a real SQLite file, is shared by
 * the file (test/helpers/api-links.ts): each test makes its own person and team; limits are put back after each.
 */

useLinksServer();

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
