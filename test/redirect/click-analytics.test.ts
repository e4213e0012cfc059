import { describe, expect, it } from 'vitest';
import { sketchEntry, VisitorSketch } from '../../src/domain/visitor-sketch.js';
import { visitorHash, type ClickFacts } from '../../src/redirect/analytics-tally.js';
import { ClickCounter, LINK_DAYS_A_WRITE } from '../../src/redirect/click-counter.js';
import { withUnwritten, type AnalyticsBatch, type AnalyticsStore, type ClickStore } from '../../src/store/ports.js';

const PHONE = { device: 'phone', browser: 'Safari', os: 'iOS' } as const;
const DESKTOP = { device: 'desktop', browser: 'Firefox', os: 'Linux' } as const;

/** A click's facts; `visitor` is its address and User-Agent joined by a newline. */
function facts(visitor: string, overrides: Partial<ClickFacts> = {}): ClickFacts {
  const [address, userAgent] = visitor.split('\n') as [string, string];
  return { country: 'FR', referrer: 'direct', agent: PHONE, source: 'link', address, userAgent, ...overrides };
}

/** Stores that keep what they were given; the analytics store refuses its first `failures` writes. */
function stores(failures = 0, keyFailures = 0) {
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
      if (keysAsked.length <= keyFailures) throw new Error('database is locked');
      return Buffer.from(`key of ${day}`);
    },
  } as unknown as AnalyticsStore;
  return { clickStore, analytics, clicks, batches, keysAsked };
}

/** The sketch of a day's visitors (each an address and User-Agent joined by a newline), hashed under that day's key. */
function sketch(day: string, ...visitors: string[]): string {
  const key = Buffer.from(`key of ${day}`).toString('hex');
  const made = new VisitorSketch();
  for (const visitor of visitors) made.addEntry(sketchEntry(visitorHash(key, ...(visitor.split('\n') as [string, string]))));
  return Buffer.from(made.bytes()).toString('hex');
}

/** A batch as plain, ordered rows, sketches as hex. */
function plain(batch: AnalyticsBatch) {
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    facets: batch.facets.map((f) => `${f.linkId} ${f.day} ${f.facet}=${f.value} ${f.count}`).sort(order),
    uncounted: batch.uncounted.map((u) => `${u.linkId} ${u.day} ${u.class} ${u.count}`).sort(order),
    visitors: batch.visitors.map((v) => `${v.linkId} ${v.day} ${Buffer.from(v.sketch).toString('hex')}`).sort(order),
  };
}

