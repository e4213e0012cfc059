import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SKETCH_PRECISION, VisitorSketch, sketchEntry } from '../../src/domain/visitor-sketch.js';

/**
 * The entries of 200,000 visitors, hashed once for all tests: visitor i's hash is the (i % 4)th 8 bytes of SHA-256 of
 * floor(i / 4), a quarter of the digests (and of the time) one per visitor would take.
 */
const ENTRIES = Array.from({ length: 50_000 }, (_, i) => {
  const digest = createHash('sha256').update(String(i)).digest();
  return [0, 8, 16, 24].map((offset) => sketchEntry(digest.subarray(offset)));
}).flat();

function sketchOf(from: number, to: number): VisitorSketch {
  const sketch = new VisitorSketch();
  for (let i = from; i < to; i++) sketch.addEntry(ENTRIES[i]!);
  return sketch;
}

/** A hash of 8 bytes. */
const hash = (...bytes: number[]) => Uint8Array.from(bytes);

/** The register indexes of a sparse stored form, in order. */
function sparseIndexes(bytes: Uint8Array): number[] {
  const indexes: number[] = [];
  for (let offset = 0; offset < bytes.length; offset += 3) indexes.push((bytes[offset]! << 8) | bytes[offset + 1]!);
  return indexes;
}

describe('sketchEntry', () => {
  it('takes the register index from the first 12 bits', () => {
    expect(SKETCH_PRECISION).toBe(12);
    expect(sketchEntry(hash(0xab, 0xc0, 0, 0, 0, 0, 0, 0)) >>> 6).toBe(0xabc);
    expect(sketchEntry(hash(0xff, 0xf0, 0, 0, 0, 0, 0, 0)) >>> 6).toBe(0xfff);
    expect(sketchEntry(hash(0x00, 0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)) >>> 6).toBe(0);
  });

  it('ranks a hash 1 + the leading zero bits of the next 52 bits', () => {
    expect(sketchEntry(hash(0xab, 0xc0, 0, 0, 0, 0, 0, 0))).toBe((0xabc << 6) | 53); // all 52 zero
    expect(sketchEntry(hash(0xab, 0xc8, 0, 0, 0, 0, 0, 0))).toBe((0xabc << 6) | 1); // a 1 right after the index
    expect(sketchEntry(hash(0x00, 0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toBe(1);
    expect(sketchEntry(hash(0x00, 0x04, 0, 0, 0, 0, 0, 0))).toBe(2);
    expect(sketchEntry(hash(0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0))).toBe(20); // the last bit of the first word
  });

  it('ranks a hash whose first 1 after the index is in the second 32-bit word', () => {
    expect(sketchEntry(hash(0x12, 0x30, 0, 0, 0x80, 0, 0, 0))).toBe((0x123 << 6) | 21);
    expect(sketchEntry(hash(0x12, 0x30, 0, 0, 0x00, 0x01, 0xff, 0xff))).toBe((0x123 << 6) | 36);
    expect(sketchEntry(hash(0x12, 0x30, 0, 0, 0, 0, 0, 1))).toBe((0x123 << 6) | 52);
  });

  it('reads only the first 8 bytes, and needs them', () => {
    const digest = createHash('sha256').update('visitor').digest();
    expect(sketchEntry(digest)).toBe(sketchEntry(digest.subarray(0, 8)));
    expect(sketchEntry(hash(0xab, 0xc0, 0, 0, 0, 0, 0, 0, 0xff))).toBe((0xabc << 6) | 53);
    expect(() => sketchEntry(hash(1, 2, 3, 4, 5, 6, 7))).toThrow(RangeError);
  });
});

describe('VisitorSketch estimates', () => {
  it('counts nothing in an empty sketch', () => {
    const sketch = new VisitorSketch();
    expect(sketch.empty).toBe(true);
    expect(sketch.estimate()).toBe(0);
    expect(sketch.bytes()).toEqual(new Uint8Array(0));
  });

  // Ertl's estimator gives m·ln(m/V) here, as linear counting does: 4096·ln(4096/4095) = 1.0001. 100 visitors set 99
  // registers (two share one): 4096·ln(4096/3997) = 100.2; 100 distinct registers would have made 101.2, so 101.
  it.each([1, 2, 10, 100])('counts %i visitors exactly', (n) => {
    const sketch = sketchOf(0, n);
    expect(sketch.empty).toBe(false);
    expect(sketch.estimate()).toBe(n);
  });

  it.each([
    [10_000, 9920],
    [200_000, 199_594],
  ])('counts %i visitors within 5% (%i)', (n, figure) => {
    const estimate = sketchOf(0, n).estimate();
    expect(Math.abs(estimate - n) / n).toBeLessThan(0.05);
    expect(estimate).toBe(figure);
  });

  it('changes nothing for a visitor seen before', () => {
    const sketch = sketchOf(0, 50);
    const before = sketch.estimate();
    expect(sketch.addEntry(ENTRIES[7]!)).toBe(false);
    expect(sketch.estimate()).toBe(before);

    const dense = sketchOf(0, 5000);
    const bytes = dense.bytes();
    expect(dense.addEntry(ENTRIES[4999]!)).toBe(false);
    expect(dense.bytes()).toEqual(bytes);
  });

  it('raises a register only to a higher rank', () => {
    const sketch = new VisitorSketch();
    expect(sketch.addEntry((5 << 6) | 3)).toBe(true);
    expect(sketch.addEntry((5 << 6) | 2)).toBe(false);
    expect(sketch.addEntry((5 << 6) | 3)).toBe(false);
    expect(sketch.addEntry((5 << 6) | 4)).toBe(true);
    expect(sketch.bytes()).toEqual(Uint8Array.from([0, 5, 4]));
  });

  it.each([-1, 0, 54, (4096 << 6) | 1, 1.5, Number.NaN])('refuses %s as an entry', (entry) => {
    expect(() => new VisitorSketch().addEntry(entry)).toThrow(RangeError);
  });
});

describe('VisitorSketch merge', () => {
  it.each([
    ['two sparse sketches', [0, 800], [400, 1200]],
    ['two sparse sketches into a dense one', [0, 1000], [900, 2000]],
    ['a sparse and a dense sketch', [0, 300], [100, 6000]],
    ['two dense sketches', [0, 6000], [3000, 9000]],
  ])('unites %s, in either order', (_, [aFrom, aTo], [bFrom, bTo]) => {
    const union = sketchOf(Math.min(aFrom!, bFrom!), Math.max(aTo!, bTo!));
    for (const [first, second] of [
      [sketchOf(aFrom!, aTo!), sketchOf(bFrom!, bTo!)],
      [sketchOf(bFrom!, bTo!), sketchOf(aFrom!, aTo!)],
    ] as const) {
      const secondBytes = second.bytes();
      first.merge(second);
      expect(first.bytes()).toEqual(union.bytes());
      expect(first.estimate()).toBe(union.estimate());
      first.merge(second);
      first.merge(first);
      expect(first.bytes()).toEqual(union.bytes());
      expect(second.bytes()).toEqual(secondBytes);
    }
  });

  it('keeps no tie to the sketch it merged', () => {
    const dense = sketchOf(0, 5000);
    const denseBytes = dense.bytes();
    const sketch = sketchOf(0, 3);
    sketch.merge(dense);
    sketchOf(5000, 10_000).merge(sketch);
    for (let i = 5000; i < 6000; i++) sketch.addEntry(ENTRIES[i]!);
    expect(dense.bytes()).toEqual(denseBytes);
  });

  it('changes nothing when merging an empty sketch, and takes all of a sketch merged into an empty one', () => {
    const sketch = sketchOf(0, 10);
    sketch.merge(new VisitorSketch());
    expect(sketch.bytes()).toEqual(sketchOf(0, 10).bytes());
    const empty = new VisitorSketch();
    empty.merge(sketch);
    expect(empty.bytes()).toEqual(sketch.bytes());
  });
});

describe('VisitorSketch stored form', () => {
  it.each([
    ['empty', 0, 0],
    ['sparse', 40, 120],
    ['dense', 20_000, 4096],
  ])('reads back a %s sketch as written', (_, n, length) => {
    const sketch = sketchOf(0, n);
    const bytes = sketch.bytes();
    expect(bytes.length).toBe(length);
    const read = VisitorSketch.from(bytes);
    expect(read.bytes()).toEqual(bytes);
    expect(read.estimate()).toBe(sketch.estimate());
    expect(read.empty).toBe(n === 0);
  });

  it('writes the set registers sorted by index, 3 bytes each', () => {
    const sketch = new VisitorSketch();
    sketch.addEntry((0x123 << 6) | 7);
    sketch.addEntry((0x002 << 6) | 53);
    sketch.addEntry((0xfff << 6) | 1);
    expect(sketch.bytes()).toEqual(Uint8Array.from([0x00, 0x02, 53, 0x01, 0x23, 7, 0x0f, 0xff, 1]));

    const indexes = sparseIndexes(sketchOf(0, 1000).bytes());
    expect(indexes.length).toBeGreaterThan(800);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    expect(new Set(indexes).size).toBe(indexes.length);
  });

  it('turns dense past 1365 registers', () => {
    const sketch = new VisitorSketch();
    for (let index = 0; index < 1365; index++) sketch.addEntry((index << 6) | 1);
    expect(sketch.bytes().length).toBe(4095);
    sketch.addEntry((1365 << 6) | 1);
    const dense = sketch.bytes();
    expect(dense.length).toBe(4096);
    expect([...dense.subarray(0, 1366)].every((rank) => rank === 1)).toBe(true);
    expect([...dense.subarray(1366)].every((rank) => rank === 0)).toBe(true);

    // With real hashes too: dense at the visitor that sets the 1366th register.
    const real = new VisitorSketch();
    const indexes = new Set<number>();
    let next = 0;
    const addUntil = (registers: number) => {
      for (; indexes.size < registers; next++) {
        real.addEntry(ENTRIES[next]!);
        indexes.add(ENTRIES[next]! >>> 6);
      }
    };
    addUntil(1365);
    expect(real.bytes().length).toBe(1365 * 3);
    addUntil(1366);
    expect(real.bytes().length).toBe(4096);
    expect(real.bytes().filter((rank) => rank !== 0).length).toBe(1366);
  });

  it.each([
    ['4097 bytes', new Uint8Array(4097)],
    ['4 bytes', new Uint8Array(4)],
    ['4098 bytes', new Uint8Array(4098)],
    ['an index of 4096', Uint8Array.from([0x10, 0x00, 1])],
    ['an index of 65535', Uint8Array.from([0, 1, 1, 0xff, 0xff, 1])],
    ['unsorted indexes', Uint8Array.from([0, 5, 1, 0, 3, 1])],
    ['a repeated index', Uint8Array.from([0, 5, 1, 0, 5, 2])],
    ['a sparse rank of 0', Uint8Array.from([0, 5, 0])],
    ['a sparse rank of 54', Uint8Array.from([0, 5, 54])],
    ['a dense rank of 54', withByte(sketchOf(0, 5000).bytes(), 17, 54)],
    ['a dense sketch of 1365 registers', new Uint8Array(4096).fill(1, 0, 1365)],
    ['a dense empty sketch', new Uint8Array(4096)],
  ])('refuses %s', (_, bytes) => {
    expect(() => VisitorSketch.from(bytes)).toThrow(Error);
  });

  it('reads the highest rank, and a dense sketch of 1366 registers', () => {
    expect(VisitorSketch.from(Uint8Array.from([0x0f, 0xff, 53])).bytes()).toEqual(Uint8Array.from([0x0f, 0xff, 53]));
    const dense = new Uint8Array(4096).fill(1, 0, 1366);
    dense[4095] = 53;
    expect(VisitorSketch.from(dense).bytes()).toEqual(dense);
  });

  it('copies the bytes it reads and writes', () => {
    const bytes = sketchOf(0, 5000).bytes();
    const sketch = VisitorSketch.from(bytes);
    bytes.fill(0);
    sketch.bytes().fill(0);
    expect(sketch.bytes()).toEqual(sketchOf(0, 5000).bytes());
  });
});

function withByte(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  bytes[offset] = value;
  return bytes;
}
