import { createHmac, type KeyObject } from 'node:crypto';
import type { AgentTraits } from '../analytics/agent.js';
import { CLICK_FACETS, UNCOUNTED_CLASSES, type ClickFacet, type ClickSource, type UncountedClass } from '../domain/analytics.js';
import type { AnalyticsBatch, FacetCount, UncountedCount, VisitorMark } from '../store/ports.js';

/** What the redirect learnt of one counted click: each facet's value, and who made it (for the visitor mark only). */
export interface ClickFacts {
  country: string;
  referrer: string;
  agent: AgentTraits;
  source: ClickSource;
  /** The client address and User-Agent: kept in memory until the flush turns them into a mark. */
  address: string;
  userAgent: string;
}

/** Each facet's value in a click's facts. */
const FACET_OF: Readonly<Record<ClickFacet, (facts: ClickFacts) => string>> = {
  country: (facts) => facts.country,
  referrer: (facts) => facts.referrer,
  device: (facts) => facts.agent.device,
  browser: (facts) => facts.agent.browser,
  os: (facts) => facts.agent.os,
  source: (facts) => facts.source,
};

const CLASS_INDEX = Object.fromEntries(UNCOUNTED_CLASSES.map((kind, index) => [kind, index])) as Record<UncountedClass, number>;

/** One visitor of one link on one day, before the mark: the client address and User-Agent joined by a newline. */
export interface PendingVisitor {
  linkId: string;
  day: string;
  visitor: string;
}

/** What a flush writes, visitors still unmarked (their day's key is asked of the store only when writing). */
export interface PendingAnalytics {
  facets: FacetCount[];
  uncounted: UncountedCount[];
  visitors: PendingVisitor[];
}

/**
 * Click analytics counted in memory between flushes (redirect/click-counter.ts). A click only adds its facts to its
 * link's list of the day, the least a redirect can do (most links of a busy service see one click a second, so
 * counting each facet as it comes would build six tables per link per second); the flush sums them. Client addresses
 * and User-Agents wait here for a second at most (while writes work), then leave only as keyed hashes.
 */
export class AnalyticsTally {
  /** UTC day → link → its counted clicks' facts. */
  private clicks = new Map<string, Map<string, ClickFacts[]>>();
  /** UTC day → link → requests by not-counted class (in UNCOUNTED_CLASSES' order). */
  private others = new Map<string, Map<string, number[]>>();

  clicked(linkId: string, day: string, facts: ClickFacts): void {
    let links = this.clicks.get(day);
    if (!links) this.clicks.set(day, (links = new Map()));
    const list = links.get(linkId);
    if (list) list.push(facts);
    else links.set(linkId, [facts]);
  }

  notCounted(linkId: string, day: string, kind: UncountedClass): void {
    let links = this.others.get(day);
    if (!links) this.others.set(day, (links = new Map()));
    let counts = links.get(linkId);
    if (!counts) links.set(linkId, (counts = UNCOUNTED_CLASSES.map(() => 0)));
    counts[CLASS_INDEX[kind]]! += 1;
  }

  get empty(): boolean {
    return this.clicks.size === 0 && this.others.size === 0;
  }

  /** What was counted so far, summed per link, day and value, each visitor once; the tally starts again empty. */
  take(): PendingAnalytics {
    const pending: PendingAnalytics = { facets: [], uncounted: [], visitors: [] };
    for (const [day, links] of this.clicks) for (const [linkId, list] of links) sumClicks(pending, linkId, day, list);
    for (const [day, links] of this.others) {
      for (const [linkId, counts] of links) {
        counts.forEach((count, index) => count > 0 && pending.uncounted.push({ linkId, day, class: UNCOUNTED_CLASSES[index]!, count }));
      }
    }
    this.clicks = new Map();
    this.others = new Map();
    return pending;
  }
}

function sumClicks(into: PendingAnalytics, linkId: string, day: string, list: readonly ClickFacts[]): void {
  if (list.length === 1) {
    // The common case on a busy service with many links: nothing to sum.
    const facts = list[0]!;
    for (const facet of CLICK_FACETS) into.facets.push({ linkId, day, facet, value: FACET_OF[facet](facts), count: 1 });
    into.visitors.push({ linkId, day, visitor: `${facts.address}\n${facts.userAgent}` });
    return;
  }
  for (const facet of CLICK_FACETS) {
    const counts = new Map<string, number>();
    for (const facts of list) {
      const value = FACET_OF[facet](facts);
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    for (const [value, count] of counts) into.facets.push({ linkId, day, facet, value, count });
  }
  const visitors = new Set(list.map((facts) => `${facts.address}\n${facts.userAgent}`));
  for (const visitor of visitors) into.visitors.push({ linkId, day, visitor });
}

/**
 * Two flushes' worth as one (what a failed write kept, and what came since): counts of the same link, day and
 * value added, each visitor of a link and day once. Runs only after a failed write, so its keyed maps cost nothing
 * on the way of a working one; what is kept stays bounded by the values and visitors seen, not by the clicks.
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
  const visitors = new Map<string, PendingVisitor>();
  for (const row of [...kept.visitors, ...since.visitors]) visitors.set(`${row.linkId}\n${row.day}\n${row.visitor}`, row);
  return { facets: [...facets.values()], uncounted: [...uncounted.values()], visitors: [...visitors.values()] };
}

/** The bytes of a visitor mark kept: 128 bits, far past any day's visitors colliding. */
const MARK_BYTES = 16;

/**
 * The batch the store takes, visitors as marks: HMAC-SHA256 under the day's visitor key of (client address,
 * User-Agent, link), its first 16 bytes. The same visitor gives the same mark all day, on every process; once the
 * day's key is gone nobody can tell whose it was.
 */
export async function markVisitors(pending: PendingAnalytics, keyOf: (day: string) => Promise<KeyObject>): Promise<AnalyticsBatch> {
  const keys = new Map<string, KeyObject>();
  for (const { day } of pending.visitors) if (!keys.has(day)) keys.set(day, await keyOf(day));
  const visitors: VisitorMark[] = pending.visitors.map(({ linkId, day, visitor }) => ({ linkId, day, mark: visitorMark(keys.get(day)!, visitor, linkId) }));
  return { facets: pending.facets, uncounted: pending.uncounted, visitors };
}

/** `visitor` is the client address and User-Agent joined by a newline. */
export function visitorMark(key: KeyObject, visitor: string, linkId: string): Uint8Array {
  return createHmac('sha256', key).update(`${visitor}\n${linkId}`).digest().subarray(0, MARK_BYTES);
}
