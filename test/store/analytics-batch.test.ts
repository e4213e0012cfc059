/** Merging a batch's visitors into the sketches the database holds (store/analytics-batch.ts), as both adapters do. */
import { describe, expect, it } from 'vitest';
import { VisitorSketch } from '../../src/domain/visitor-sketch.js';
import { byLinkDay, mergeSketches } from '../../src/store/analytics-batch.js';
import { visitorSketch } from '../helpers/visitors.js';

const DAY = '2026-11-27';

/** The link days of a batch bringing these visitors to link-a (and one more sketch of them, merged on the way). */
const linkDays = (...sketches: Uint8Array[]) =>
  byLinkDay({ facets: [], uncounted: [], visitors: sketches.map((sketch) => ({ linkId: 'link-a', day: DAY, sketch })) });

describe('mergeSketches', () => {
  it("adds to a link day's visitors what the merge adds to its stored sketch's estimate", () => {
    const stored = [{ day: DAY, linkId: 'link-a', sketch: visitorSketch(1, 2, 3) }];
    const { merged, gained } = mergeSketches(linkDays(visitorSketch(2, 3, 4), visitorSketch(5)), stored);
    expect(gained('link-a', DAY)).toBe(2);
    expect(merged).toEqual([{ day: DAY, linkId: 'link-a', sketch: visitorSketch(1, 2, 3, 4, 5) }]);
    expect(gained('link-b', DAY)).toBe(0);
  });

  it('starts from an empty sketch where none is stored, or only a claim (empty bytes)', () => {
    for (const stored of [[], [{ day: DAY, linkId: 'link-a', sketch: new Uint8Array(0) }]]) {
      const { merged, gained } = mergeSketches(linkDays(visitorSketch(1, 2)), stored);
      expect(gained('link-a', DAY)).toBe(2);
      expect(VisitorSketch.from(merged[0]!.sketch).estimate()).toBe(2);
    }
  });

  it('starts afresh from a stored sketch no sketch writes, instead of failing every write after it', () => {
    const { merged, gained } = mergeSketches(linkDays(visitorSketch(7)), [{ day: DAY, linkId: 'link-a', sketch: new Uint8Array([1, 2]) }]);
    expect(gained('link-a', DAY)).toBe(1);
    expect(merged).toEqual([{ day: DAY, linkId: 'link-a', sketch: visitorSketch(7) }]);
  });
});
