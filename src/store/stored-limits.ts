import { DEFAULT_LIMITS, type Limits } from '../domain/limits.js';
import { DEFAULT_SERVICE_SETTINGS, type ServiceSettings } from '../domain/service-settings.js';

/**
 * A JSON settings row (what the operator changed, or none) over its defaults. Frozen, since every call is handed
 * the same object from a cache.
 */
function overDefaults<T extends object>(defaults: T, stored: string | null | undefined): Readonly<T> {
  return Object.freeze({ ...defaults, ...(stored ? (JSON.parse(stored) as Partial<T>) : {}) });
}

/** The limits in force, from the settings row `limits`: the defaults with the operator's values over them. */
export function limitsFrom(stored: string | null | undefined): Limits {
  return overDefaults(DEFAULT_LIMITS, stored);
}

/** The service settings in force (the sign-up mode ...), from the settings row `service`, over their defaults. */
export function serviceSettingsFrom(stored: string | null | undefined): ServiceSettings {
  return overDefaults(DEFAULT_SERVICE_SETTINGS, stored);
}
