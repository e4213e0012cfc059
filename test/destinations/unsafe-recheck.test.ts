/** The daily re-check's schedule and its care around links that change while it runs (fake store and check). */
import { describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../src/store/ports.js';
import { startUnsafeRecheck, type RecheckLinks } from '../../src/destinations/unsafe/recheck.js';
import type { ActiveLink } from '../../src/store/ports.js';
import { TestClock } from '../helpers/server.js';

/** Links in memory, as the store would keep them. */
function fakeLinks(destinations: string[]) {
  const rows = destinations.map((destination, i) => ({ seq: i + 1, code: `code${i + 1}`, destination, state: 'active' as LinkRecord['state'] }));
  const pages: Array<[number, number]> = [];
  const links: RecheckLinks & { rows: typeof rows; pages: typeof pages } = {
    rows,
    pages,
    async activeDestinations(after, limit) {
      pages.push([after, limit]);
      return rows.filter((r) => r.state === 'active' && r.seq > after).slice(0, limit).map(({ seq, code, destination }): ActiveLink => ({ seq, code, destination }));
    },
    async findByCode(code) {
      const row = rows.find((r) => r.code === code);
      return row ? ({ ...row } as unknown as LinkRecord) : null;
    },
    async setState(code, state) {
      rows.find((r) => r.code === code)!.state = state;
      return null;
    },
  };
  return links;
}

function fakeCheck(unsafe: string[]) {
  const calls: string[][] = [];
  return {
    calls,
    async lookupFresh(urls: string[]) {
      calls.push(urls);
      return { unsafe: new Set(urls.filter((url) => unsafe.includes(url))), complete: true };
    },
  };
}

const quiet = { log: () => {} };
/** Leases that this process always gets; how a lease is shared between processes is tested in leases.test.ts. */
const leases = { acquire: async () => true };

describe('startUnsafeRecheck', () => {
  it('pages through active links in batches and flags the listed ones', async () => {
    const links = fakeLinks(['https://a.example.com/', 'https://bad.example.com/', 'https://c.example.com/', 'https://bad.example.com/#2', 'not a url']);
    const check = fakeCheck(['https://bad.example.com/']);
    const recheck = startUnsafeRecheck({ store: { links, leases }, check, clock: new TestClock(), batchSize: 2, ...quiet });
    expect(await recheck.runNow()).toEqual({ checked: 4, flagged: 2, skipped: 1 });
    expect(links.rows.map((r) => r.state)).toEqual(['active', 'flagged', 'active', 'flagged', 'active']);
    expect(links.pages).toEqual([[0, 2], [2, 2], [4, 2]]);
    await recheck.stop();
  });

  it('judges links made in the private destinations mode (http, intranet names, IP addresses) too', async () => {
    const links = fakeLinks(['http://wiki/', 'http://bad.corp.internal/x', 'https://10.0.0.7/', 'http://[::1]:8080/']);
    const check = fakeCheck(['http://bad.corp.internal/x', 'https://10.0.0.7/']);
    const recheck = startUnsafeRecheck({ store: { links, leases }, check, clock: new TestClock(), ...quiet });
    expect(await recheck.runNow()).toEqual({ checked: 4, flagged: 2, skipped: 0 });
    expect(check.calls).toEqual([['http://wiki/', 'http://bad.corp.internal/x', 'https://10.0.0.7/', 'http://[::1]:8080/']]);
    expect(links.rows.map((r) => r.state)).toEqual(['active', 'flagged', 'flagged', 'active']);
    await recheck.stop();
  });

  it('does not flag a link whose destination changed, or that was disabled, since its page was read', async () => {
    const links = fakeLinks(['https://bad.example.com/', 'https://bad.example.com/']);
    const check = {
      async lookupFresh(urls: string[]) {
        // Meanwhile, the owner points link 1 elsewhere and the operator disables link 2.
        links.rows[0]!.destination = 'https://good.example.com/';
        links.rows[1]!.state = 'disabled';
        return { unsafe: new Set(urls), complete: true };
      },
    };
    const recheck = startUnsafeRecheck({ store: { links, leases }, check, clock: new TestClock(), ...quiet });
    expect(await recheck.runNow()).toMatchObject({ flagged: 0 });
    expect(links.rows.map((r) => r.state)).toEqual(['active', 'disabled']);
    await recheck.stop();
  });

  it('skips a batch whose look-up throws', async () => {
    const links = fakeLinks(['https://bad.example.com/']);
    const check = { lookupFresh: async () => Promise.reject(new Error('down')) };
    const recheck = startUnsafeRecheck({ store: { links, leases }, check, clock: new TestClock(), ...quiet });
    expect(await recheck.runNow()).toEqual({ checked: 0, flagged: 0, skipped: 1 });
    await recheck.stop();
  });

  it('joins a run under way instead of starting another', async () => {
    const links = fakeLinks(['https://a.example.com/']);
    const check = fakeCheck([]);
    const recheck = startUnsafeRecheck({ store: { links, leases }, check, clock: new TestClock(), ...quiet });
    const [one, two] = [recheck.runNow(), recheck.runNow()];
    expect(one).toBe(two);
    await one;
    expect(check.calls).toHaveLength(1);
    await recheck.stop();
  });

  it('runs first one interval after start, not at boot, then every interval until stopped', async () => {
    const links = fakeLinks(['https://a.example.com/']);
    const check = fakeCheck([]);
    const lines: string[] = [];
    const recheck = startUnsafeRecheck({ store: { links, leases }, check, clock: new TestClock(), intervalMs: 150, log: (line) => lines.push(line) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(check.calls).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(check.calls.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toBe('Unsafe-site re-check: 1 link checked, 0 flagged, 0 left for the next run.');
    await recheck.stop();
    const runs = check.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(check.calls).toHaveLength(runs);
  });

  it('stop() waits for the run under way, which ends after its current batch', async () => {
    const links = fakeLinks(['https://a.example.com/', 'https://b.example.com/', 'https://c.example.com/']);
    let release!: () => void;
    const check = {
      calls: 0,
      async lookupFresh(urls: string[]) {
        check.calls++;
        await new Promise<void>((resolve) => (release = resolve));
        return { unsafe: new Set<string>(), complete: true };
      },
    };
    const recheck = startUnsafeRecheck({ store: { links, leases }, check, clock: new TestClock(), batchSize: 1, ...quiet });
    const run = recheck.runNow();
    await new Promise((resolve) => setTimeout(resolve, 10));
    let stopped = false;
    const stopping = recheck.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await run).toEqual({ checked: 1, flagged: 0, skipped: 0 });
    expect(check.calls).toBe(1);
  });
});
