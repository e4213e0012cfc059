/** Lookups a cache answered from memory and lookups it could not, since the process started. */
export interface CacheStats {
  hits: number;
  misses: number;
}

const byName = new Map<string, CacheStats>();

/**
 * The tally of every cache called `name` in this process (the metrics listener reports them as hit ratios). Plain
 * numbers a cache bumps on each `get`, so counting costs the redirect path nothing it would notice; caches of one
 * name (say, one per prepared read) share a tally, so the names stay few.
 */
export function cacheStats(name: string): CacheStats {
  let stats = byName.get(name);
  if (!stats) byName.set(name, (stats = { hits: 0, misses: 0 }));
  return stats;
}

/** Every named tally, for the metrics listener. */
export function everyCacheStats(): ReadonlyMap<string, CacheStats> {
  return byName;
}
