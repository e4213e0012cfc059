import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGate } from '../../src/auth/gate.js';
import { webSessions } from '../../src/auth/web-sessions.js';
import { dnsResolver } from '../../src/destinations/resolver.js';
import { isReservedWord } from '../../src/domain/link-name.js';
import { cryptoRandom } from '../../src/domain/random.js';
import { isServicePath, SERVICE_SEGMENTS } from '../../src/domain/service-paths.js';
import { memoryRateLimiter } from '../../src/support/memory-rate-limiter.js';
import { clientAddressOf } from '../../src/http/client-address.js';
import { oauthRoutes } from '../../src/oauth/router.js';
import { webApp } from '../../src/web/app.js';
import { oauthPages } from '../../src/web/pages/consent.js';
import { call, expectProblem, startServer, type TestServer } from '../helpers/server.js';

/** Every path an Express app has a route for (get, post, all), as registered. */
function routesOf(app: Express): string[] {
  const stack = (app as unknown as { router: { stack: Array<{ route?: { path: string | string[] } }> } }).router.stack;
  return stack.flatMap((layer) => (layer.route ? [layer.route.path].flat() : []));
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('the paths the service answers itself (service-paths.ts)', () => {
  it('hold every route of the web app and of the authorization server', () => {
    const { ctx } = server.app;
    const sessions = webSessions({ store: ctx.store, clock: ctx.clock, publicUrl: ctx.config.publicUrl });
    const gate = createGate({ store: ctx.store, rates: memoryRateLimiter(), clock: ctx.clock, publicUrl: ctx.config.publicUrl, clientAddress: clientAddressOf(new Set()) });
    const routes = [
      ...routesOf(webApp(ctx, express(), { sessions, gate })),
      ...routesOf(oauthRoutes(ctx, { sessions, gate, random: cryptoRandom, pages: oauthPages, resolveHost: dnsResolver({ servers: [], timeoutMs: 1000 }) }).app),
    ];
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((path) => !isServicePath(path))).toEqual([]);
  });

  it('are all reserved from link names, so no link can shadow a page', async () => {
    const alice = await server.person();
    for (const segment of SERVICE_SEGMENTS) {
      if (!/^[a-z0-9_-]{3,50}$/.test(segment)) continue; // not a name's shape: no link can have it anyway
      expect(isReservedWord(segment), segment).toBe(true);
      const reply = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/', name: segment }, alice.token);
      expectProblem(server, reply, 400, 'reserved_name', 'name');
    }
  });

  it('are the only paths the pages answer: another path that cannot be a link is the not-found page', async () => {
    for (const path of ['/unlisted-page/x', '/a.b', '/api']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain('There is nothing at this address.');
    }
    expect(isServicePath('/teams/team_x')).toBe(true);
    expect(isServicePath('/v7/anything')).toBe(true);
    expect(isServicePath('/launch')).toBe(false);
  });
});
