import { DEFAULT_LIMITS, type Limits } from '../domain/limits.js';

/**
 * The limits in force, from the settings row `limits` (JSON of what the operator changed, or none): the defaults
 * with the operator's values over them. Frozen, since every call is handed the same object from a cache.
 */
export function limitsFrom(stored: string | null | undefined): Limits {
  return Object.freeze({ ...DEFAULT_LIMITS, ...(stored ? (JSON.parse(stored) as Partial<Limits>) : {}) });
}
