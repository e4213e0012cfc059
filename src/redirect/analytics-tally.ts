import crypto from 'node:crypto';
import type { AgentTraits } from '../analytics/agent.js';
import { CLICK_FACETS, UNCOUNTED_CLASSES, type ClickSource, type UncountedClass } from '../domain/analytics.js';
import { sketchEntry, VisitorSketch } from '../domain/visitor-sketch.js';
import type { AnalyticsBatch, FacetCount, UncountedCount } from '../store/ports.js';

/** What the redirect learnt of one counted click: each facet's value, and who made it (for the visitor's hash only). */
export interface ClickFacts {
  country: string;
  referrer: string;
  agent: AgentTraits;
  source: ClickSource;
  /** The client address and User-Agent: hashed as the click is counted, never kept. */
  address: string;
  userAgent: string;
}

const CLASS_INDEX = Object.fromEntries(UNCOUNTED_CLASSES.map((kind, index) => [kind, index])) as Record<UncountedClass, number>;

/**
 * A visitor's keyed hash under its day's key (hex): SHA-256 of the key, then the client address and User-Agent, as
 * a binary string (a buffer a click would cost the garbage collector more). The key is a fixed-length secret prefix
 * and only the first 8 bytes are used (visitor-sketch.ts), so nothing can extend or recompute the hash without the
 * key, which is forgotten a day after its day.
 */
export function visitorHash(key: string, address: string, userAgent: string): string {
  return sha256(`${key}${address}\n${userAgent}`);
}

/** SHA-256 in one call where Node has it (20.12 and later), without a Hash object a click. */
const sha256: (text: string) => string = crypto.hash
  ? (text) => crypto.hash('sha256', text, 'binary')
  : (text) => crypto.createHash('sha256').update(text).digest('binary');

/**
 * Clicks whose values a link day lists before it counts them per value: most links see a click or two between
 * writes, for which a list costs least; a busy link's list would grow with its clicks, its counts only with its values.
 */
const LISTED_CLICKS = 8;

/** One link's counts of one day since the last write. */
interface LinkDayTally {
  /** The values of the latest clicks not counted yet, six a click in CLICK_FACETS' order. */
  values: string[];
  /** Clicks per value of each facet (in CLICK_FACETS' order), once more than LISTED_CLICKS came. */
  counts: Array<Map<string, number>> | null;
  /** The visitors hashed as they clicked. */
  visitors: VisitorSketch | null;
  /** Visitors of clicks counted before their day's key was known: hashed when written. */
  unhashed: string[] | null;
  /** Requests by not-counted class, in UNCOUNTED_CLASSES' order. */
  uncounted: number[] | null;
}

/** Visitors of one link day on their way to the store: hashed, and those still to hash with their day's key. */
export interface PendingVisitors {
  linkId: string;
  day: string;
  sketch: VisitorSketch;
  /** Client address and User-Agent joined by a newline. */
  unhashed: string[];
}

/** What a write takes, visitors still as sketches in memory (and a few not hashed yet). */
export interface PendingAnalytics {
  facets: FacetCount[];
  uncounted: UncountedCount[];
  visitors: PendingVisitors[];
}

/**
 * Click analytics counted in memory between writes (redirect/click-counter.ts). A click adds its six values to its
 * link's list of the day and its visitor's hash to the link's sketch: no object per click outlives its request (on a
 * busy service, objects held for the seconds between writes cost the garbage collector more than the counting), and
 * no client address or User-Agent is kept, only the hash's register in the sketch.
 */
export class AnalyticsTally {
  /** UTC day → link → its counts. */
  private days = new Map<string, Map<string, LinkDayTally>>();

  /** A counted click; `key` is its day's visitor key (hex), unknown for the first clicks of a day. */
  clicked(linkId: string, day: string, facts: ClickFacts, key: string | undefined): void {
    const tally = this.of(linkId, day);
    tally.values.push(facts.country, facts.referrer, facts.agent.device, facts.agent.browser, facts.agent.os, facts.source);
    if (tally.values.length === LISTED_CLICKS * CLICK_FACETS.length) {
      countValues((tally.counts ??= CLICK_FACETS.map(() => new Map())), tally.values);
      tally.values = [];
    }
    if (key !== undefined) (tally.visitors ??= new VisitorSketch()).addEntry(sketchEntry(visitorHash(key, facts.address, facts.userAgent)));
    else (tally.unhashed ??= []).push(`${facts.address}\n${facts.userAgent}`);
  }

  notCounted(linkId: string, day: string, kind: UncountedClass): void {
    const tally = this.of(linkId, day);
    (tally.uncounted ??= UNCOUNTED_CLASSES.map(() => 0))[CLASS_INDEX[kind]]! += 1;
  }

  get empty(): boolean {
    return this.days.size === 0;
  }

  /** Everything counted so far, as a tally of its own to take from in parts; this one starts again empty. */
  split(): AnalyticsTally {
    const taken = new AnalyticsTally();
    taken.days = this.days;
    this.days = new Map();
    return taken;
  }

