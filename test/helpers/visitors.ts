import { createHash } from 'node:crypto';
import { sketchEntry, VisitorSketch } from '../../src/domain/visitor-sketch.js';

/**
 * The stored sketch of some visitors, each named by a number or text (hashed as the redirect hashes a visitor, so
 * distinct names are distinct visitors and the same name is the same one). For a handful of visitors the sketch's
 * estimate is their exact number.
 */
export function visitorSketch(...visitors: Array<string | number>): Uint8Array {
  const sketch = new VisitorSketch();
  for (const visitor of visitors) sketch.addEntry(sketchEntry(createHash('sha256').update(`visitor ${visitor}`).digest()));
  return sketch.bytes();
}
