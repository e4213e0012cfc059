import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ClickFacts } from '../../src/redirect/analytics-tally.js';
import { ClickCounter } from '../../src/redirect/click-counter.js';
import type { AnalyticsBatch, AnalyticsStore, ClickStore } from '../../src/store/ports.js';

const PHONE = { device: 'phone', browser: 'Safari', os: 'iOS' } as const;
const DESKTOP = { device: 'desktop', browser: 'Firefox', os: 'Linux' } as const;

/** A click's facts; `visitor` is its address and User-Agent joined by a newline. */
function facts(visitor: string, overrides: Partial<ClickFacts> = {}): ClickFacts {
  const [address, userAgent] = visitor.split('\n') as [string, string];
  return { country: 'FR', referrer: 'direct', agent: PHONE, source: 'link', address, userAgent, ...overrides };
}

/** Stores that keep what they were given; the analytics store refuses its first `failures` writes. */
function stores(failures = 0) {
  const clicks: Array<Record<string, Record<string, number>>> = [];
  const batches: AnalyticsBatch[] = [];
  const keysAsked: string[] = [];
  let refused = 0;
  const clickStore = {
    add: async (batch: Map<string, Map<string, number>>) => {
      clicks.push(Object.fromEntries([...batch].map(([link, days]) => [link, Object.fromEntries(days)])));
    },
  } as unknown as ClickStore;
  const analytics = {
    add: async (batch: AnalyticsBatch) => {
      if (refused++ < failures) throw new Error('disk full');
      batches.push(batch);
    },
    visitorKey: async (day: string) => {
      keysAsked.push(day);
      return Buffer.from(`key of ${day}`);
    },
  } as unknown as AnalyticsStore;
  return { clickStore, analytics, clicks, batches, keysAsked };
}

const mark = (day: string, visitor: string, linkId: string) =>
  Buffer.from(createHmac('sha256', `key of ${day}`).update(`${visitor}\n${linkId}`).digest().subarray(0, 16));

/** A batch as plain, ordered rows, marks as hex. */
function plain(batch: AnalyticsBatch) {
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    facets: batch.facets.map((f) => `${f.linkId} ${f.day} ${f.facet}=${f.value} ${f.count}`).sort(order),
    uncounted: batch.uncounted.map((u) => `${u.linkId} ${u.day} ${u.class} ${u.count}`).sort(order),
    visitors: batch.visitors.map((v) => `${v.linkId} ${v.day} ${Buffer.from(v.mark).toString('hex')}`).sort(order),
  };
}

