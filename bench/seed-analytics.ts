import { randomBytes } from 'node:crypto';
import type { ClickFacet, UncountedClass } from '../src/domain/analytics.js';
import { lastDays, utcDate } from '../src/domain/days.js';
import { sketchEntry, VisitorSketch } from '../src/domain/visitor-sketch.js';
import type { DayVisitors, FacetCount, Store, UncountedCount } from '../src/store/ports.js';
import { prng } from './seed.js';

/** Values with weights: the first ones common, the rest a tail. */
type Weighted = ReadonlyArray<readonly [string, number]>;

/** A Zipf-like tail of `count` values named by `name`, weights 1/rank from `top` down. */
const tail = (count: number, name: (i: number) => string, top = 1): Weighted =>
  Array.from({ length: count }, (_, i) => [name(i), top / (i + 1)] as const);

// Real codes, most visited first, so that the labels (Intl.DisplayNames) are drawn as for real data.
const COUNTRY_CODES = (
  'US DE FR GB IN BR JP CA NL ES IT PL AU SE MX CH BE AT DK NO FI IE PT CZ RO HU GR TR IL AE SA EG ZA NG KE ' +
  'AR CL CO PE KR TW SG HK ID MY TH VN PH NZ UA RU CN PK BD'
).split(' ');
const COUNTRIES: Weighted = tail(COUNTRY_CODES.length, (i) => COUNTRY_CODES[i]!, 30);
const REFERRERS: Weighted = [
  ['direct', 40],
  ['www.google.com', 20],
  ['t.co', 8],
  ['www.linkedin.com', 6],
  ['news.ycombinator.com', 4],
  ['this service', 3],
  ...tail(400, (i) => `site${i}.example.org`, 6),
];
const FACETS: Record<ClickFacet, Weighted> = {
  country: [...COUNTRIES, ['unknown', 1]],
  referrer: REFERRERS,
  device: [['desktop', 55], ['phone', 40], ['tablet', 4], ['other', 1]],
  browser: [['Chrome', 60], ['Safari', 25], ['Edge', 6], ['Firefox', 5], ['Samsung Internet', 3], ['unknown', 1]],
  os: [['Windows', 35], ['Android', 30], ['iOS', 20], ['macOS', 10], ['Linux', 4], ['unknown', 1]],
  source: [['link', 90], ['qr', 10]],
};
/** Requests not counted, per counted click. */
const UNCOUNTED: Record<UncountedClass, number> = { bot: 0.2, preview: 0.08, assistant: 0.02, checker: 0.05 };

/** Draws from weighted values by a cumulative table. */
function drawer(values: Weighted, random: () => number): () => string {
  const cumulative: number[] = [];
  let sum = 0;
  for (const [, weight] of values) cumulative.push((sum += weight));
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return values[lo]![0];
  };
}

/** A Poisson draw of mean `mean` (Knuth's for small means, a rounded normal for large). */
function poisson(mean: number, random: () => number): number {
  if (mean > 30) {
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal));
  }
  const limit = Math.exp(-mean);
  let n = 0;
  for (let p = random(); p > limit; p *= random()) n++;
  return n;
}

export interface SeededAnalytics {
  days: number;
  /** Link-days with clicks, counted clicks, and facet rows written. */
  linkDays: number;
  clicks: number;
  facetRows: number;
  ms: number;
}

/**
 * `days` days of click analytics (today last) for `linkIds`, through the store port as the redirect's flush writes
 * them: one `clicks.add` and one `analytics.add` per day. A long tail: the link of popularity rank r (a random order)
 * gets Poisson(`top` / r) clicks a day, so the top few hundred links are clicked most days and the last ones on a
 * few days of the 90 (top 300 over 10,000 links: about 2,900 clicks and 1,300 link-days a day). Each click draws
 * its facets from weighted lists (50 countries, 400+ referrers...), 80% of clicks are distinct visitors, and
 * not-counted requests come at fixed shares of the clicks.
 */
export async function seedAnalytics(store: Store, linkIds: readonly string[], days: number, top = 300): Promise<SeededAnalytics> {
  const started = performance.now();
  const random = prng(2323);
  const ranked = [...linkIds];
  for (let i = ranked.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ranked[i], ranked[j]] = [ranked[j]!, ranked[i]!];
  }
  const draw = Object.fromEntries(Object.entries(FACETS).map(([facet, values]) => [facet, drawer(values, random)])) as Record<ClickFacet, () => string>;
  const result: SeededAnalytics = { days, linkDays: 0, clicks: 0, facetRows: 0, ms: 0 };
  for (const day of lastDays(new Date(), days)) {
    const daily = new Map<string, Map<string, number>>();
    const facets: FacetCount[] = [];
    const uncounted: UncountedCount[] = [];
    const visitors: DayVisitors[] = [];
    ranked.forEach((linkId, rank) => {
      const clicks = poisson(top / (rank + 1), random);
      if (clicks === 0) return;
      result.linkDays++;
      result.clicks += clicks;
      daily.set(linkId, new Map([[day, clicks]]));
      for (const facet of Object.keys(FACETS) as ClickFacet[]) {
        const counts = new Map<string, number>();
        for (let i = 0; i < clicks; i++) {
          const value = draw[facet]();
          counts.set(value, (counts.get(value) ?? 0) + 1);
        }
        for (const [value, count] of counts) facets.push({ linkId, day, facet, value, count });
      }
      for (const [kind, share] of Object.entries(UNCOUNTED) as Array<[UncountedClass, number]>) {
        const count = poisson(clicks * share, random);
        if (count > 0) uncounted.push({ linkId, day, class: kind, count });
      }
      const sketch = new VisitorSketch();
      for (let i = Math.max(1, Math.round(clicks * 0.8)); i > 0; i--) sketch.addEntry(sketchEntry(randomBytes(8)));
      visitors.push({ linkId, day, sketch: sketch.bytes() });
    });
    result.facetRows += facets.length;
    await store.clicks.add(daily);
    await store.analytics.add({ facets, uncounted, visitors });
  }
  // As the service does on a day's first visit: the sketches of days before yesterday go, their visitor counts stay.
  await store.analytics.visitorKey(utcDate(new Date()));
  result.ms = performance.now() - started;
  return result;
}
