import { linkByKey } from '../store/link-by-key.js';
import type { LinkRecord, Store } from '../store/ports.js';
import { LinkCache, type RedirectTarget } from './link-cache.js';

/**
 * Finds the link behind `PUBLIC_URL/<key>`: a code (7 characters with an uppercase letter) or a short link name.
 * Answers from the cache when it can; the cache forgets a key the moment its link changes, and forgets everything
 * when another process changed the store in ways it cannot name.
 */
export function linkResolver(store: Store, maxEntries?: number) {
  const cache = new LinkCache(maxEntries);
  // Counts the changes told, so a read that a change overtook is not kept (below).
  let told = 0;
  store.changes.subscribe((keys) => {
    told += 1;
    if (keys === null) cache.clear();
    else cache.forget(keys);
  });

  return async function resolve(key: string): Promise<RedirectTarget | null> {
    // A visit is a request of its own: caught up here rather than at the entry point (routing.ts), so a path that
    // cannot be a link, or is no GET, costs no catching up.
    await store.changes.catchUp();
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const toldBefore = told;
    const reading = linkByKey(store, key);
    if (reading === null) return null; // cannot be a link; not worth a cache entry
    const record = await reading;
    const target = record && toTarget(record);
    // While the read awaited, another request may have changed this link (or caught up with another process's
    // change) and had it forgotten: what was read may be older than that, so it answers this request only.
    if (told === toldBefore) cache.set(key, target);
    return target;
  };
}

function toTarget(link: LinkRecord): RedirectTarget {
  return { id: link.id, code: link.code, state: link.state, destination: link.destination, location: new URL(link.destination).href };
}
