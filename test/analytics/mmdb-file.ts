import { writeFileSync } from 'node:fs';

/**
 * Writes a small IPv4 MaxMind DB file (the format GeoLite2 files have: https://maxmind.github.io/MaxMind-DB/) that
 * maps whole /8 networks, by their first byte, to records of strings and maps: a stand-in for an operator's
 * GeoLite2 Country file, which may not be shipped with the tests.
 */
export function writeMmdb(path: string, networks: ReadonlyMap<number, Record<string, unknown>>): void {
  // The search tree: node 0 is the root; each node of depth d < 8 branches on bit d of the first byte.
  const nodes: Array<[number | Leaf, number | Leaf]> = [];
  const node = (): number => nodes.push([EMPTY, EMPTY]) - 1;
  node();
  for (const [first, record] of networks) {
    let at = 0;
    for (let depth = 0; depth < 8; depth++) {
      const bit = (first >> (7 - depth)) & 1;
      if (depth === 7) nodes[at]![bit] = { record };
      else {
        if (nodes[at]![bit] === EMPTY) nodes[at]![bit] = node();
        at = nodes[at]![bit] as number;
      }
    }
  }
  const data: Buffer[] = [];
  let dataLength = 0;
  const value = (entry: number | Leaf): number => {
    if (typeof entry === 'number') return entry === EMPTY ? nodes.length : entry;
    const bytes = encode(entry.record);
    data.push(bytes);
    dataLength += bytes.length;
    return nodes.length + 16 + dataLength - bytes.length;
  };
  const tree = Buffer.concat(
    nodes.map(([left, right]) => {
      const bytes = Buffer.alloc(6);
      bytes.writeUIntBE(value(left), 0, 3);
      bytes.writeUIntBE(value(right), 3, 3);
      return bytes;
    }),
  );
  const metadata = encode({ node_count: uint(6, nodes.length, 4), record_size: uint(5, 24, 2), ip_version: uint(5, 4, 2) });
  const marker = Buffer.from('ABCDEF4D61784D696E642E636F6D', 'hex');
  writeFileSync(path, Buffer.concat([tree, Buffer.alloc(16), ...data, marker, metadata]));
}

interface Leaf {
  record: Record<string, unknown>;
}
/** A record pointing nowhere (written as node_count: no data). */
const EMPTY = -1;

interface Uint {
  type: number;
  value: number;
  bytes: number;
}
const uint = (type: number, value: number, bytes: number): Uint => ({ type, value, bytes });

/** The data section's encoding of strings, unsigned integers and maps (each under 29 entries or bytes). */
function encode(value: unknown): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([Buffer.from([(2 << 5) | bytes.length]), bytes]);
  }
  if (typeof value === 'object' && value !== null && 'type' in value) {
    const { type, value: n, bytes } = value as Uint;
    const out = Buffer.alloc(1 + bytes);
    out[0] = (type << 5) | bytes;
    out.writeUIntBE(n, 1, bytes);
    return out;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  return Buffer.concat([Buffer.from([(7 << 5) | entries.length]), ...entries.flatMap(([key, item]) => [encode(key), encode(item)])]);
}
