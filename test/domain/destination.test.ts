import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ApiError, type ErrorCode } from '../../src/errors.js';
import {
  checkDestination,
  hostKeyOf,
  isPrivateHostName,
  matchesDomain,
  normalizeDomain,
  type DestinationPolicy,
} from '../../src/domain/destination.js';
import { loadShortenerList } from '../../src/domain/shorteners.js';
import { errorOf } from '../helpers/error-of.js';

const policy: DestinationPolicy = {
  ownHosts: new Set(['sho.rt']),
  shorteners: loadShortenerList(),
  blocked: new Set(['blocked-site.com', 'xn--bsewicht-n4a.net' /* bösewicht.net */]),
};

/** Asserts that `raw` is refused with exactly this code, status 400 and field; returns the error. */
function expectRefused(raw: string, code: ErrorCode, field = 'destination', p = policy): ApiError {
  const err = errorOf(() => checkDestination(raw, p, field));
  expect({ code: err.code, status: err.status, field: err.field }).toEqual({ code, status: 400, field });
  return err;
}

/** Asserts that `raw` passes and returns the normalized host. */
function acceptedHost(raw: string): string {
  const checked = checkDestination(raw, policy);
  expect(checked.url).toBeInstanceOf(URL);
  return checked.host;
}

describe('checkDestination: invalid_destination (rules 1 and 2)', () => {
  it('refuses http://', () => void expectRefused('http://example.com/', 'invalid_destination'));
  it('refuses ftp:', () => void expectRefused('ftp://example.com/file', 'invalid_destination'));
  it('refuses javascript:', () => void expectRefused('javascript:alert(1)', 'invalid_destination'));
  it('refuses a string that is not a URL', () => {
    expectRefused('not-a-url', 'invalid_destination');
    expectRefused('', 'invalid_destination');
    expectRefused('https://', 'invalid_destination');
    expectRefused('https://ex ample.com/', 'invalid_destination');
  });

  it('accepts 2,048 characters and refuses 2,049', () => {
    const at = (n: number) => 'https://example.com/' + 'a'.repeat(n - 'https://example.com/'.length);
    expect(at(2048)).toHaveLength(2048);
    expect(acceptedHost(at(2048))).toBe('example.com');
    const err = expectRefused(at(2049), 'invalid_destination');
    expect(err.detail).toMatch(/2,048/);
  });

  it('counts UTF-16 units of the string as sent, and refuses a huge string by length alone', () => {
    expectRefused('https://example.com/' + '😀'.repeat(1015), 'invalid_destination'); // 2,050 units
    const err = expectRefused('https://' + 'a'.repeat(5_000_000), 'invalid_destination');
    expect(err.detail).toMatch(/longer than/);
  });

  it('refuses leading or trailing whitespace', () => {
    for (const raw of [' https://example.com/', 'https://example.com/ ', '\nhttps://example.com/', 'https://example.com/\u00a0']) {
      expectRefused(raw, 'invalid_destination');
    }
  });

  it('refuses control characters, which the parser would silently drop ("bi\\tt.ly" is bit.ly)', () => {
    for (const raw of ['https://bi\tt.ly/x', 'https://example.com/a\nb', 'https://example.com/\u0000', 'https://example.com/\u007f']) {
      expectRefused(raw, 'invalid_destination');
    }
  });

  it('refuses userinfo, the "google.com@evil" phishing trick, with a detail about credentials', () => {
    const err = expectRefused('https://google.com@evil.example.org/', 'invalid_destination');
    expect(err.detail).toMatch(/credentials/);
    expect(err.detail).not.toContain('evil');
    for (const raw of ['https://user:pass@example.com/', 'https://@example.com/', 'https://:@example.com/', 'https:@example.com']) {
      expectRefused(raw, 'invalid_destination');
    }
    // An "@" after the host is in the path or query, not userinfo.
    expect(acceptedHost('https://example.com/@someone?ref=a@b')).toBe('example.com');
  });

  it('refuses an empty or malformed host name', () => {
    expectRefused('https://./', 'invalid_destination');
    expectRefused('https://bit.ly../x', 'invalid_destination');
    expectRefused('https://a..b.com/', 'invalid_destination');
    expectRefused('https://a*b.com/', 'invalid_destination');
    expectRefused(`https://${'a'.repeat(64)}.com/`, 'invalid_destination');
  });

  it('uses the field name it is given', () => {
    expectRefused('http://example.com/', 'invalid_destination', 'links[3].destination');
    expectRefused('https://127.0.0.1/', 'private_destination', 'links[3].destination');
    expectRefused('https://bit.ly/x', 'shortener_destination', 'links[3].destination');
    expectRefused('https://blocked-site.com/', 'blocked_destination', 'links[3].destination');
  });
});

