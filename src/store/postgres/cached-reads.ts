import { cacheStats } from '../../support/cache-stats.js';
import { LruCache } from '../../support/lru-cache.js';
import type { PgChanges } from './changes.js';
import type pg from 'pg';
import type { AccessWrite } from './access-writes.js';

/**
 * Reads every API call makes (a token's grant, a team, a membership, a link by code), answered from memory while nothing
 * they depend on changed. Each request caught up with the changes other processes made as it arrived (their
 * writers waited until this process had told these caches: changes.ts, routing.ts). A read of access (grants,
 * memberships) is forgotten on any change of access, a read of links on any change of links or of access (deleting
 * a team is both), here or elsewhere, so an answer is never older than the request; links changing, which is
 * frequent, leaves what access was read alone. A read that a change overtook while it ran is answered but not kept.
 */
export function cachedReads(changes: PgChanges, pool: pg.Pool) {
  const generations = { access: 0, links: 0 };
  changes.subscribe(() => void (generations.links += 1));
  changes.onAccess(() => {
    generations.access += 1;
    generations.links += 1;
  });

  return {
    cached<A extends unknown[], V>(
      dependsOn: keyof typeof generations,
      maxEntries: number,
      keyOf: (...args: A) => string,
      read: (...args: A) => Promise<V>,
    ) {
      const generation = () => generations[dependsOn];
      const cache = new LruCache<{ value: V }>(maxEntries, { stats: cacheStats('store-reads') });
      let filledIn = generation();
      return async (...args: A): Promise<V> => {
        if (filledIn !== generation()) {
          cache.clear();
          filledIn = generation();
        }
        const key = keyOf(...args);
        const hit = cache.get(key);
        if (hit) return hit.value;
        const readIn = generation();
        const value = await read(...args);
        if (readIn === generation()) {
          // Shared from now on: a caller changing it would change what every later call is told.
          if (typeof value === 'object' && value !== null) Object.freeze(value);
          cache.set(key, { value });
        }
        return value;
      };
    },
    /** How writes that change access run: each tells every process within its own transaction (access-writes.ts). */
    accessWrite: ((work) => changes.announced(pool, 'access', work)) as AccessWrite,
  };
}
