import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countryLookup } from '../../src/analytics/country.js';
import { writeMmdb } from './mmdb-file.js';

const dir = mkdtempSync(join(tmpdir(), 'shortlinks-geoip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('countries from the DB-IP file shipped', () => {
  const country = countryLookup();

  // Addresses of registries, research networks and Google, whose country is theirs for good.
  it.each([
    ['8.8.8.8', 'US'], // Google Public DNS
    ['193.0.6.139', 'NL'], // RIPE NCC, Amsterdam
    ['133.11.0.1', 'JP'], // The University of Tokyo
    ['200.160.2.3', 'BR'], // NIC.br
    ['2001:67c:2e8:22::c100:68b', 'NL'], // RIPE NCC
    ['2001:660::1', 'FR'], // RENATER
    ['2001:630::1', 'GB'], // Jisc (JANET)
    ['2001:200::1', 'JP'], // WIDE Project
    ['2001:12ff::1', 'BR'], // NIC.br
  ])('%s is in %s', (address, code) => {
    expect(country(address)).toBe(code);
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address, in either spelling', () => {
    expect(country('::ffff:8.8.8.8')).toBe('US');
    expect(country('::ffff:808:808')).toBe('US');
    expect(country('::FFFF:193.0.6.139')).toBe('NL');
  });

  it('answers unknown for private, loopback, documentation and malformed addresses', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '192.0.2.1', '::1', 'fe80::1%eth0', '2001:db8::1', 'unknown', '', '999.1.1.1', '8.8.8'])
      expect(country(address)).toBe('unknown');
  });

  it('answers the same again from its cache', () => {
    expect(country('8.8.8.8')).toBe('US');
    expect(country('8.8.8.8')).toBe('US');
  });
});

describe('GEOIP_DATABASE: a GeoLite2 file of the operator', () => {
  it('reads country.iso_code, and registered_country where the address has no country of its own', () => {
    const path = join(dir, 'GeoLite2-Country.mmdb');
    writeMmdb(
      path,
      new Map([
        [81, { country: { iso_code: 'GB', names: { en: 'United Kingdom' } }, registered_country: { iso_code: 'GB' } }],
        [82, { registered_country: { iso_code: 'DE' } }],
        [83, { continent: { code: 'EU' } }],
      ]),
    );
    const country = countryLookup(path);
    expect(country('81.2.69.160')).toBe('GB');
    expect(country('82.1.1.1')).toBe('DE');
    expect(country('83.1.1.1')).toBe('unknown');
    expect(country('84.1.1.1')).toBe('unknown');
    // An IPv4-only file asked of an IPv6 address.
    expect(country('2001:660::1')).toBe('unknown');
  });

  it('stops with the reason when the file is no mmdb database', () => {
    const path = join(dir, 'not.mmdb');
    writeFileSync(path, 'country,code\n');
    expect(() => countryLookup(path)).toThrow(new RegExp(`^Bad configuration: GEOIP_DATABASE: ${path} is not a readable mmdb database \\(.+\\)$`));
    expect(() => countryLookup(dir)).toThrow(/^Bad configuration: GEOIP_DATABASE: .* is not a readable mmdb database \(EISDIR/);
  });
});
