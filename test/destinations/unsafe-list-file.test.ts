/** The local unsafe-site list file: its format, matching, reloading and a missing file. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAddress } from '../../src/domain/destination.js';
import { listFileProvider, normalizeListedUrl, parseUnsafeList } from '../../src/destinations/unsafe/list-file.js';
import { lookupKeyOf, unsafeSitesCheck } from '../../src/destinations/unsafe/provider.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'unsafe-list-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function listFile(text: string): string {
  const path = join(dir, `list-${++files}.txt`);
  writeFileSync(path, text);
  return path;
}

/** The provider's answer for addresses as the check would send them (lookup keys). */
async function listed(provider: ReturnType<typeof listFileProvider>, urls: string[]): Promise<string[]> {
  const keys = urls.map((url) => lookupKeyOf(checkAddress(url)));
  const unsafe = await provider.lookup(keys);
  return urls.filter((_, i) => unsafe.has(keys[i]!));
}

const LIST = `# Unsafe sites, kept by the operator
evil.example.com
  Phishy.Example.NET.   # a domain with case, spaces and a trailing dot
bücher-scam.de
https://Pages.Example.org/bad/page?x=1#fragment
https://pages.example.org/also-bad
not a domain
ftp//broken
`;

describe('list file format', () => {
  it('parses domains and URLs, skips comments and blank lines, and reports other lines', () => {
    const list = parseUnsafeList(LIST);
    expect(list.domains).toEqual(new Set(['evil.example.com', 'phishy.example.net', 'xn--bcher-scam-9db.de']));
    expect(list.urls).toEqual(new Set(['https://pages.example.org/bad/page?x=1', 'https://pages.example.org/also-bad']));
    expect(list.ignored).toEqual([7, 8]);
  });

  it('normalizes URLs: lowercase scheme and host, punycode, no trailing dot, default port or fragment', () => {
    expect(normalizeListedUrl('HTTPS://Bücher.DE.:443/A?b#c')).toBe('https://xn--bcher-kva.de/A?b');
    expect(normalizeListedUrl('https://127.0.0.1/')).toBeNull();
    expect(normalizeListedUrl('nonsense')).toBeNull();
  });
});

describe('list file provider', () => {
  it('matches a listed domain and its subdomains, and a listed URL exactly', async () => {
    const provider = listFileProvider({ path: listFile(LIST), log: () => {} });
    const urls = [
      'https://evil.example.com/',
      'https://www.EVIL.example.com/any/path?q',
      'https://notevil.example.com/',
      'https://example.com/',
      'https://phishy.example.net/x',
      'https://bücher-scam.de/',
      'https://pages.example.org/bad/page?x=1#other',
      'https://pages.example.org/bad/page',
      'https://pages.example.org/bad/page?x=2',
      'https://pages.example.org/also-bad',
      'https://pages.example.org/',
    ];
    expect(await listed(provider, urls)).toEqual([
      'https://evil.example.com/',
      'https://www.EVIL.example.com/any/path?q',
      'https://phishy.example.net/x',
      'https://bücher-scam.de/',
      'https://pages.example.org/bad/page?x=1#other',
      'https://pages.example.org/also-bad',
    ]);
  });

  it('tells what it loaded and which lines it ignored', async () => {
    const lines: string[] = [];
    const path = listFile(LIST);
    await listFileProvider({ path, log: (line) => lines.push(line) }).lookup(['https://example.com/']);
    expect(lines).toEqual([
      `Unsafe-site list file ${path}: 3 domains and 2 URLs loaded.`,
      `Unsafe-site list file ${path}: ignored lines that are neither a domain nor a URL: 7, 8.`,
    ]);
  });

  it('reloads the file when it changes, in place or renamed over', async () => {
    const path = listFile('first.example.com\n');
    const provider = listFileProvider({ path, checkEveryMs: 0, log: () => {} });
    const urls = ['https://first.example.com/', 'https://second.example.com/'];
    expect(await listed(provider, urls)).toEqual(['https://first.example.com/']);
    writeFileSync(path, 'second.example.com\n# now the second\n');
    expect(await listed(provider, urls)).toEqual(['https://second.example.com/']);
    const replacement = join(dir, 'replacement.txt');
    writeFileSync(replacement, 'first.example.com\nsecond.example.com\n');
    renameSync(replacement, path);
    expect(await listed(provider, urls)).toEqual(urls);
  });

  it('looks at the file at most once per checkEveryMs', async () => {
    const path = listFile('first.example.com\n');
    const provider = listFileProvider({ path, checkEveryMs: 60_000, log: () => {} });
    expect(await listed(provider, ['https://first.example.com/'])).toHaveLength(1);
    writeFileSync(path, 'other.example.com\n');
    expect(await listed(provider, ['https://first.example.com/'])).toHaveLength(1);
  });

  it('rejects while the file is missing, saying so once in the log, and recovers when it is back', async () => {
    const path = join(dir, 'missing.txt');
    const lines: string[] = [];
    const provider = listFileProvider({ path, checkEveryMs: 0, log: (line) => lines.push(line) });
    await expect(provider.lookup(['https://example.com/'])).rejects.toThrow(`the list file ${path} cannot be read (ENOENT)`);

    const check = unsafeSitesCheck([provider], { log: (line) => lines.push(line) });
    const destination = checkAddress('https://evil.example.com/');
    for (let i = 0; i < 3; i++) {
      await expect(check.check(destination, 'destination')).rejects.toMatchObject({ status: 503, code: 'check_unavailable', retryAfter: 60 });
    }
    expect(lines).toEqual([expect.stringContaining(`"list-file" cannot be asked (the list file ${path} cannot be read (ENOENT))`)]);

    writeFileSync(path, 'evil.example.com\n');
    await expect(check.check(destination, 'destination')).rejects.toMatchObject({ status: 400, code: 'unsafe_destination' });
    expect(lines.slice(1)).toEqual([`Unsafe-site list file ${path}: 1 domains and 0 URLs loaded.`, 'Unsafe-site list "list-file" answers again.']);
  });
});