  /**
   * What was counted so far on up to `most` link days (the earliest counted first), summed per link, day and value;
   * they leave the tally, the rest stays for the next take.
   */
  take(most = Infinity): PendingAnalytics {
    const pending: PendingAnalytics = { facets: [], uncounted: [], visitors: [] };
    let taken = 0;
    for (const [day, links] of this.days) {
      for (const [linkId, tally] of links) {
        if (taken++ === most) return pending;
        links.delete(linkId);
        facetCounts(pending.facets, linkId, day, tally);
        tally.uncounted?.forEach((count, index) => count > 0 && pending.uncounted.push({ linkId, day, class: UNCOUNTED_CLASSES[index]!, count }));
        if (tally.visitors || tally.unhashed) {
          pending.visitors.push({ linkId, day, sketch: tally.visitors ?? new VisitorSketch(), unhashed: tally.unhashed ?? [] });
        }
      }
      this.days.delete(day);
    }
    return pending;
  }

  private of(linkId: string, day: string): LinkDayTally {
    let links = this.days.get(day);
    if (!links) this.days.set(day, (links = new Map()));
    let tally = links.get(linkId);
    if (!tally) links.set(linkId, (tally = { values: [], counts: null, visitors: null, unhashed: null, uncounted: null }));
    return tally;
  }
}

/** A link day's clicks as counts per facet and value. */
function facetCounts(into: FacetCount[], linkId: string, day: string, tally: LinkDayTally): void {
  const { values } = tally;
  if (!tally.counts && values.length === CLICK_FACETS.length) {
    // The common case on a busy service with many links: one click, nothing to sum.
    CLICK_FACETS.forEach((facet, i) => into.push({ linkId, day, facet, value: values[i]!, count: 1 }));
    return;
  }
  const counts = tally.counts ?? CLICK_FACETS.map(() => new Map<string, number>());
  countValues(counts, values);
  CLICK_FACETS.forEach((facet, i) => {
    for (const [value, count] of counts[i]!) into.push({ linkId, day, facet, value, count });
  });
}

/** Adds listed values (six a click) to the counts per facet and value. */
function countValues(counts: Array<Map<string, number>>, values: readonly string[]): void {
  values.forEach((value, at) => {
    const facet = counts[at % CLICK_FACETS.length]!;
    facet.set(value, (facet.get(value) ?? 0) + 1);
  });
}

/**
 * Two writes' worth as one (what a failed write kept, and what came since): counts of the same link, day and value
 * added, sketches of the same link and day merged. Runs only after a failed write, so its keyed maps cost nothing on
 * the way of a working one; what is kept stays bounded by the values seen and the sketches' size, not by the clicks.
 */
export function mergePending(kept: PendingAnalytics, since: PendingAnalytics): PendingAnalytics {
  const facets = new Map<string, FacetCount>();
  for (const row of [...kept.facets, ...since.facets]) {
    const key = `${row.linkId}\n${row.day}\n${row.facet}\n${row.value}`;
    const seen = facets.get(key);
    if (seen) seen.count += row.count;
    else facets.set(key, { ...row });
  }
  const uncounted = new Map<string, UncountedCount>();
  for (const row of [...kept.uncounted, ...since.uncounted]) {
    const key = `${row.linkId}\n${row.day}\n${row.class}`;
    const seen = uncounted.get(key);
    if (seen) seen.count += row.count;
    else uncounted.set(key, { ...row });
  }
  const visitors = new Map<string, PendingVisitors>();
  for (const row of [...kept.visitors, ...since.visitors]) {
    const key = `${row.linkId}\n${row.day}`;
    const seen = visitors.get(key);
    if (!seen) visitors.set(key, row);
    else {
      seen.sketch.merge(row.sketch);
      seen.unhashed = [...seen.unhashed, ...row.unhashed];
    }
  }
  return { facets: [...facets.values()], uncounted: [...uncounted.values()], visitors: [...visitors.values()] };
}

/** A batch the store did not write, to be written again with the next. */
export function pendingOf(batch: AnalyticsBatch): PendingAnalytics {
  return {
    facets: [...batch.facets],
    uncounted: [...batch.uncounted],
    visitors: batch.visitors.map(({ linkId, day, sketch }) => ({ linkId, day, sketch: VisitorSketch.from(sketch), unhashed: [] })),
  };
}

/**
 * The batch the store takes: each link day's visitors as its sketch's bytes, with the visitors counted before their
 * day's key was known hashed now.
 */
export async function sketchVisitors(pending: PendingAnalytics, keyOf: (day: string) => Promise<string>): Promise<AnalyticsBatch> {
  const visitors = [];
  for (const { linkId, day, sketch, unhashed } of pending.visitors) {
    if (unhashed.length > 0) {
      const key = await keyOf(day);
      for (const visitor of unhashed) {
        const cut = visitor.indexOf('\n');
        sketch.addEntry(sketchEntry(visitorHash(key, visitor.slice(0, cut), visitor.slice(cut + 1))));
      }
    }
    visitors.push({ linkId, day, sketch: sketch.bytes() });
  }
  return { facets: pending.facets, uncounted: pending.uncounted, visitors };
}
