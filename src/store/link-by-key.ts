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
