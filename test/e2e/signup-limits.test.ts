import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/domain/limits.js';
import { addressGroup } from '../../src/support/address-group.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * Sign-ups and new teams per client address (and teams per person) in the web app. The server trusts loopback as
 * its proxy, so each visitor's X-Forwarded-For is its client address.
 */

let server: TestServer;
let emails = 0;

beforeEach(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1' } });
});
afterEach(() => server.stop());

const nextEmail = () => `limits${++emails}@example.com`;

async function signUpFrom(address: string, email = nextEmail()): Promise<WebPage> {
  return new WebVisitor(server.url, address).signUp(email);
}

function expectTooMany(page: WebPage, message: string): void {
  expect(page.status).toBe(429);
  expect(page.headers.get('retry-after')).toBe(String(HOUR_MS / 1000));
  expect(page.body).toContain('role="alert"');
  expect(page.body).toContain(message);
}

describe('sign-up', () => {
  it('makes 10 accounts per client address an hour; the 11th answers 429 and makes nothing', async () => {
    // A form with mistakes takes nothing from the allowance.
    expect((await new WebVisitor(server.url, '203.0.113.7').submit('/signup', '/signup', { email: 'x', password: 'y' })).status).toBe(400);
    for (let i = 0; i < 10; i++) expect((await signUpFrom('203.0.113.7')).status).toBe(303);

    const refused = await signUpFrom('203.0.113.7', 'one-too-many@example.com');
    expectTooMany(refused, 'Too many accounts were made from your network in the last hour. Try again in 60 minutes');
    expect(refused.headers.getSetCookie().join()).not.toContain('sl_session=');
    expect(await server.app.ctx.store.people.findByEmail('one-too-many@example.com')).toBeNull();

    expect((await signUpFrom('203.0.113.8')).status).toBe(303);
    server.clock.advance(HOUR_MS);
    expect((await signUpFrom('203.0.113.7', 'one-too-many@example.com')).status).toBe(303);
  });

  it('counts an IPv6 client by its /64, which one line can change addresses within', async () => {
    for (let i = 1; i <= 10; i++) expect((await signUpFrom(`2001:db8:1:2::${i.toString(16)}`)).status).toBe(303);
    expectTooMany(await signUpFrom('2001:db8:1:2:ffff:1:2:3'), 'Too many accounts');
    expect((await signUpFrom('2001:db8:1:3::1')).status).toBe(303);
  });

  it('follows the operator\'s signups-per-hour limit', async () => {
    await server.setLimits({ signupsPerHour: 2 });
    expect((await signUpFrom('203.0.113.9')).status).toBe(303);
    expect((await signUpFrom('203.0.113.9')).status).toBe(303);
    expect((await signUpFrom('203.0.113.9')).status).toBe(429);
  });
});

describe('making a team', () => {
  /** A signed-up person who agreed to the terms, browsing from `address`. */
  async function member(address: string): Promise<WebVisitor> {
    const visitor = new WebVisitor(server.url, address);
    expect((await visitor.signUp(nextEmail())).status).toBe(303);
    expect((await visitor.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);
    return visitor;
  }

  const teamsOf = async (visitor: WebVisitor) => (await visitor.request('GET', '/teams')).body.match(/<li><a href="\/teams\//g)?.length ?? 0;

  it('makes 10 teams per person an hour, from whatever address', async () => {
    const person = await member('198.51.100.1');
    for (let i = 0; i < 10; i++) {
      person.address = `198.51.100.${10 + i}`;
      expect((await person.makeTeam(`Team ${i}`)).status).toBe(303);
    }
    person.address = '198.51.100.99';
    const refused = await person.makeTeam('One too many');
    expectTooMany(refused, 'Too many teams were made from your network or your account in the last hour. Try again in 60 minutes');
    expect(refused.body).toContain('value="One too many"');
    expect(await teamsOf(person)).toBe(10);
  });

  it('makes 10 teams per client address an hour, whoever makes them', async () => {
    const first = await member('192.0.2.1');
    const second = await member('192.0.2.1');
    for (let i = 0; i < 6; i++) expect((await first.makeTeam(`First ${i}`)).status).toBe(303);
    for (let i = 0; i < 4; i++) expect((await second.makeTeam(`Second ${i}`)).status).toBe(303);
    expectTooMany(await second.makeTeam('Second 4'), 'Too many teams');
    expect(await teamsOf(second)).toBe(4);

    second.address = '192.0.2.2';
    expect((await second.makeTeam('Second 4')).status).toBe(303);
  });
});

describe('addressGroup', () => {
  it('keeps an IPv4 address and reduces an IPv6 address to its /64, however it is spelled', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressGroup('unknown')).toBe('unknown');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });
});
