/** The rule-6 check over providers: verdicts, failures, timeouts, the cache, and the choice from config. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { checkAddress } from '../../src/domain/destination.js';
import { unsafeSitesFromConfig } from '../../src/destinations/unsafe/from-config.js';
import { lookupKeyOf, unsafeSitesCheck, type UnsafeSiteProvider } from '../../src/destinations/unsafe/provider.js';
import { LruCache } from '../../src/support/lru-cache.js';

/** A provider that answers from a set, or fails, or never answers, and counts the addresses it was asked about. */
function fakeProvider(name: string, unsafe: string[] = []) {
  const provider = {
    name,
    unsafe: new Set(unsafe),
    mode: 'ok' as 'ok' | 'fail' | 'hang',
    asked: [] as string[],
    async lookup(urls: string[]) {
      provider.asked.push(...urls);
      if (provider.mode === 'fail') throw new Error('list down');
      if (provider.mode === 'hang') return new Promise<Set<string>>(() => {});
      return new Set(urls.filter((url) => provider.unsafe.has(url)));
    },
  };
  return provider satisfies UnsafeSiteProvider;
}

const at = (url: string) => checkAddress(url);
const quiet = { log: () => {} };
const outcome = (promise: Promise<void>) =>
  promise.then(() => 'passed', (error: { status: number; code: string }) => `${error.status} ${error.code}`);

describe('lookupKeyOf', () => {
  it('drops the fragment and normalizes the host, keeping path and query', () => {
    expect(lookupKeyOf(at('https://Example.COM./A/b?Q=1#top'))).toBe('https://example.com/A/b?Q=1');
    expect(lookupKeyOf(at('https://bücher.de:443/'))).toBe('https://xn--bcher-kva.de/');
    expect(lookupKeyOf(at('https://example.com:8443'))).toBe('https://example.com:8443/');
  });
});

