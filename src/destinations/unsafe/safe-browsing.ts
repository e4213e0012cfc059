/**
 * Google Safe Browsing v4, Lookup API (`threatMatches:find`): each look-up sends the addresses to Google and gets
 * back the ones on its lists. https://developers.google.com/safe-browsing/v4/lookup-api
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../paths.js';
import type { UnsafeSiteProvider } from './provider.js';

/** The threats that make a destination unsafe for the people who follow a short link. */
export const THREAT_TYPES = ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION'];
/** The API takes at most 500 threat entries a request. */
export const MAX_ENTRIES_PER_REQUEST = 500;

export interface SafeBrowsingOptions {
  /** The API key; sent only in the request's query string, never logged or put in an error. */
  apiKey: string;
  /** The endpoint; a stand-in's address in tests. */
  url: string;
  /** Milliseconds for the whole exchange, answer included. Default 3 s. */
  timeoutMs?: number;
  /** The largest answer read; a bigger one is an error. Default 1 MiB (500 matches take about 150 kB). */
  maxAnswerBytes?: number;
  /** `client.clientVersion`; default this package's version. */
  clientVersion?: string;
}

/** A provider asking the Safe Browsing Lookup API; a non-2xx answer, a timeout or a malformed answer rejects. */
export function safeBrowsingProvider(options: SafeBrowsingOptions): UnsafeSiteProvider {
  const endpoint = new URL(options.url);
  endpoint.searchParams.set('key', options.apiKey);
  const settings = {
    endpoint,
    timeoutMs: options.timeoutMs ?? 3000,
    maxBytes: options.maxAnswerBytes ?? 1024 * 1024,
    clientVersion: options.clientVersion ?? packageVersion(),
  };
  return {
    name: 'safe-browsing',
    async lookup(urls) {
      const unsafe = new Set<string>();
      for (let i = 0; i < urls.length; i += MAX_ENTRIES_PER_REQUEST) {
        for (const url of await ask(urls.slice(i, i + MAX_ENTRIES_PER_REQUEST), settings)) unsafe.add(url);
      }
      return unsafe;
    },
  };
}

/** The request body the Lookup API expects. */
export function lookupRequestBody(urls: string[], clientVersion: string) {
  return {
    client: { clientId: 'shortlinks', clientVersion },
    threatInfo: {
      threatTypes: THREAT_TYPES,
      platformTypes: ['ANY_PLATFORM'],
      threatEntryTypes: ['URL'],
      threatEntries: urls.map((url) => ({ url })),
    },
  };
}

async function ask(
  urls: string[],
  settings: { endpoint: URL; timeoutMs: number; maxBytes: number; clientVersion: string },
): Promise<string[]> {
  // One signal for the whole exchange: it aborts the connection and the reading of the answer alike.
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    const res = await fetch(settings.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lookupRequestBody(urls, settings.clientVersion)),
      // A redirect would carry the key elsewhere; the real API never redirects.
      redirect: 'error',
      signal,
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new LookupError(`Safe Browsing answered HTTP ${res.status}`);
    }
    return matchesOf(await readCapped(res, settings.maxBytes), new Set(urls));
  } catch (error) {
    if (error instanceof LookupError) throw error;
    // Our own words only: fetch's messages and causes can carry the request's address, key included.
    if (signal.aborted) throw new LookupError(`Safe Browsing gave no answer within ${settings.timeoutMs} ms`);
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    throw new LookupError(`Safe Browsing could not be reached${typeof code === 'string' ? ` (${code})` : ''}`);
  }
}

class LookupError extends Error {}

/** The body as text, refusing more than `max` bytes whatever Content-Length claims. */
async function readCapped(res: Response, max: number): Promise<string> {
  const tooBig = () => new LookupError(`Safe Browsing's answer is larger than ${max} bytes`);
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body?.cancel();
    throw tooBig();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.byteLength;
    if (size > max) throw tooBig(); // leaving the loop cancels the stream
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The matched addresses of an answer: `{}` or `{ matches: [{ threat: { url } }, ...] }`; anything else throws. */
function matchesOf(text: string, asked: ReadonlySet<string>): string[] {
  const malformed = (why: string) => new LookupError(`Safe Browsing's answer is malformed: ${why}`);
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw malformed('not JSON');
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw malformed('not an object');
  const matches = (answer as { matches?: unknown }).matches;
  if (matches === undefined) return [];
  if (!Array.isArray(matches)) throw malformed('"matches" is not a list');
  return matches.map((match: unknown) => {
    const url = (match as { threat?: { url?: unknown } } | null)?.threat?.url;
    if (typeof url !== 'string') throw malformed('a match has no threat URL');
    // Matches echo the entries sent; one that names another address cannot be told apart, so the answer fails.
    if (!asked.has(url)) throw malformed('a match names an address that was not asked about');
    return url;
  });
}

let version: string | undefined;
function packageVersion(): string {
  version ??= String((JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version?: unknown }).version);
  return version;
}
