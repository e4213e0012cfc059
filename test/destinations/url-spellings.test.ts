/**
 * Issue 5, item 4: however a destination is spelled (IP notations, IPv6 forms, IDN, userinfo, ports, case,
 * trailing dots, percent-encoding, full-width characters), no private or literal address gets through the real
 * destination checker with the DNS check pointed at a loopback server, and nothing fails with anything but an
 * ApiError (a 500 on the API).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinationChecker, type DestinationChecker } from '../../src/destinations/checker.js';
import { dnsResolver } from '../../src/destinations/resolver.js';
import { privateNetworkCheck } from '../../src/destinations/private-network.js';
import { DEFAULT_SERVICE_SETTINGS } from '../../src/domain/service-settings.js';
import { ApiError } from '../../src/errors.js';
import type { SettingsStore } from '../../src/store/ports.js';
import { NAMES, startDnsServer, type DnsServer } from '../helpers/dns-server.js';

let dns: DnsServer;
let checker: DestinationChecker;
beforeAll(async () => {
  dns = await startDnsServer();
  const settings = { blockedDomains: () => new Set<string>(), serviceSettings: async () => DEFAULT_SERVICE_SETTINGS } as unknown as SettingsStore;
  const privateNetwork = privateNetworkCheck({ resolve: dnsResolver({ servers: dns.servers, timeoutMs: 1_000 }) });
  checker = destinationChecker({ publicUrl: 'https://links.test', settings, privateNetwork });
});
afterAll(() => dns.close());

/** The ApiError the checker throws, or null when the destination passes; anything else fails the test. */
async function outcome(raw: string, field = 'destination'): Promise<ApiError | null> {
  try {
    await checker.check(raw, field);
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/** Zone names that resolve to at least one non-public address, and the shortener there that does too. */
const PRIVATE_NAMES = Object.keys(NAMES).filter((name) => name.startsWith('private-') || name === 'bit.ly');
/** Private and reserved IPv4 targets, and one public address: every IP literal is refused, public ones too. */
const IPV4 = [[127, 0, 0, 1], [10, 0, 0, 1], [169, 254, 169, 254], [192, 168, 1, 1], [0, 0, 0, 0], [100, 64, 1, 1],
  [192, 0, 2, 1], [93, 184, 216, 34]] as const;
const IPV6 = ['::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:a00:1', '::127.0.0.1',
  'fd00::1', 'FE80::1', '64:ff9b::a00:1', '2002:a00:1::', '::', '2606:2800:220:1::'];

/** One part of an IPv4 spelling: decimal, octal (leading zero) or hex (0x / 0X). */
const radix = (value: number) => fc.constantFrom(String(value), `0${value.toString(8)}`, `0x${value.toString(16)}`, `0X${value.toString(16).toUpperCase()}`);

/** An IPv4 target in 1 to 4 parts (127.0.0.1, 127.1, 127.0.1, 2130706433), each part in its own radix. */
const ipv4 = fc.tuple(fc.constantFrom(...IPV4), fc.integer({ min: 1, max: 4 })).chain(([[a, b, c, d], parts]) => {
  const values = [[((a << 24) >>> 0) + (b << 16) + (c << 8) + d], [a, (b << 16) + (c << 8) + d], [a, b, (c << 8) + d],
    [a, b, c, d]][parts - 1]!;
  return fc.tuple(...values.map(radix)).map((spelled) => spelled.join('.'));
});

/** Host characters in disguise that the URL parser maps back: upper case, full-width forms, percent-encoding. */
const disguise = (host: string) =>
  fc.array(fc.constantFrom('plain', 'plain', 'upper', 'fullwidth', 'percent'), { minLength: host.length, maxLength: host.length })
    .map((how) => [...host].map((ch, i) => {
      if (how[i] === 'upper') return ch.toUpperCase();
      if (how[i] === 'fullwidth' && ch.charCodeAt(0) < 0x7f) return ch === '.' ? '。' : String.fromCharCode(ch.charCodeAt(0) + 0xfee0);
      if (how[i] === 'percent') return encodeURIComponent(ch).replace(/^[^%]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
      return ch;
    }).join(''));

const idn = fc.constantFrom('bücher-private', 'BÜCHER-private', 'xn--bcher-private-wob', 'XN--BCHER-PRIVATE-WOB')
  .map((label) => `${label}.dns-test.net`);
const name = fc.tuple(fc.oneof(fc.constantFrom(...PRIVATE_NAMES), idn), fc.boolean())
  .chain(([host, dot]) => disguise(dot ? `${host}.` : host));
const literal = fc.oneof(
  fc.tuple(ipv4, fc.boolean()).chain(([ip, dot]) => disguise(dot ? `${ip}.` : ip)),
  fc.constantFrom(...IPV6).map((ip) => `[${ip}]`),
);

const spelling = fc.record({
  scheme: fc.constantFrom('https://', 'HTTPS://', 'hTTps://', 'https:/', 'https:\\\\', 'https:///'),
  userinfo: fc.constantFrom('', '', '', 'user@', 'user:pass@', '@', ':@', 'public.dns-test.net@'),
  host: fc.oneof(name, literal),
  port: fc.constantFrom('', '', ':', ':443', ':8443', ':0443'),
  path: fc.constantFrom('', '/', '/a/b?c=d#e', '?x', '#y'),
});

describe('URL spellings through the destination checker and the DNS check', () => {
  it('no private name or IP literal gets through: always a 400', async () => {
    await fc.assert(fc.asyncProperty(spelling, async ({ scheme, userinfo, host, port, path }) => {
      const raw = `${scheme}${userinfo}${host}${port}${path}`;
      const error = await outcome(raw);
      expect(error, raw).not.toBeNull();
      expect(error!.status, raw).toBe(400);
      // Credentials are refused first; without them, the host itself is the reason, by name or by address.
      expect(error!.code, raw).toBe(userinfo === '' ? 'private_destination' : 'invalid_destination');
    }), { numRuns: 200 });
  });

  it('arbitrary input only ever passes or throws an ApiError (never a 500), at the given field', async () => {
    const input = fc.oneof(
      fc.string(),
      fc.webUrl({ validSchemes: ['https'], authoritySettings: { withUserInfo: true, withPort: true, withIPv4: true, withIPv6: true, withIPv4Extended: true } }),
      fc.domain().map((domain) => `https://${domain}/`),
      fc.string({ unit: 'binary' }).map((host) => `https://${host}.dns-test.net/`),
    );
    await fc.assert(fc.asyncProperty(input, async (raw) => {
      const error = await outcome(raw, 'links[1].destination');
      if (error) expect([error.status, error.field]).toEqual([error.code === 'check_unavailable' ? 503 : 400, 'links[1].destination']);
    }), { numRuns: 200 });
  });

  it('lets a public name through however it is spelled', async () => {
    for (const raw of ['https://public.dns-test.net/', 'https://PUBLIC.Dns-Test.NET.:443/x', 'https://ｐｕｂｌｉｃ。dns-test.net']) {
      expect(await outcome(raw), raw).toBeNull();
    }
  });
});
