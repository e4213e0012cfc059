/** The Safe Browsing Lookup API provider against a real HTTP stand-in on loopback, alone and inside the check. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkAddress } from '../../src/domain/destination.js';
import { loadConfig } from '../../src/config.js';
import { ApiError } from '../../src/errors.js';
import { unsafeSitesFromConfig } from '../../src/destinations/unsafe/from-config.js';
import { unsafeSitesCheck } from '../../src/destinations/unsafe/provider.js';
import { safeBrowsingProvider, THREAT_TYPES } from '../../src/destinations/unsafe/safe-browsing.js';
import { startSafeBrowsingStandIn, type SafeBrowsingStandIn } from '../helpers/safe-browsing.js';

let standIn: SafeBrowsingStandIn;
beforeAll(async () => {
  standIn = await startSafeBrowsingStandIn();
});
afterAll(() => standIn.close());
afterEach(() => {
  standIn.mode = 'ok';
  standIn.unsafe.clear();
  standIn.requests.length = 0;
  standIn.refused.length = 0;
});

const provider = (options: { apiKey?: string; timeoutMs?: number } = {}) =>
  safeBrowsingProvider({ apiKey: options.apiKey ?? standIn.key, url: standIn.url, timeoutMs: options.timeoutMs ?? 1000 });

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe('Safe Browsing provider', () => {
  it('answers the matched addresses, sending the documented request', async () => {
    standIn.unsafe.add('https://phish.example.com/login');
    const unsafe = await provider().lookup(['https://phish.example.com/login', 'https://example.org/']);
    expect(unsafe).toEqual(new Set(['https://phish.example.com/login']));
    expect(standIn.refused).toEqual([]);
    expect(standIn.requests).toHaveLength(1);
    const { body } = standIn.requests[0]!;
    expect(body).toEqual({
      client: { clientId: 'shortlinks', clientVersion: expect.stringMatching(/^\d+\.\d+\.\d+/) },
      threatInfo: {
        threatTypes: THREAT_TYPES,
        platformTypes: ['ANY_PLATFORM'],
        threatEntryTypes: ['URL'],
        threatEntries: [{ url: 'https://phish.example.com/login' }, { url: 'https://example.org/' }],
      },
    });
  });

  it('answers an empty set for `{}` (no match)', async () => {
    expect(await provider().lookup(['https://example.org/fine'])).toEqual(new Set());
    expect(standIn.requests).toHaveLength(1);
  });

  it('splits more than 500 addresses into requests of at most 500', async () => {
    const urls = Array.from({ length: 1201 }, (_, i) => `https://site${i}.example.com/`);
    standIn.unsafe.add(urls[0]!).add(urls[1200]!);
    expect(await provider().lookup(urls)).toEqual(new Set([urls[0], urls[1200]]));
    expect(standIn.requests.map((r) => r.urls.length)).toEqual([500, 500, 201]);
  });

  it('rejects on a wrong key without ever putting the key in the error', async () => {
    const error = await rejection(provider({ apiKey: 'wrong-secret-key' }).lookup(['https://example.org/']));
    expect(error.message).toMatch(/HTTP 400/);
    expect(error.message).not.toContain('wrong-secret-key');
    expect(standIn.refused).toEqual([expect.stringMatching(/API key not valid/)]);
  });

  it('rejects on a 500, on garbage, on a too large answer and when nobody listens', async () => {
    standIn.mode = 'fail';
    expect((await rejection(provider().lookup(['https://example.org/']))).message).toMatch(/HTTP 500/);
    standIn.mode = 'garbage';
    expect((await rejection(provider().lookup(['https://example.org/']))).message).toMatch(/malformed/);
    standIn.mode = 'huge';
    expect((await rejection(provider().lookup(['https://example.org/']))).message).toMatch(/larger than/);
    const closed = safeBrowsingProvider({ apiKey: 'secret-k', url: 'http://127.0.0.1:9/v4/threatMatches:find' });
    const error = await rejection(closed.lookup(['https://example.org/']));
    expect(error.message).toMatch(/could not be reached/);
    expect(error.message).not.toContain('secret-k');
  });

  it('rejects a hanging API within its timeout', async () => {
    standIn.mode = 'hang';
    const started = Date.now();
    const error = await rejection(provider({ timeoutMs: 300 }).lookup(['https://example.org/']));
    expect(error.message).toMatch(/no answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('Safe Browsing in the check', () => {
  const destination = (url: string) => checkAddress(url);
  const errorOf = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => e as ApiError);

  it('answers 400 unsafe_destination for a match and passes the rest', async () => {
    const lines: string[] = [];
    const check = unsafeSitesCheck([provider()], { log: (line) => lines.push(line) });
    standIn.unsafe.add('https://phish.example.com/');
    const error = await errorOf(check.check(destination('https://PHISH.example.com/#x'), 'links[2].destination'));
    expect(error).toMatchObject({ status: 400, code: 'unsafe_destination', field: 'links[2].destination' });
    await expect(check.check(destination('https://example.org/'), 'destination')).resolves.toBeUndefined();
    expect(lines).toEqual([]);
  });

  it.each([['fail'], ['hang'], ['garbage']] as const)('answers 503 check_unavailable with Retry-After when the API is in mode %s', async (mode) => {
    const lines: string[] = [];
    const check = unsafeSitesCheck([provider({ timeoutMs: 300 })], { log: (line) => lines.push(line) });
    standIn.mode = mode;
    const started = Date.now();
    for (let i = 0; i < 2; i++) {
      const error = await errorOf(check.check(destination('https://example.org/'), 'destination'));
      expect(error).toMatchObject({ status: 503, code: 'check_unavailable', field: 'destination', retryAfter: 60 });
    }
    expect(Date.now() - started).toBeLessThan(3000);
    // Errors are not cached: both calls asked. The outage is logged once, and never with the key.
    expect(standIn.requests).toHaveLength(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/"safe-browsing" cannot be asked/);
    expect(lines.join('\n')).not.toContain(standIn.key);
    standIn.mode = 'ok';
    await check.check(destination('https://example.org/'), 'destination');
    expect(lines[1]).toMatch(/"safe-browsing" answers again/);
  });

  it('asks the API once for repeated checks of one address (cached)', async () => {
    const check = unsafeSitesCheck([provider()]);
    standIn.unsafe.add('https://bad.example.net/');
    for (let i = 0; i < 3; i++) {
      await check.check(destination('https://example.org/same'), 'destination');
      await expect(check.check(destination('https://bad.example.net/'), 'destination')).rejects.toMatchObject({ code: 'unsafe_destination' });
    }
    expect(standIn.requests.map((r) => r.urls)).toEqual([['https://example.org/same'], ['https://bad.example.net/']]);
  });

  it('is what SAFE_BROWSING_API_KEY and SAFE_BROWSING_URL configure', async () => {
    const check = unsafeSitesFromConfig(loadConfig({ SAFE_BROWSING_API_KEY: standIn.key, SAFE_BROWSING_URL: standIn.url }))!;
    standIn.unsafe.add('https://configured.example.com/');
    await expect(check.check(destination('https://configured.example.com/'), 'destination')).rejects.toMatchObject({ code: 'unsafe_destination' });
    expect(standIn.refused).toEqual([]);
  });
});
