import { describe, expect, it } from 'vitest';
import { LinkCache, type RedirectTarget } from '../../src/redirect/link-cache.js';
import { linkResolver } from '../../src/redirect/resolve.js';
import type { Store } from '../../src/store/ports.js';

const target = (code: string): RedirectTarget => ({
  id: `link_${code}`,
  code,
  state: 'active',
  destination: 'https://example.com/',
  location: 'https://example.com/',
  expiresAt: null,
  maxClicks: null,
  passwordHash: null,
  forwardQuery: false,
});

describe('the redirect cache', () => {
  it('keeps at most its size, and an entry read since the last sweep outlives one that was not', () => {
    const cache = new LinkCache(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, target(key));
    cache.set('d', target('d'));
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBeUndefined();
    cache.get('b');
    cache.set('e', target('e'));
    expect(cache.size).toBe(3);
    expect(cache.get('b')?.code).toBe('b');
    expect(cache.get('c')).toBeUndefined();
  });

  it('gives every entry a second chance, so the cache never stalls when all were read', () => {
    const cache = new LinkCache(2);
    cache.set('a', target('a'));
    cache.set('b', target('b'));
    cache.get('a');
    cache.get('b');
    cache.set('c', target('c'));
    expect(cache.size).toBe(2);
    expect(cache.get('c')?.code).toBe('c');
  });

  it('caches unknown keys as null, and forgets keys on request', () => {
    const cache = new LinkCache(10);
    cache.set('nope', null);
    expect(cache.get('nope')).toBeNull();
    cache.forget(['nope']);
    expect(cache.get('nope')).toBeUndefined();
  });

  it('reads a hot key in constant time however full the cache is', () => {
    const cache = new LinkCache(100_000);
    for (let i = 0; i < 100_000; i++) cache.set(`k${i}`, target(`k${i}`));
    const started = performance.now();
    for (let i = 0; i < 200_000; i++) cache.get('k5');
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('the redirect resolver', () => {
  it('does not keep a read that a change overtook while it awaited', async () => {
    const listeners: Array<(keys: string[] | null) => void> = [];
    let destination = 'https://old.example.com/';
    let reads = 0;
    let finishRead = () => {};
    const store = {
      changes: { subscribe: (listener: (keys: string[] | null) => void) => listeners.push(listener), catchUp: async () => {} },
      links: {
        async findByCode(code: string) {
          reads += 1;
          const record = { id: `link_${code}`, code, name: null, state: 'active', destination };
          if (reads === 1) await new Promise<void>((resolve) => (finishRead = resolve));
          return record;
        },
      },
    } as unknown as Store;
    const resolve = linkResolver(store);
    const first = resolve('AbCdEf1');
    await new Promise((resolve) => setImmediate(resolve));
    // Another request changes the link and has it forgotten while the first read is still on its way.
    destination = 'https://new.example.com/';
    for (const listener of listeners) listener(['AbCdEf1']);
    finishRead();
    expect((await first)?.destination).toBe('https://old.example.com/');
    expect((await resolve('AbCdEf1'))?.destination).toBe('https://new.example.com/');
    expect(reads).toBe(2);
  });
});
