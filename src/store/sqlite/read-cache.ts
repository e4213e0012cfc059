import { cacheStats } from '../../support/cache-stats.js';
import { LruCache } from '../../support/lru-cache.js';
import { changeWatcher, type Db } from './database.js';

/**
 * A read the API makes on every call (a token's grant, a membership, a link by code), answered from memory while
 * the database is unchanged. Everything is forgotten when another connection commits (data_version, asked once per
 * task, as for every cache of operator data) and when this connection writes any row at all
 * (total_changes(), asked on every read: it costs a tenth of a microsecond and takes no lock, so a token revoked in
 * this process is refused on its very next call, whichever code path revoked it). Reads inside a transaction go to
 * the database, since what they see may yet be rolled back.
 */
export function cachedRead<A extends unknown[], V extends NonNullable<unknown> | null>(
  db: Db,
  maxEntries: number,
  keyOf: (...args: A) => string,
  read: (...args: A) => V,
): (...args: A) => V {
  const cache = new LruCache<V>(maxEntries, { stats: cacheStats('store-reads') });
  const generation = generationOf(db);
  let filledIn = generation();
  return (...args) => {
    if (db.inTransaction) return read(...args);
    const now = generation();
    if (now !== filledIn) {
      cache.clear();
      filledIn = now;
    }
    const key = keyOf(...args);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const value = read(...args);
    // Shared from now on: a caller changing it would change what every later call is told.
    if (typeof value === 'object' && value !== null) Object.freeze(value);
    cache.set(key, value);
    return value;
  };
}

const generations = new WeakMap<Db, () => number>();

/** A number that grows whenever the database may have changed; one per connection, shared by its caches. */
function generationOf(db: Db): () => number {
  let generation = generations.get(db);
  if (!generation) {
    generation = countChanges(db);
    generations.set(db, generation);
  }
  return generation;
}

function countChanges(db: Db): () => number {
  const otherWriters = changeWatcher(db);
  const ownChanges = db.prepare('SELECT total_changes()').pluck();
  let seen = ownChanges.get() as number;
  let count = 0;
  return () => {
    const own = ownChanges.get() as number;
    if (otherWriters() || own !== seen) count += 1;
    seen = own;
    return count;
  };
}
