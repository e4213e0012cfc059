/**
 * The operator's own list of unsafe sites: a text file, one entry a line, reloaded when it changes.
 *
 *     # Comments start with "#", at the start of a line or after a space.
 *     evil.example            a domain: matches it and every subdomain (www.evil.example), not notevil.example
 *     https://host.example/a  a URL: matches that address only, compared after normalization: lowercase scheme
 *                             and host, punycode, no trailing dot, default port and fragment dropped; path and
 *                             query exact ("https://host.example/a?x" is another address)
 *
 * Lines that are neither are ignored and reported when the file is loaded. Replace the file atomically (write a
 * copy, then rename it over the old one) so that a half-written list is never read.
 */
import { readFile, stat } from 'node:fs/promises';
import { matchesDomain, normalizeDomain } from '../../domain/destination.js';
import type { UnsafeSiteProvider } from './provider.js';
import { warnLine } from '../../observability/logger.js';

/** A parsed list: normalized domains and normalized URLs, and the 1-based numbers of the lines ignored. */
export interface UnsafeList {
  domains: Set<string>;
  urls: Set<string>;
  ignored: number[];
}

export interface ListFileOptions {
  path: string;
  /** How often at most a look-up checks whether the file changed (one stat). Default 1 s; 0 checks every time. */
  checkEveryMs?: number;
  /** Where loads and ignored lines are told. Default the process's log. */
  log?: (line: string) => void;
}

/**
 * An address in the one form list entries and look-ups are compared in (see the file comment), or null when it is
 * not an absolute URL with a domain name.
 */
export function normalizeListedUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const host = normalizeDomain(url.hostname);
  if (host === null) return null;
  url.hostname = host;
  url.hash = '';
  return url.href;
}

/** Parses the file's text; never throws. */
export function parseUnsafeList(text: string): UnsafeList {
  const list: UnsafeList = { domains: new Set(), urls: new Set(), ignored: [] };
  text.split(/\r?\n/).forEach((line, index) => {
    // A "#" after a space starts a comment; inside an entry it cannot (a URL's fragment follows no space).
    const entry = line.replace(/(^|\s)#.*$/, '').trim();
    if (entry === '') return;
    if (entry.includes('://')) {
      const url = normalizeListedUrl(entry);
      if (url === null) list.ignored.push(index + 1);
      else list.urls.add(url);
      return;
    }
    const domain = normalizeDomain(entry);
    if (domain === null) list.ignored.push(index + 1);
    else list.domains.add(domain);
  });
  return list;
}

/** True when `url` (any spelling) is listed as a URL or lies on a listed domain or one of its subdomains. */
export function isListed(url: string, list: UnsafeList): boolean {
  const key = normalizeListedUrl(url);
  if (key === null) return false;
  return list.urls.has(key) || matchesDomain(new URL(key).hostname, list.domains);
}

/**
 * A provider reading `path`. A missing or unreadable file rejects every look-up (so links are refused with 503
 * until it is back) rather than letting addresses through unchecked.
 */
export function listFileProvider(options: ListFileOptions): UnsafeSiteProvider {
  const { path, checkEveryMs = 1000, log = warnLine } = options;
  let loaded: { list: UnsafeList; signature: string } | undefined;
  let checkedAt = -Infinity;
  // Look-ups that arrive while the file is read share that read.
  let reading: Promise<UnsafeList> | undefined;

  async function current(): Promise<UnsafeList> {
    if (loaded && Date.now() - checkedAt < checkEveryMs) return loaded.list;
    reading ??= refresh().finally(() => (reading = undefined));
    return reading;
  }

  async function refresh(): Promise<UnsafeList> {
    try {
      const stats = await stat(path);
      // Size and inode too: an edit within the file system's mtime granularity, or a rename over the file.
      const signature = `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
      if (loaded?.signature !== signature) {
        const list = parseUnsafeList(await readFile(path, 'utf8'));
        loaded = { list, signature };
        log(`Unsafe-site list file ${path}: ${list.domains.size} domains and ${list.urls.size} URLs loaded.`);
        if (list.ignored.length > 0) {
          log(`Unsafe-site list file ${path}: ignored lines that are neither a domain nor a URL: ${list.ignored.slice(0, 20).join(', ')}${list.ignored.length > 20 ? ', ...' : ''}.`);
        }
      }
      checkedAt = Date.now();
      return loaded.list;
    } catch (error) {
      loaded = undefined;
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(`the list file ${path} cannot be read${code ? ` (${code})` : ''}`);
    }
  }

  return {
    name: 'list-file',
    async lookup(urls) {
      const list = await current();
      return new Set(urls.filter((url) => isListed(url, list)));
    },
  };
}
