/**
 * Unique visitors of a link and day as a HyperLogLog sketch: a fixed, small state per link and day instead of a row
 * per visitor, which processes merge (register-wise max) and the store keeps as bytes.
 */

/** Registers: 2^12 = 4096 (standard error about 1.6%). */
export const SKETCH_PRECISION = 12;

const REGISTERS = 1 << SKETCH_PRECISION;
/** The bits of a 64-bit hash left after the index, so the highest rank is one more. */
const RANK_BITS = 64 - SKETCH_PRECISION;
const MAX_RANK = RANK_BITS + 1;
/** Past this many registers the sparse form (3 bytes each) is no shorter than the dense one (1 byte each). */
const SPARSE_LIMIT = Math.floor((REGISTERS - 1) / 3);
const RANK_MASK = 0x3f;

/**
 * The register and rank a hash sets, packed as one small integer (register index << 6 | rank), so a caller can
 * collect them in a plain number array per click without allocating: index = the hash's first 12 bits, rank = 1 +
 * the number of leading zero bits in the next 52 bits (1..53). `hash` has at least 8 bytes, as bytes or as a binary
 * (latin1) string, the form a hash takes without allocating a buffer; only the first 8 are read.
 */
export function sketchEntry(hash: Uint8Array | string): number {
  if (hash.length < 8) throw new RangeError(`a visitor hash has at least 8 bytes, not ${hash.length}`);
  const high = word(hash, 0);
  const low = word(hash, 4);
  const index = high >>> (32 - SKETCH_PRECISION);
  const rest = high & (0xffffffff >>> SKETCH_PRECISION);
  let rank: number;
  if (rest !== 0) rank = Math.clz32(rest) - SKETCH_PRECISION + 1;
  else if (low !== 0) rank = 32 - SKETCH_PRECISION + Math.clz32(low) + 1;
  else rank = MAX_RANK;
  return (index << 6) | rank;
}

/** The big-endian 32-bit word at `at`. */
function word(hash: Uint8Array | string, at: number): number {
  return typeof hash === 'string'
    ? ((hash.charCodeAt(at) << 24) | (hash.charCodeAt(at + 1) << 16) | (hash.charCodeAt(at + 2) << 8) | hash.charCodeAt(at + 3)) >>> 0
    : ((hash[at]! << 24) | (hash[at + 1]! << 16) | (hash[at + 2]! << 8) | hash[at + 3]!) >>> 0;
}

export class VisitorSketch {
  // Sparse until dense is smaller; created on the first entry, as most sketches hold a handful of registers.
  #sparse: Map<number, number> | undefined;
  #dense: Uint8Array | undefined;

  /** A sketch read from its stored bytes (`bytes()` form); throws an Error on bytes no sketch writes (wrong length, register index out of range or unsorted/duplicated in the sparse form, rank 0 or > 53). */
  static from(bytes: Uint8Array): VisitorSketch {
    const sketch = new VisitorSketch();
    if (bytes.length === REGISTERS) {
      let set = 0;
      for (const rank of bytes) {
        if (rank > MAX_RANK) throw new Error(`a visitor sketch has a rank of ${rank}, above ${MAX_RANK}`);
        if (rank !== 0) set++;
      }
      // bytes() writes a sketch this small sparse: dense bytes for it are not ours (and would not round-trip).
      if (set <= SPARSE_LIMIT) throw new Error(`a dense visitor sketch has only ${set} registers set`);
      sketch.#dense = Uint8Array.from(bytes);
      return sketch;
    }
    if (bytes.length % 3 !== 0 || bytes.length > REGISTERS) {
      throw new Error(`a visitor sketch is ${REGISTERS} bytes or a multiple of 3 below, not ${bytes.length}`);
    }
    if (bytes.length === 0) return sketch;
    const sparse = new Map<number, number>();
    let previous = -1;
    for (let offset = 0; offset < bytes.length; offset += 3) {
      const index = (bytes[offset]! << 8) | bytes[offset + 1]!;
      const rank = bytes[offset + 2]!;
      if (index >= REGISTERS) throw new Error(`a visitor sketch has a register index of ${index}`);
      if (index <= previous) throw new Error(`a visitor sketch's registers are out of order at index ${index}`);
      if (rank === 0 || rank > MAX_RANK) throw new Error(`a visitor sketch has a rank of ${rank} at index ${index}`);
      sparse.set(index, rank);
      previous = index;
    }
    sketch.#sparse = sparse;
    return sketch;
  }

