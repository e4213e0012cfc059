import { looksLikeCode } from '../domain/code.js';
import { nameInAddress } from '../domain/link-name.js';
import type { LinkRecord, Store } from './ports.js';

/** The two reads a key may take, each by the key a change of the link tells (store/ports/changes.ts). */
export interface KeyReads<T> {
  byCode(code: string): Promise<T | null>;
  /** `name` is lowercase and well formed. */
  byName(name: string): Promise<T | null>;
}

/**
 * Looks `PUBLIC_URL/<key>` up as a visit does: as a code (7 characters with an uppercase letter, matched exactly),
 * else as a short link name in any case (names are stored lowercase, so `/Launch` is `launch`). A code always holds
 * an uppercase letter and a name none, so the two never meet; a key of a code's shape that no code has may still be
 * a name typed in capitals (`/Launchs`). Null, without a read, for a key that can be neither.
 */
export async function findByKey<T>(key: string, reads: KeyReads<T>): Promise<T | null> {
  if (looksLikeCode(key)) {
    const byCode = await reads.byCode(key);
    if (byCode !== null) return byCode;
  }
  const name = nameInAddress(key);
  return name === null ? null : reads.byName(name);
}

/** The link behind `PUBLIC_URL/<key>`, looked up as a visit does (findByKey), without the redirect's cache. */
export function linkByKey(store: Pick<Store, 'links'>, key: string): Promise<LinkRecord | null> {
  return findByKey(key, { byCode: (code) => store.links.findByCode(code), byName: (name) => store.links.findByName(name) });
}

/**
 * The link a person means by what they typed or pasted: its code or name, `PUBLIC_URL/<code or name>` or
 * `/<code or name>`, as anyone copies it from a poster or a message (a query or fragment after it is left out).
 * Looked up as a visit would, which tells no more than visiting it.
 */
export async function linkByEntry(store: Pick<Store, 'links'>, publicUrl: string, entered: string): Promise<LinkRecord | null> {
  let key = entered.trim();
  if (key.startsWith(`${publicUrl}/`)) key = key.slice(publicUrl.length + 1);
  key = key.replace(/^\//, '').replace(/[/?#].*$/s, '');
  return linkByKey(store, key);
}