describe('checkDestination: private_destination (rule 3)', () => {
  it('refuses every IPv4 notation: dotted, decimal, octal, hex, short, trailing dot, full-width, percent-encoded', () => {
    const spellings = ['127.0.0.1', '2130706433', '0177.0.0.1', '0x7f.1', '0X7F000001', '127.1', '127.0.1',
      '127.0.0.1.', '０x７ｆ．１', '%31%32%37.0.0.1', '0000000000127.0.0.1'];
    for (const host of spellings) {
      const err = expectRefused(`https://${host}/`, 'private_destination');
      expect(err.detail).toMatch(/IP address/);
    }
  });

  it('refuses IPv6 literals, IPv4-mapped ones included', () => {
    for (const host of ['[::1]', '[::ffff:127.0.0.1]', '[0:0:0:0:0:ffff:7f00:1]', '[fe80::1]', '[FE80::1]:8443']) {
      expectRefused(`https://${host}/`, 'private_destination');
    }
  });

  it('refuses public IP addresses too ("not an IP address")', () => {
    expectRefused('https://8.8.8.8/', 'private_destination');
    expectRefused('https://[2606:4700::1]/', 'private_destination');
  });

  it('refuses localhost, *.localhost and the other special-use names', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'foo.localhost', 'printer.local', 'db.internal', 'router.home.arpa',
      '1.0.0.127.in-addr.arpa', 'site.test', 'x.invalid', 'www.example', 'nas.lan', 'fs.corp']) {
      const err = expectRefused(`https://${host}/`, 'private_destination');
      expect(err.detail).toMatch(/private-network/);
    }
  });

  it('refuses single-label names', () => {
    expectRefused('https://intranet/', 'private_destination');
    expectRefused('https://wiki:8080/page', 'private_destination');
  });

  it('checks private before the service\'s own hosts (a PUBLIC_URL of localhost)', () => {
    expectRefused('https://localhost:3000/abc', 'private_destination', 'destination', { ...policy, ownHosts: new Set(['localhost']) });
  });
});

describe('checkDestination: shortener_destination (rule 4)', () => {
  it('refuses the service\'s own host and its subdomains', () => {
    expect(expectRefused('https://sho.rt/abcdefg', 'shortener_destination').detail).toMatch(/this service/);
    expectRefused('https://www.SHO.RT./abcdefg', 'shortener_destination');
  });

  it('refuses another shortener in every spelling', () => {
    for (const raw of ['https://bit.ly/x', 'https://BIT.LY./x', 'https://www.bit.ly/x', 'https://ｂｉｔ．ｌｙ/x',
      'https://bit%2Ely/x', 'https://bit.ly:443/x', 'https://tinyurl.com/abc', 'https://t.co/abc']) {
      expect(expectRefused(raw, 'shortener_destination').detail).toMatch(/shortener/);
    }
  });

  it('accepts a domain that merely ends in the same letters', () => {
    expect(acceptedHost('https://notbit.ly/x')).toBe('notbit.ly');
    expect(acceptedHost('https://bit.ly.example.org/x')).toBe('bit.ly.example.org');
  });

  it('checks shorteners before the blocklist', () => {
    expectRefused('https://bit.ly/x', 'shortener_destination', 'destination', { ...policy, blocked: new Set(['bit.ly']) });
  });
});

