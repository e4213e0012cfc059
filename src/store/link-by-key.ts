import { looksLikeCode } from '../domain/code.js';
import { isWellFormedName } from '../domain/link-name.js';
import type { LinkRecord, Store } from './ports.js';

/**
 * The link behind `PUBLIC_URL/<key>`: a code (7 characters with an uppercase letter) or a short link name, looked
 * up as a visit does. Null, without a read, for a key that can be neither.
 */
export function linkByKey(store: Pick<Store, 'links'>, key: string): Promise<LinkRecord | null> | null {
  if (looksLikeCode(key)) return store.links.findByCode(key);
  if (isWellFormedName(key)) return store.links.findByName(key);
  return null;
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
  return (await linkByKey(store, key)) ?? null;
}