describe('ClickCounter with analytics', () => {
  it('writes the daily clicks, then each facet, class and visitor mark of the batch, visitors deduplicated', async () => {
    const { clickStore, analytics, clicks, batches, keysAsked } = stores();
    const counter = new ClickCounter(clickStore, { value: 0 }, analytics);
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at, facts('192.0.2.1\nSafari'));
    counter.count('link-a', at, facts('192.0.2.1\nSafari', { source: 'qr', referrer: 'news.example' }));
    counter.count('link-a', at, facts('198.51.100.7\nFirefox', { country: 'unknown', agent: DESKTOP }));
    counter.notCounted('link-a', at, 'preview');
    counter.notCounted('link-a', at, 'preview');
    counter.notCounted('link-b', at, 'bot');
    expect(await counter.flush()).toBeUndefined();
    expect(clicks).toEqual([{ 'link-a': { '2026-11-27': 3 } }]);
    expect(batches).toHaveLength(1);
    const day = '2026-11-27';
    expect(plain(batches[0]!)).toEqual({
      facets: [
        `link-a ${day} browser=Firefox 1`,
        `link-a ${day} browser=Safari 2`,
        `link-a ${day} country=FR 2`,
        `link-a ${day} country=unknown 1`,
        `link-a ${day} device=desktop 1`,
        `link-a ${day} device=phone 2`,
        `link-a ${day} os=Linux 1`,
        `link-a ${day} os=iOS 2`,
        `link-a ${day} referrer=direct 2`,
        `link-a ${day} referrer=news.example 1`,
        `link-a ${day} source=link 2`,
        `link-a ${day} source=qr 1`,
      ],
      uncounted: [`link-a ${day} preview 2`, `link-b ${day} bot 1`],
      visitors: [
        `link-a ${day} ${mark(day, '192.0.2.1\nSafari', 'link-a').toString('hex')}`,
        `link-a ${day} ${mark(day, '198.51.100.7\nFirefox', 'link-a').toString('hex')}`,
      ].sort(),
    });
    expect(batches[0]!.visitors.every((v) => v.mark.length === 16)).toBe(true);
    expect(keysAsked).toEqual([day]);
    await counter.close();
  });

  it("marks a day's visitors with that day's key: the same visitor counts again the next UTC day", async () => {
    const { clickStore, analytics, batches, keysAsked } = stores();
    const counter = new ClickCounter(clickStore, { value: 0 }, analytics);
    counter.count('link-a', new Date('2026-11-27T23:59:59.500Z'), facts('192.0.2.1\nSafari'));
    counter.count('link-a', new Date('2026-11-28T00:00:00.500Z'), facts('192.0.2.1\nSafari'));
    await counter.flush();
    counter.count('link-a', new Date('2026-11-28T10:00:00Z'), facts('192.0.2.1\nSafari'));
    await counter.flush();
    expect(batches.map((batch) => plain(batch).visitors)).toEqual([
      [`link-a 2026-11-27 ${mark('2026-11-27', '192.0.2.1\nSafari', 'link-a').toString('hex')}`, `link-a 2026-11-28 ${mark('2026-11-28', '192.0.2.1\nSafari', 'link-a').toString('hex')}`],
      [`link-a 2026-11-28 ${mark('2026-11-28', '192.0.2.1\nSafari', 'link-a').toString('hex')}`],
    ]);
    // Each day's key is asked of the store once.
    expect(keysAsked).toEqual(['2026-11-27', '2026-11-28']);
    await counter.close();
  });

  it('keeps the analytics of a failed write (not the clicks, written already) and adds them to the next one', async () => {
    const { clickStore, analytics, clicks, batches } = stores(1);
    const counter = new ClickCounter(clickStore, { value: 0 }, analytics);
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at, facts('192.0.2.1\nSafari'));
    counter.notCounted('link-a', at, 'checker');
    expect(await counter.flush()).toBeInstanceOf(Error);
    counter.count('link-a', at, facts('192.0.2.1\nSafari', { country: 'DE' }));
    counter.notCounted('link-a', at, 'checker');
    expect(await counter.flush()).toBeUndefined();
    expect(clicks).toEqual([{ 'link-a': { '2026-11-27': 1 } }, { 'link-a': { '2026-11-27': 1 } }]);
    const written = plain(batches[0]!);
    expect(written.facets.filter((row) => row.includes('country') || row.includes('device'))).toEqual([
      'link-a 2026-11-27 country=DE 1',
      'link-a 2026-11-27 country=FR 1',
      'link-a 2026-11-27 device=phone 2',
    ]);
    expect(written.uncounted).toEqual(['link-a 2026-11-27 checker 2']);
    expect(written.visitors).toHaveLength(1);
    await counter.close();
  });

  it('writes no analytics while the daily clicks cannot be written, and all of them once they can', async () => {
    const { clickStore, analytics, clicks, batches } = stores();
    let clicksFail = true;
    const failing = {
      add: async (batch: Map<string, Map<string, number>>) => {
        if (clicksFail) throw new Error('database is locked');
        await clickStore.add(batch);
      },
    } as unknown as ClickStore;
    const counter = new ClickCounter(failing, { value: 0 }, analytics);
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at, facts('192.0.2.1\nSafari'));
    expect(await counter.flush()).toBeInstanceOf(Error);
    counter.count('link-a', at, facts('192.0.2.1\nSafari', { referrer: 'news.example' }));
    expect(await counter.flush()).toBeInstanceOf(Error);
    expect(batches).toEqual([]);
    clicksFail = false;
    expect(await counter.flush()).toBeUndefined();
    expect(clicks).toEqual([{ 'link-a': { '2026-11-27': 2 } }]);
    expect(plain(batches[0]!).facets.filter((row) => row.includes('referrer') || row.includes('country'))).toEqual([
      'link-a 2026-11-27 country=FR 2',
      'link-a 2026-11-27 referrer=direct 1',
      'link-a 2026-11-27 referrer=news.example 1',
    ]);
    expect(batches[0]!.visitors).toHaveLength(1);
    await counter.close();
  });

  it('writes analytics only once ANALYTICS_WRITE_MS has passed, the daily clicks at every flush, and both at close', async () => {
    const { clickStore, analytics, clicks, batches } = stores();
    const counter = new ClickCounter(clickStore, { value: 0 }, analytics, 60_000);
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at, facts('192.0.2.1\nSafari'));
    expect(await counter.flush()).toBeUndefined();
    expect(clicks).toEqual([{ 'link-a': { '2026-11-27': 1 } }]);
    expect(batches).toEqual([]);
    counter.count('link-a', at, facts('198.51.100.7\nFirefox', { agent: DESKTOP }));
    await counter.close();
    expect(clicks).toEqual([{ 'link-a': { '2026-11-27': 1 } }, { 'link-a': { '2026-11-27': 1 } }]);
    expect(batches).toHaveLength(1);
    expect(plain(batches[0]!).facets).toContain('link-a 2026-11-27 source=link 2');
    expect(batches[0]!.visitors).toHaveLength(2);
  });

  it('records nothing but the daily clicks without an analytics store (ANALYTICS=off)', async () => {
    const { clickStore, clicks } = stores();
    const counter = new ClickCounter(clickStore);
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at, facts('192.0.2.1\nSafari'));
    counter.notCounted('link-a', at, 'bot');
    expect(await counter.flush()).toBeUndefined();
    expect(clicks).toEqual([{ 'link-a': { '2026-11-27': 1 } }]);
    await counter.close();
  });
});