describe('checkDestination: blocked_destination (rule 5)', () => {
  it('refuses a blocked domain and its subdomains', () => {
    expect(expectRefused('https://blocked-site.com/', 'blocked_destination').detail).toMatch(/does not allow/);
    expectRefused('https://deep.sub.blocked-site.com/page', 'blocked_destination');
    expectRefused('https://BLOCKED-SITE.COM./', 'blocked_destination');
  });

  it('refuses a blocked IDN domain in Unicode, mixed case and punycode', () => {
    for (const raw of ['https://bösewicht.net/', 'https://BÖSEWICHT.net./', 'https://xn--bsewicht-n4a.net/', 'https://www.XN--BSEWICHT-N4A.NET/']) {
      expectRefused(raw, 'blocked_destination');
    }
  });
});

describe('checkDestination: accepted destinations', () => {
  it('accepts example.com (only the .example TLD is reserved)', () => {
    const checked = checkDestination('https://example.com/path?q=1#top', policy);
    expect(checked.host).toBe('example.com');
    expect(checked.url.href).toBe('https://example.com/path?q=1#top');
  });

  it('normalizes case and the trailing dot in the host', () => expect(acceptedHost('https://EXAMPLE.com./')).toBe('example.com'));
  it('converts an IDN host to punycode', () => expect(acceptedHost('https://bücher.de/')).toBe('xn--bcher-kva.de'));
  it('accepts ports, and .onion (public, only reached through Tor)', () => {
    expect(acceptedHost('https://example.com:8443/x')).toBe('example.com');
    expect(acceptedHost('https://duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion/')).toMatch(/\.onion$/);
  });
});

describe('normalizeDomain', () => {
  it.each([
    ['Example.COM.', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['XN--BCHER-KVA.DE', 'xn--bcher-kva.de'],
    ['ＥＸＡＭＰＬＥ．com', 'example.com'],
    ['under_score.example.org', 'under_score.example.org'],
    ['bit.ly', 'bit.ly'],
  ])('normalizes %j to %j', (input, expected) => expect(normalizeDomain(input)).toBe(expected));

  it.each(['', '.', 'example.com..', 'a..b', '.example.com', ' example.com', 'example.com/path', 'a.b?c', 'a%2eb',
    'user@example.com', 'example.com:80', '127.0.0.1', '0x7f.1', '[::1]', '::1', 'xn--a', 'a*b.com',
    `${'a'.repeat(64)}.com`, `${'abcdefghi.'.repeat(26)}com`])('refuses %j', (input) => expect(normalizeDomain(input)).toBeNull());
});

describe('matchesDomain', () => {
  const domains = new Set(['bit.ly', 'co.uk.example']);
  it('matches the domain itself and its subdomains', () => {
    expect(matchesDomain('bit.ly', domains)).toBe(true);
    expect(matchesDomain('www.bit.ly', domains)).toBe(true);
    expect(matchesDomain('a.b.c.bit.ly', domains)).toBe(true);
  });
  it('matches whole labels only', () => {
    expect(matchesDomain('notbit.ly', domains)).toBe(false);
    expect(matchesDomain('ly', domains)).toBe(false);
    expect(matchesDomain('bit.ly.evil.com', domains)).toBe(false);
    expect(matchesDomain('example.com', new Set())).toBe(false);
  });
});

describe('isPrivateHostName', () => {
  it.each(['localhost', 'intranet', 'a.localhost', 'printer.local', 'db.internal', 'x.home.arpa', 'x.test', 'www.example'])(
    '%s is private', (host) => expect(isPrivateHostName(host)).toBe(true));
  it.each(['example.com', 'example.org', 'local.com', 'test.io', 'x.onion', 'localhost.example.com'])(
    '%s is not private', (host) => expect(isPrivateHostName(host)).toBe(false));
});

describe('loadShortenerList', () => {
  it('holds normalized general-purpose shorteners, read once', () => {
    const list = loadShortenerList();
    expect(list.size).toBeGreaterThanOrEqual(60);
    for (const domain of ['bit.ly', 'tinyurl.com', 't.co', 'goo.gl', 'is.gd', 'dub.sh', 'clck.ru', '2.gy']) {
      expect(list.has(domain)).toBe(true);
    }
    for (const firstParty of ['youtu.be', 'amzn.to', 'g.co']) expect(list.has(firstParty)).toBe(false);
    for (const domain of list) expect(normalizeDomain(domain)).toBe(domain);
    expect(loadShortenerList()).toBe(list);
  });
});

// ---- Properties -------------------------------------------------------------------------------------------------

/** One part of an IPv4 spelling, in decimal, octal (leading zeros) or hex (0x, padded or not). */
const ipv4Part = (value: number) =>
  fc.oneof(
    fc.constant(String(value)),
    fc.nat(3).map((pad) => '0'.repeat(pad + 1) + value.toString(8)),
    fc.tuple(fc.nat(3), fc.boolean()).map(([pad, upper]) => (upper ? '0X' : '0x') + '0'.repeat(pad) + value.toString(16)),
  );

/** An IPv4 address spelled in 1 to 4 parts (127.0.0.1, 127.1, 2130706433, ...), each part in its own radix. */
const ipv4Spelling = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 4 }))
  .chain(([a, b, c, d, parts]) => {
    const values = [[a * 2 ** 24 + b * 2 ** 16 + c * 256 + d], [a, b * 2 ** 16 + c * 256 + d],
      [a, b, c * 256 + d], [a, b, c, d]][parts - 1] ?? [];
    return fc.tuple(...values.map(ipv4Part)).map((spelled) => spelled.join('.'));
  });