  /** Raises a register to an entry's rank (sketchEntry's packed form); true when it rose. */
  addEntry(entry: number): boolean {
    const index = entry >>> 6;
    const rank = entry & RANK_MASK;
    if (!Number.isInteger(entry) || entry < 0 || index >= REGISTERS || rank === 0 || rank > MAX_RANK) {
      throw new RangeError(`${entry} is not a visitor sketch entry`);
    }
    return this.#raise(index, rank);
  }

  /** Every register to the higher of both (the union of the visitors). */
  merge(other: VisitorSketch): void {
    if (other === this) return;
    if (other.#dense) {
      if (!this.#dense) {
        const own = this.#sparse;
        this.#dense = Uint8Array.from(other.#dense);
        this.#sparse = undefined;
        if (own) for (const [index, rank] of own) this.#raise(index, rank);
        return;
      }
      const dense = this.#dense;
      other.#dense.forEach((rank, index) => {
        if (rank > dense[index]!) dense[index] = rank;
      });
      return;
    }
    if (other.#sparse) for (const [index, rank] of other.#sparse) this.#raise(index, rank);
  }

  /**
   * The estimated number of distinct visitors, a whole number; 0 for an empty sketch.
   * Otmar Ertl's improved estimator ("New cardinality estimation algorithms for HyperLogLog sketches", 2017,
   * algorithm 6) rather than the classic one with linear counting: the same figures for few visitors, but no jump
   * where the classic one switches from linear counting to the raw estimate (about 10,000 visitors here), where it
   * erred by 3% (RMSE over 60 random sets) against 1.3%.
   */
  estimate(): number {
    const counts = this.#rankCounts();
    let z = REGISTERS * tau(1 - counts[MAX_RANK]! / REGISTERS);
    for (let rank = RANK_BITS; rank >= 1; rank--) z = 0.5 * (z + counts[rank]!);
    z += REGISTERS * sigma(counts[0]! / REGISTERS);
    return Math.round((REGISTERS * REGISTERS) / (2 * Math.LN2) / z);
  }

  /** True when no register is set. */
  get empty(): boolean {
    return !this.#dense && (this.#sparse?.size ?? 0) === 0;
  }

  /** The stored form: sparse (the set registers, sorted by index, 3 bytes each: index as uint16 big-endian, then rank as one byte) while that is shorter than 4096 bytes, else dense (4096 bytes, one rank per register, 0 for unset). The two are told apart by length: a dense sketch is exactly 4096 bytes, a sparse one a multiple of 3 (at most 4095). An empty sketch is 0 bytes. */
  bytes(): Uint8Array {
    if (this.#dense) return Uint8Array.from(this.#dense);
    const sparse = this.#sparse;
    if (!sparse) return new Uint8Array(0);
    const out = new Uint8Array(sparse.size * 3);
    let offset = 0;
    for (const index of [...sparse.keys()].sort((a, b) => a - b)) {
      out[offset] = index >>> 8;
      out[offset + 1] = index & 0xff;
      out[offset + 2] = sparse.get(index)!;
      offset += 3;
    }
    return out;
  }

  #raise(index: number, rank: number): boolean {
    const dense = this.#dense;
    if (dense) {
      if (rank <= dense[index]!) return false;
      dense[index] = rank;
      return true;
    }
    const sparse = (this.#sparse ??= new Map());
    if (rank <= (sparse.get(index) ?? 0)) return false;
    sparse.set(index, rank);
    if (sparse.size > SPARSE_LIMIT) {
      const promoted = new Uint8Array(REGISTERS);
      for (const [i, r] of sparse) promoted[i] = r;
      this.#dense = promoted;
      this.#sparse = undefined;
    }
    return true;
  }

  /** How many registers hold each rank, 0 (unset) to 53. */
  #rankCounts(): number[] {
    const counts = new Array<number>(MAX_RANK + 1).fill(0);
    if (this.#dense) {
      for (const rank of this.#dense) counts[rank]!++;
      return counts;
    }
    const sparse = this.#sparse;
    counts[0] = REGISTERS - (sparse?.size ?? 0);
    if (sparse) for (const rank of sparse.values()) counts[rank]!++;
    return counts;
  }
}

/** Ertl's σ(x), for the share x of unset registers: infinite when all are unset, which makes the estimate 0. */
function sigma(x: number): number {
  if (x === 1) return Infinity;
  let y = 1;
  let z = x;
  let previous: number;
  do {
    x *= x;
    previous = z;
    z += x * y;
    y += y;
  } while (z !== previous);
  return z;
}

/** Ertl's τ(x), for the share x of registers below the highest rank (where a hash ran out of bits). */
function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  let previous: number;
  do {
    x = Math.sqrt(x);
    previous = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
  } while (z !== previous);
  return z / 3;
}
