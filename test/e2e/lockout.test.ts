import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REGISTRATIONS_PER_HOUR } from '../../src/oauth/lifetimes-and-limits.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WEB_PASSWORD, WebVisitor } from '../helpers/web-forms.js';

/**
 * What a stranger can do to someone else's sign-in, and what stepping through an IPv6 /64 buys: the server trusts
 * loopback as its proxy, so each visitor's X-Forwarded-For is its client address.
 */

let server: TestServer;
beforeEach(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1' } });
  await server.setLimits({ signupsPerHour: 1_000 });
});
afterEach(() => server.stop());

/** Wrong guesses for `email` from a fresh browser at each of `addresses`, answered as the slowdown allows. */
async function failFrom(email: string, addresses: string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const address of addresses) {
    statuses.push((await new WebVisitor(server.url, address).submit('/signin', '/signin', { email, password: 'not it at all' })).status);
  }
  return statuses;
}

const strangers = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `192.0.2.${from + i}`);

describe('sign-in slowdown: a stranger cannot keep an owner out', () => {
  it("the owner's browser, where they signed in before, signs in while strangers are slowed for the email", async () => {
    const owner = new WebVisitor(server.url, '198.51.100.10');
    expect((await owner.signUp('owner@example.com')).status).toBe(303);
    expect(owner.cookies.has('sl_device')).toBe(true);
    expect((await owner.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);

    // Strangers, each from an address of its own, run the email's count up: the 6th must wait.
    expect(await failFrom('owner@example.com', strangers(6))).toEqual([400, 400, 400, 400, 400, 429]);
    const stranger = await new WebVisitor(server.url, '192.0.2.50').submit('/signin', '/signin', { email: 'owner@example.com', password: WEB_PASSWORD });
    expect(stranger.status).toBe(429);

    // The owner's browser, signed out, signs in with the right password at once, from wherever it is now.
    expect((await owner.submit('/app', '/signout', {})).status).toBe(303);
    owner.address = '198.51.100.11';
    const back = await owner.submit('/signin', '/signin', { email: 'owner@example.com', password: WEB_PASSWORD });
    expect(back.status).toBe(303);
    expect(back.location).toBe('/app');
  });

  it('a cookie of another email, or one altered, proves nothing: that browser waits like a stranger', async () => {
    const owner = new WebVisitor(server.url, '198.51.100.20');
    expect((await owner.signUp('first@example.com')).status).toBe(303);
    expect((await new WebVisitor(server.url, '198.51.100.21').signUp('second@example.com')).status).toBe(303);
    owner.cookies.delete('sl_session'); // signed out
    owner.address = '198.51.100.22';
    const proof = owner.cookies.get('sl_device')!;

    // Proved for first@, not second@: strangers' failures for second@ slow this browser too.
    expect(await failFrom('second@example.com', strangers(5, 60))).toEqual([400, 400, 400, 400, 400]);
    expect((await owner.submit('/signin', '/signin', { email: 'second@example.com', password: WEB_PASSWORD })).status).toBe(429);

    // Altered, it proves nothing for first@ either, once strangers slowed first@ down.
    expect(await failFrom('first@example.com', strangers(5, 70))).toEqual([400, 400, 400, 400, 400]);
    const [id, mac] = proof.split('.') as [string, string];
    const flipped = (text: string) => `${text[0] === 'A' ? 'B' : 'A'}${text.slice(1)}`; // the first 6 bits change
    for (const value of [`${id}.${flipped(mac)}`, `${flipped(id)}.${mac}`, id, `${proof}.more`, `.${mac}`]) {
      owner.cookies.set('sl_device', value);
      const page = await owner.submit('/signin', '/signin', { email: 'first@example.com', password: WEB_PASSWORD });
      expect(page.status, value).toBe(429);
    }
    // The cookie as it was given still opens the door.
    owner.cookies.set('sl_device', proof);
    expect((await owner.submit('/signin', '/signin', { email: 'first@example.com', password: WEB_PASSWORD })).status).toBe(303);
  });

  it("a browser with the cookie is slowed by its own failures: a stolen cookie buys 5 guesses, as an address's", async () => {
    const owner = new WebVisitor(server.url, '198.51.100.30');
    expect((await owner.signUp('stolen@example.com')).status).toBe(303);
    owner.cookies.delete('sl_session'); // signed out
    const thief = new WebVisitor(server.url, null, new Map(owner.cookies));
    const guesses: number[] = [];
    for (let i = 0; i < 6; i++) {
      thief.address = `192.0.2.${100 + i}`;
      guesses.push((await thief.submit('/signin', '/signin', { email: 'stolen@example.com', password: `guess ${i}` })).status);
    }
    expect(guesses).toEqual([400, 400, 400, 400, 400, 429]);
    // The thief's failures are that cookie's, not the email's: a fresh browser of the owner's is not slowed by them.
    const fresh = await new WebVisitor(server.url, '198.51.100.31').submit('/signin', '/signin', { email: 'stolen@example.com', password: WEB_PASSWORD });
    expect(fresh.status).toBe(303);
  });

  it('the wait is worded in minutes once it is long', async () => {
    expect((await new WebVisitor(server.url, '198.51.100.40').signUp('long@example.com')).status).toBe(303);
    expect(await failFrom('long@example.com', strangers(5, 150))).toEqual([400, 400, 400, 400, 400]);
    // 1, 2, 4 ... seconds: after 8 more timed failures the wait is 256 s.
    for (let wait = 1; wait <= 128; wait *= 2) {
      server.clock.advance(wait * 1000);
      expect(await failFrom('long@example.com', ['192.0.2.200'])).toEqual([400]);
    }
    const slowed = await new WebVisitor(server.url, '192.0.2.201').submit('/signin', '/signin', { email: 'long@example.com', password: 'x' });
    expect(slowed.status).toBe(429);
    expect(slowed.headers.get('retry-after')).toBe('256');
    expect(slowed.body).toContain('Too many failed attempts. Wait 5 minutes, then try again.');
  });
});

describe('per-address limits count an IPv6 client by its /64', () => {
  it('the sign-in slowdown of an address', async () => {
    const inOne64 = Array.from({ length: 6 }, (_, i) => `2001:db8:7:7::${(i + 1).toString(16)}`);
    const answers: number[] = [];
    for (const [i, address] of inOne64.entries()) answers.push(...(await failFrom(`nobody${i}@example.com`, [address])));
    expect(answers).toEqual([400, 400, 400, 400, 400, 429]);
    expect(await failFrom('nobody9@example.com', ['2001:db8:7:8::1'])).toEqual([400]);
  });

  it('client registrations', async () => {
    const register = (address: string) =>
      fetch(`${server.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/callback'] }),
      });
    for (let i = 1; i <= REGISTRATIONS_PER_HOUR; i++) expect((await register(`2001:db8:8:8::${i.toString(16)}:7`)).status).toBe(201);
    expect((await register('2001:db8:8:8:ffff::1')).status).toBe(429);
    expect((await register('2001:db8:8:9::1')).status).toBe(201);
  });

  it('calls without a valid token', async () => {
    await server.setLimits({ callsPerMinute: 3 });
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const res = await fetch(`${server.url}/v1/listLinks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `2001:db8:9:9::${i}` }, body: '{}' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});