/** Host characters in disguise that the URL parser maps back: full-width forms and percent-encoding. */
const disguise = (host: string) =>
  fc.array(fc.constantFrom('plain', 'plain', 'plain', 'upper', 'fullwidth', 'percent'), { minLength: host.length, maxLength: host.length })
    .map((choices) => [...host].map((ch, i) => {
      const how = choices[i];
      if (how === 'upper') return ch.toUpperCase();
      if (how === 'fullwidth') return ch === '.' ? '．' : String.fromCharCode(ch.charCodeAt(0) + 0xfee0);
      if (how === 'percent') return '%' + ch.charCodeAt(0).toString(16).padStart(2, '0');
      return ch;
    }).join(''));

const ipv4Host = fc.tuple(fc.oneof(ipv4Spelling, fc.ipV4Extended()), fc.boolean())
  .chain(([ip, dot]) => disguise(dot ? `${ip}.` : ip));

const randomCase = (s: string) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length })
  .map((ups) => [...s].map((ch, i) => (ups[i] ? ch.toUpperCase() : ch)).join(''));

const ipv6Host = fc.oneof(
  fc.ipV6(),
  fc.ipV4().map((ip) => `::ffff:${ip}`),
  fc.ipV4().map((ip) => `0:0:0:0:0:ffff:${ip}`),
).chain(randomCase).map((ip) => `[${ip}]`);

const ipDestination = fc.record({
  scheme: randomCase('https'),
  userinfo: fc.option(fc.constantFrom('user@', 'user:pass@', '@', ':@', 'google.com@'), { nil: '' }),
  host: fc.oneof(ipv4Host, ipv6Host),
  port: fc.option(fc.integer({ min: 0, max: 65535 }).map((p) => `:${p}`), { nil: '' }),
  path: fc.option(fc.webPath(), { nil: '' }),
});

describe('properties', () => {
  it('no spelling of an IP address passes', () => {
    fc.assert(fc.property(ipDestination, ({ scheme, userinfo, host, port, path }) => {
      const raw = `${scheme}://${userinfo}${host}${port}${path}`;
      const err = errorOf(() => checkDestination(raw, policy));
      expect(err.status).toBe(400);
      // Userinfo is refused before the host is looked at; without it, the IP itself is the reason.
      expect(err.code).toBe(userinfo === '' ? 'private_destination' : 'invalid_destination');
    }), { numRuns: 1000 });
  });

  it('arbitrary input only ever throws an ApiError of status 400 at the given field', () => {
    const input = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.webUrl({
        validSchemes: ['https', 'http'],
        authoritySettings: { withUserInfo: true, withPort: true, withIPv4: true, withIPv6: true, withIPv4Extended: true },
        withQueryParameters: true,
        withFragments: true,
      }),
      fc.string({ unit: 'binary' }).map((s) => `https://${s}`),
      fc.domain().map((d) => `https://${d}/`),
    );
    fc.assert(fc.property(input, (raw) => {
      try {
        const { url, host } = checkDestination(raw, policy, 'links[0].destination');
        // Whatever passes is https, carries a normalized host and no credentials.
        expect(url.protocol).toBe('https:');
        expect(normalizeDomain(host)).toBe(host);
        expect(url.username + url.password).toBe('');
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).status).toBe(400);
        expect((err as ApiError).field).toBe('links[0].destination');
      }
    }), { numRuns: 1000 });
  });
});