describe('unsafeSitesCheck', () => {
  it('passes every destination with no providers', async () => {
    await expect(unsafeSitesCheck([]).check(at('https://example.com/'), 'destination')).resolves.toBeUndefined();
  });

  it('refuses a destination any provider lists, at the field given', async () => {
    const a = fakeProvider('a', ['https://one.example.com/']);
    const b = fakeProvider('b', ['https://two.example.com/']);
    const check = unsafeSitesCheck([a, b], quiet);
    await expect(check.check(at('https://two.example.com/#x'), 'links[4].destination')).rejects.toMatchObject({
      status: 400, code: 'unsafe_destination', field: 'links[4].destination', retryAfter: undefined,
    });
    expect(await outcome(check.check(at('https://ONE.example.com'), 'destination'))).toBe('400 unsafe_destination');
    expect(await outcome(check.check(at('https://three.example.com/'), 'destination'))).toBe('passed');
  });

  it('answers 503 when a provider fails and no other matched, 400 when another matched', async () => {
    const down = fakeProvider('down');
    down.mode = 'fail';
    const check = unsafeSitesCheck([down, fakeProvider('up', ['https://bad.example.com/'])], quiet);
    await expect(check.check(at('https://good.example.com/'), 'destination')).rejects.toMatchObject({
      status: 503, code: 'check_unavailable', field: 'destination', retryAfter: 60,
    });
    expect(await outcome(check.check(at('https://bad.example.com/'), 'destination'))).toBe('400 unsafe_destination');
  });

  it('answers 503 within timeoutMs when a provider never answers', async () => {
    const silent = fakeProvider('silent');
    silent.mode = 'hang';
    const check = unsafeSitesCheck([silent], { ...quiet, timeoutMs: 100, retryAfterSeconds: 30 });
    const started = Date.now();
    await expect(check.check(at('https://example.com/'), 'destination')).rejects.toMatchObject({ code: 'check_unavailable', retryAfter: 30 });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('caches both verdicts, keyed without the fragment, and never a failure', async () => {
    const provider = fakeProvider('p', ['https://bad.example.com/']);
    const check = unsafeSitesCheck([provider], quiet);
    for (const url of ['https://good.example.com/', 'https://good.example.com/#a', 'https://GOOD.example.com/#b']) {
      expect(await outcome(check.check(at(url), 'destination'))).toBe('passed');
      expect(await outcome(check.check(at('https://bad.example.com/'), 'destination'))).toBe('400 unsafe_destination');
    }
    expect(provider.asked).toEqual(['https://good.example.com/', 'https://bad.example.com/']);

    provider.mode = 'fail';
    for (let i = 0; i < 2; i++) expect(await outcome(check.check(at('https://new.example.com/'), 'destination'))).toBe('503 check_unavailable');
    provider.mode = 'ok';
    expect(await outcome(check.check(at('https://new.example.com/'), 'destination'))).toBe('passed');
    expect(provider.asked.slice(2)).toEqual(Array(3).fill('https://new.example.com/'));
  });

  it('asks again once a verdict is older than ttlMs', async () => {
    let now = 1_000_000;
    const provider = fakeProvider('p');
    const check = unsafeSitesCheck([provider], { ...quiet, ttlMs: 60_000, now: () => now });
    await check.check(at('https://soon-bad.example.com/'), 'destination');
    provider.unsafe.add('https://soon-bad.example.com/');
    now += 59_999;
    expect(await outcome(check.check(at('https://soon-bad.example.com/'), 'destination'))).toBe('passed');
    now += 1;
    expect(await outcome(check.check(at('https://soon-bad.example.com/'), 'destination'))).toBe('400 unsafe_destination');
    expect(provider.asked).toHaveLength(2);
  });

  it('keeps at most cacheSize verdicts, dropping the least recently used', async () => {
    const provider = fakeProvider('p');
    const check = unsafeSitesCheck([provider], { ...quiet, cacheSize: 2 });
    for (const host of ['a', 'b', 'a', 'c', 'a', 'b']) await check.check(at(`https://${host}.example.com/`), 'destination');
    // a, b asked; a hit; c pushes out b (a was used more recently); a hit; b asked again.
    expect(provider.asked.map((url) => new URL(url).hostname[0])).toEqual(['a', 'b', 'c', 'b']);
  });

  it('lookupFresh asks past the cache and says whether every provider answered', async () => {
    const a = fakeProvider('a', ['https://bad.example.com/']);
    const b = fakeProvider('b');
    const check = unsafeSitesCheck([a, b], quiet);
    await check.check(at('https://good.example.com/'), 'destination');
    const urls = ['https://good.example.com/', 'https://bad.example.com/'];
    expect(await check.lookupFresh(urls)).toEqual({ unsafe: new Set(['https://bad.example.com/']), complete: true });
    b.mode = 'fail';
    expect(await check.lookupFresh(urls)).toEqual({ unsafe: new Set(['https://bad.example.com/']), complete: false });
    expect(a.asked).toEqual(['https://good.example.com/', ...urls, ...urls]);
    expect(await check.lookupFresh([])).toEqual({ unsafe: new Set(), complete: true });
  });
});

describe('LruCache', () => {
  it('holds nothing with a size or TTL of zero', () => {
    for (const [size, ttl] of [[0, 1000], [10, 0]] as const) {
      const cache = new LruCache<number>(size, { ttlMs: ttl });
      cache.set('k', 1);
      expect(cache.get('k')).toBeUndefined();
      expect(cache.size).toBe(0);
    }
  });
});

describe('unsafeSitesFromConfig', () => {
  it('is undefined (the rule is skipped) unless UNSAFE_LIST_FILE or SAFE_BROWSING_API_KEY is set', async () => {
    expect(unsafeSitesFromConfig(loadConfig({}))).toBeUndefined();
    const fileOnly = unsafeSitesFromConfig(loadConfig({ UNSAFE_LIST_FILE: '/nonexistent/unsafe.txt' }), quiet);
    // The file is missing: the check cannot be made. (The API key is tested against the stand-in.)
    expect(await outcome(fileOnly!.check(at('https://example.com/'), 'destination'))).toBe('503 check_unavailable');
  });
});
