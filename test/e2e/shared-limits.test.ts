import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REGISTRATIONS_PER_HOUR } from '../../src/oauth/lifetimes-and-limits.js';
import { call, type TestServer } from '../helpers/server.js';
import { startSharedPair } from '../helpers/shared-servers.js';
import { WEB_PASSWORD, WebVisitor } from '../helpers/web-forms.js';

/**
 * The per-address limits of two processes on one database (`sharedRateLimits`; issue 11): the sign-in slowdown,
 * sign-ups, client registrations and QR codes count once for the service, whichever process a request reaches.
 */

let a: TestServer;
let b: TestServer;
let stop: () => Promise<void>;
beforeEach(async () => {
  ({ a, b, stop } = await startSharedPair());
});
afterEach(() => stop());

/** One browser on each server, both from `address`. */
const visitors = (address: string) => [new WebVisitor(a.url, address), new WebVisitor(b.url, address)] as const;

describe('limits shared by the processes of one database', () => {
  it('slow down sign-in after 5 failures, wherever they were tried', async () => {
    expect((await new WebVisitor(a.url, '198.51.100.2').signUp('slow@example.com')).status).toBe(303);
    const [onA, onB] = visitors('198.51.100.1');
    for (let i = 0; i < 5; i++) {
      const visitor = i % 2 === 0 ? onA : onB;
      expect((await visitor.submit('/signin', '/signin', { email: 'slow@example.com', password: `wrong ${i}` })).status).toBe(400);
    }
    for (const visitor of [onA, onB]) {
      const slowed = await visitor.submit('/signin', '/signin', { email: 'slow@example.com', password: WEB_PASSWORD });
      expect(slowed.status).toBe(429);
      expect(slowed.headers.get('retry-after')).toBe('1');
    }
  });

  it('count sign-ups per address on every process together', async () => {
    await a.setLimits({ signupsPerHour: 2 });
    const [onA, onB] = visitors('203.0.113.7');
    expect((await onA.signUp('one@example.com')).status).toBe(303);
    expect((await onB.signUp('two@example.com')).status).toBe(303);
    expect((await onA.signUp('three@example.com')).status).toBe(429);
    expect((await onB.signUp('three@example.com')).status).toBe(429);
  });

  it('count client registrations per address on every process together', async () => {
    const registerOn = (server: TestServer) =>
      fetch(`${server.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.9' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/callback'] }),
      });
    for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) expect((await registerOn(i % 2 === 0 ? a : b)).status).toBe(201);
    expect((await registerOn(a)).status).toBe(429);
    expect((await registerOn(b)).status).toBe(429);
  });

  it('count QR codes per address in the calls-per-minute budget every process shares', async () => {
    const alice = await a.person();
    const made = await call(a, 'createLink', { team: alice.teamId, destination: 'https://example.com/qr' }, alice.token);
    await a.setLimits({ callsPerMinute: 2 });
    const qrOn = async (server: TestServer) => (await fetch(`${server.url}/${made.body.code}/qr`, { headers: { 'x-forwarded-for': '192.0.2.44' } })).status;
    expect([await qrOn(a), await qrOn(b), await qrOn(a), await qrOn(b)]).toEqual([200, 200, 429, 429]);
  });
});