describe('ClickCounter with analytics', () => {
  it("writes the daily clicks, then each facet and class of the batch, and each link day's visitors as one sketch", async () => {
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
      visitors: [`link-a ${day} ${sketch(day, '192.0.2.1\nSafari', '198.51.100.7\nFirefox')}`],
    });
    expect(VisitorSketch.from(batches[0]!.visitors[0]!.sketch).estimate()).toBe(2);
    expect(keysAsked).toEqual([day]);
    await counter.close();
  });

  it("counts a busy link's clicks per value however many come between writes, and each visitor once", async () => {
    const { clickStore, analytics, batches } = stores();
    const counter = new ClickCounter(clickStore, { value: 0 }, analytics);
    const at = new Date('2026-11-27T12:00:00Z');
    // 25 clicks: past the clicks a link day lists before counting them per value, and not a multiple of it.
    for (let i = 0; i < 25; i++) {
      const country = i % 5 === 0 ? 'DE' : 'FR';
      counter.count('link-a', at, facts(`192.0.2.${i % 10}\nSafari`, { country, source: i < 20 ? 'link' : 'qr' }));
    }
    counter.count('link-b', at, facts('192.0.2.1\nSafari'));
    expect(await counter.flush()).toBeUndefined();
    const written = plain(batches[0]!);
    expect(written.facets.filter((row) => row.startsWith('link-a') && /country|source|device/.test(row))).toEqual([
      'link-a 2026-11-27 country=DE 5',
      'link-a 2026-11-27 country=FR 20',
      'link-a 2026-11-27 device=phone 25',
      'link-a 2026-11-27 source=link 20',
      'link-a 2026-11-27 source=qr 5',
    ]);
    expect(written.facets.filter((row) => row.startsWith('link-b'))).toHaveLength(6);
    const tenVisitors = Array.from({ length: 10 }, (_, i) => `192.0.2.${i}\nSafari`);
    expect(written.visitors).toEqual([`link-a 2026-11-27 ${sketch('2026-11-27', ...tenVisitors)}`, `link-b 2026-11-27 ${sketch('2026-11-27', '192.0.2.1\nSafari')}`]);
    expect(VisitorSketch.from(batches[0]!.visitors.find((v) => v.linkId === 'link-a')!.sketch).estimate()).toBe(10);
    await counter.close();
  });

  it("hashes a day's visitors with that day's key: the same visitor counts again the next UTC day", async () => {
    const { clickStore, analytics, batches, keysAsked } = stores();
    const counter = new ClickCounter(clickStore, { value: 0 }, analytics);
    counter.count('link-a', new Date('2026-11-27T23:59:59.500Z'), facts('192.0.2.1\nSafari'));
    counter.count('link-a', new Date('2026-11-28T00:00:00.500Z'), facts('192.0.2.1\nSafari'));
    await counter.flush();
    counter.count('link-a', new Date('2026-11-28T10:00:00Z'), facts('192.0.2.1\nSafari'));
    await counter.flush();
    expect(batches.map((batch) => plain(batch).visitors)).toEqual([
      [`link-a 2026-11-27 ${sketch('2026-11-27', '192.0.2.1\nSafari')}`, `link-a 2026-11-28 ${sketch('2026-11-28', '192.0.2.1\nSafari')}`],
      [`link-a 2026-11-28 ${sketch('2026-11-28', '192.0.2.1\nSafari')}`],
    ]);
    // Under two keys, one visitor is two entries: each day counts it once.
    expect(sketch('2026-11-27', '192.0.2.1\nSafari')).not.toBe(sketch('2026-11-28', '192.0.2.1\nSafari'));
    // Each day's key is asked of the store once.
    expect(keysAsked).toEqual(['2026-11-27', '2026-11-28']);
    await counter.close();
  });

  it("asks for a day's key once while the store cannot answer it, again at the next write, and loses no visitor", async () => {
    const { clickStore, analytics, batches, keysAsked } = stores(0, 1);
    const counter = new ClickCounter(clickStore, { value: 0 }, analytics);
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at, facts('192.0.2.1\nSafari'));
    await new Promise((resolve) => setImmediate(resolve));
    counter.count('link-a', at, facts('198.51.100.7\nFirefox'));
    counter.count('link-a', at, facts('192.0.2.1\nSafari'));
    expect(keysAsked).toEqual(['2026-11-27']);
    expect(await counter.flush()).toBeUndefined();
    expect(keysAsked).toEqual(['2026-11-27', '2026-11-27']);
    expect(plain(batches[0]!).visitors).toEqual([`link-a 2026-11-27 ${sketch('2026-11-27', '192.0.2.1\nSafari', '198.51.100.7\nFirefox')}`]);
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
    expect(written.visitors).toEqual([`link-a 2026-11-27 ${sketch('2026-11-27', '192.0.2.1\nSafari')}`]);
    await counter.close();
  });

  it('keeps only what a write that failed part way left unwritten, and adds it to the next one', async () => {
    const { clickStore, analytics, batches } = stores();
    const add = analytics.add.bind(analytics);
    let failPartWay = true;
    analytics.add = async (batch) => {
      if (!failPartWay) return add(batch);
      failPartWay = false;
      // link-a was written; link-b was not.
      const left = (rows: readonly { linkId: string }[]) => rows.filter((row) => row.linkId === 'link-b');
      throw withUnwritten(new Error('disk full'), { facets: left(batch.facets), uncounted: left(batch.uncounted), visitors: left(batch.visitors) });
    };
    const counter = new ClickCounter(clickStore, { value: 0 }, analytics);
    const at = new Date('2026-11-27T12:00:00Z');
    counter.count('link-a', at, facts('192.0.2.1\nSafari'));
    counter.count('link-b', at, facts('192.0.2.2\nSafari'));
    expect(await counter.flush()).toBeInstanceOf(Error);
    counter.count('link-b', at, facts('192.0.2.3\nSafari'));
    expect(await counter.flush()).toBeUndefined();
    const written = plain(batches[0]!);
    expect(written.facets.filter((row) => row.includes('source'))).toEqual(['link-b 2026-11-27 source=link 2']);
    expect(written.visitors).toEqual([`link-b 2026-11-27 ${sketch('2026-11-27', '192.0.2.2\nSafari', '192.0.2.3\nSafari')}`]);
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
    expect(plain(batches[0]!).visitors).toEqual([`link-a 2026-11-27 ${sketch('2026-11-27', '192.0.2.1\nSafari')}`]);
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
    expect(plain(batches[0]!).visitors).toEqual([`link-a 2026-11-27 ${sketch('2026-11-27', '192.0.2.1\nSafari', '198.51.100.7\nFirefox')}`]);
  });

  it('writes more than LINK_DAYS_A_WRITE link days in parts, each link day once, what comes meanwhile with the next write', async () => {
    const { clickStore, analytics, batches } = stores();
    const counter = new ClickCounter(clickStore, { value: 0 }, analytics);
    const at = new Date('2026-11-27T12:00:00Z');
    const links = LINK_DAYS_A_WRITE * 2 + 10;
    for (let i = 0; i < links; i++) counter.count(`link-${i}`, at, facts('192.0.2.1\nSafari'));
    const flushed = counter.flush();
    // Counted while the parts are written: not part of them.
    counter.count('link-0', at, facts('198.51.100.7\nFirefox', { agent: DESKTOP }));
    expect(await flushed).toBeUndefined();
    const parts = batches.map((batch) => batch.visitors.map((visitor) => visitor.linkId));
    expect(parts.map((part) => part.length)).toEqual([LINK_DAYS_A_WRITE, LINK_DAYS_A_WRITE, 10]);
    expect(parts.flat()).toEqual(Array.from({ length: links }, (_, i) => `link-${i}`));
    expect(await counter.flush()).toBeUndefined();
    expect(plain(batches[3]!).facets).toContain('link-0 2026-11-27 device=desktop 1');
    expect(batches).toHaveLength(4);
    await counter.close();
  });

  it('keeps the part a write failed on and the parts it had not begun, and writes them all with the next', async () => {
    const { clickStore, analytics, batches } = stores(2);
    const counter = new ClickCounter(clickStore, { value: 0 }, analytics);
    const at = new Date('2026-11-27T12:00:00Z');
    const links = LINK_DAYS_A_WRITE + 5;
    for (let i = 0; i < links; i++) counter.count(`link-${i}`, at, facts('192.0.2.1\nSafari'));
    expect(await counter.flush()).toBeInstanceOf(Error);
    expect(await counter.flush()).toBeInstanceOf(Error);
    expect(batches).toHaveLength(0);
    expect(await counter.flush()).toBeUndefined();
    const written = batches.flatMap((batch) => batch.visitors.map((visitor) => visitor.linkId));
    expect(written.sort()).toEqual(Array.from({ length: links }, (_, i) => `link-${i}`).sort());
    expect(batches.flatMap((batch) => plain(batch).facets).filter((facet) => facet.includes('source=link'))).toHaveLength(links);
    await counter.close();
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
