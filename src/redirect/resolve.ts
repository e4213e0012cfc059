import { findByKey, type KeyReads } from '../store/link-by-key.js';
import type { LinkRecord, Store } from '../store/ports.js';
import { LinkCache, type RedirectTarget } from './link-cache.js';

/**
 * Finds the link behind `PUBLIC_URL/<key>`: a code (7 characters with an uppercase letter) or a short link name in
 * any case (findByKey). Answers from the cache when it can; the cache forgets a key the moment its link changes, and
 * forgets everything when another process changed the store in ways it cannot name.
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

  // Each read is cached under the key a change of its link tells: the code as it is, the name lowercase. So every
  // spelling of a name shares one entry, and `/Launchs` (no such code) rests on the code's entry (null) and the
  // name's, each forgotten by its own change.
  async function cached(key: string, read: (key: string) => Promise<LinkRecord | null>): Promise<RedirectTarget | null> {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const toldBefore = told;
    const record = await read(key);
    const target = record && toTarget(record);
    // While the read awaited, another request may have changed this link (or caught up with another process's
    // change) and had it forgotten: what was read may be older than that, so it answers this request only.
    if (told === toldBefore) cache.set(key, target);
    return target;
  }
  const findCode = (code: string) => store.links.findByCode(code);
  const findName = (name: string) => store.links.findByName(name);
  const reads: KeyReads<RedirectTarget> = { byCode: (code) => cached(code, findCode), byName: (name) => cached(name, findName) };

  /** `caughtUp`: the request caught up with other processes' changes already (one on a team's domain). */
  return async function resolve(key: string, caughtUp = false): Promise<RedirectTarget | null> {
    // A visit is a request of its own: caught up here rather than at the entry point (routing.ts), so a path that
    // cannot be a link, or is no GET, costs no catching up.
    if (!caughtUp) await store.changes.catchUp();
    // The hot path: most visits spell the key as it is cached, and need no lowercasing or shape checks.
    const hit = cache.asSpelled(key);
    return hit !== undefined ? hit : findByKey(key, reads);
  };
}

function toTarget(link: LinkRecord): RedirectTarget {
  const { id, teamId, code, state, destination, maxClicks, passwordHash, forwardQuery } = link;
  const expiresAt = link.expiresAt === null ? null : Date.parse(link.expiresAt);
  return { id, teamId, code, state, destination, location: new URL(destination).href, expiresAt, maxClicks, passwordHash, forwardQuery };
}
