import { afterEach, describe, expect, it } from 'vitest';
import { call, expectProblem, startServer, type Reply, type TestServer } from '../helpers/server.js';
import { startSharedPair } from '../helpers/shared-servers.js';

/**
 * The calls-per-minute budget over HTTP (spec §8; DECISIONS.md "Limits"; issue 11): 600 calls in any 60 seconds,
 * not per fixed minute, with RateLimit headers that say so; and the same budget shared exactly by several
 * processes on one database (`sharedRateLimits`), each telling the truth in its headers.
 */

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/** `count` listTeams calls from `token`, spread over `over` in turn; the replies, in order. */
async function calls(over: TestServer[], token: string, count: number): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let i = 0; i < count; i++) replies.push(await call(over[i % over.length]!, 'listTeams', {}, token));
  return replies;
}

function expectRefused(server: TestServer, reply: Reply, wait: number): void {
  expectProblem(server, reply, 429, 'rate_limited');
  expect(reply.headers.get('retry-after')).toBe(String(wait));
  expect(reply.headers.get('ratelimit')).toBe(`"minute";r=0;t=${wait}`);
  expect(reply.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60');
}

describe('the calls-per-minute budget', () => {
  it('refuses the 601st call in any 60 seconds, and allows one again exactly when the oldest leaves', async () => {
    const server = await startServer();
    stop = () => server.stop();
    const alice = await server.person();
    const first = await call(server, 'listTeams', {}, alice.token);
    expect(first.headers.get('ratelimit')).toBe('"minute";r=599;t=60');
    server.clock.advance(30_000);
    const rest = await calls([server], alice.token, 599);
    expect(rest.map((reply) => reply.status)).toEqual(Array(599).fill(200));
    expect(rest.at(-1)!.headers.get('ratelimit')).toBe('"minute";r=0;t=30');

    server.clock.advance(29_999);
    expectRefused(server, await call(server, 'listTeams', {}, alice.token), 1);
    // At 60 s the first call leaves: exactly one call is possible, until the 599 leave 30 s later.
    server.clock.advance(1);
    const again = await call(server, 'listTeams', {}, alice.token);
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit')).toBe('"minute";r=0;t=30');
    expectRefused(server, await call(server, 'listTeams', {}, alice.token), 30);
  });

  it('is one budget for several processes on one database, each of which answers it truthfully', async () => {
    const pair = await startSharedPair();
    stop = pair.stop;
    const { a, b } = pair;
    const alice = await a.person();

    const replies = await calls([a, b], alice.token, 600);
    expect(replies.map((reply) => reply.status)).toEqual(Array(600).fill(200));
    expect(replies.slice(0, 3).map((reply) => reply.headers.get('ratelimit'))).toEqual(['"minute";r=599;t=60', '"minute";r=598;t=60', '"minute";r=597;t=60']);
    expectRefused(a, await call(a, 'listTeams', {}, alice.token), 60);
    expectRefused(b, await call(b, 'listTeams', {}, alice.token), 60);

    a.clock.advance(60_000);
    expect((await call(b, 'listTeams', {}, alice.token)).headers.get('ratelimit')).toBe('"minute";r=599;t=60');
    expect((await call(a, 'listTeams', {}, alice.token)).headers.get('ratelimit')).toBe('"minute";r=598;t=60');
  });
});