describe('checkDestination in the private destinations mode (the operator\'s go-link setting)', () => {
  const inMode = (raw: string, mode: 'public' | 'private', p = policy) => {
    try {
      return checkDestination(raw, p, 'destination', mode).host;
    } catch (error) {
      return (error as ApiError).code;
    }
  };

  // [destination, public's answer, private's answer]: a host is accepted, a code refused.
  it.each([
    ['http://wiki/', 'invalid_destination', 'wiki'],
    ['https://wiki:8080/page', 'private_destination', 'wiki'],
    ['http://git.corp.internal/x', 'invalid_destination', 'git.corp.internal'],
    ['https://printer.local/', 'private_destination', 'printer.local'],
    ['https://nas.lan/', 'private_destination', 'nas.lan'],
    ['https://localhost:3000/', 'private_destination', 'localhost'],
    ['https://10.1.2.3/', 'private_destination', '10.1.2.3'],
    ['http://0x7f.1/', 'invalid_destination', '127.0.0.1'],
    ['https://[::1]:8443/', 'private_destination', '[::1]'],
    ['https://8.8.8.8/', 'private_destination', '8.8.8.8'],
    ['http://example.com/', 'invalid_destination', 'example.com'],
    ['https://example.com/', 'example.com', 'example.com'],
  ])('%s: public %s, private %s', (raw, inPublic, inPrivate) => {
    expect([inMode(raw, 'public'), inMode(raw, 'private')]).toEqual([inPublic, inPrivate]);
  });

  // Rules 1 (bar http), 2, 4 and 5 hold in both modes.
  it.each([
    ['ftp://wiki/', 'invalid_destination'],
    ['javascript:alert(1)', 'invalid_destination'],
    ['http://user:secret@wiki/', 'invalid_destination'],
    ['http://@wiki/', 'invalid_destination'],
    [`http://wiki/${'a'.repeat(2049 - 'http://wiki/'.length)}`, 'invalid_destination'],
    ['http://wi ki/', 'invalid_destination'],
    ['http://bit.ly/x', 'shortener_destination'],
    ['http://www.sho.rt/abcdefg', 'shortener_destination'],
    ['http://blocked-site.com/', 'blocked_destination'],
    ['http://deep.blocked-site.com/', 'blocked_destination'],
  ])('%s is refused in private mode too: %s', (raw, code) => {
    expect(inMode(raw, 'private')).toBe(code);
  });

  it('names both schemes when refusing another one', () => {
    const err = errorOf(() => checkDestination('ftp://wiki/', policy, 'links[2].destination', 'private'));
    expect({ status: err.status, code: err.code, field: err.field, detail: err.detail }).toEqual({
      status: 400, code: 'invalid_destination', field: 'links[2].destination', detail: 'The destination must be an http or https address.',
    });
    expect(errorOf(() => checkDestination('ftp://wiki/', policy)).detail).toBe('The destination must be an https address.');
  });

  it('refuses the service\'s own IP address, as hostKeyOf writes it', () => {
    const own = { ...policy, ownHosts: new Set([hostKeyOf(new URL('http://10.0.0.9:3000'))!, hostKeyOf(new URL('http://[::1]:3000'))!]) };
    expect(inMode('http://10.0.0.9:3000/abcdefg', 'private', own)).toBe('shortener_destination');
    expect(inMode('https://[0:0::1]/abcdefg', 'private', own)).toBe('shortener_destination');
    expect(inMode('http://10.0.0.10:3000/abcdefg', 'private', own)).toBe('10.0.0.10');
  });
});
