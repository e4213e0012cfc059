import type { ServiceSettings } from '../domain/service-settings.js';
import { apiError } from '../errors.js';
import type { Store } from '../store/ports.js';
import { SETTING_FLAGS, type SettingFlag } from './setting-flags.js';
import { quote } from './quote.js';

/** The service settings in force (who may sign up ...). */
export async function showSettings(store: Store): Promise<ServiceSettings> {
  return store.settings.serviceSettings();
}

/**
 * Changes the given settings (each as typed, by its flag), all of them or (when any value is bad) none; every
 * process applies them on its next request. The others keep their values.
 */
export async function setSettings(store: Store, typed: Partial<Record<SettingFlag, string>>): Promise<ServiceSettings> {
  const changes: Partial<Record<SettingFlag, string>> = {};
  for (const [flag, values] of Object.entries(SETTING_FLAGS) as Array<[SettingFlag, readonly string[]]>) {
    const raw = typed[flag];
    if (raw === undefined) continue;
    if (!values.includes(raw.trim())) throw apiError.badRequest(`--${flag} must be one of ${values.join(', ')}: ${quote(raw.trim())}`, flag);
    changes[flag] = raw.trim();
  }
  if (Object.keys(changes).length === 0) {
    throw apiError.badRequest(`settings set needs at least one of ${Object.keys(SETTING_FLAGS).map((f) => `--${f}`).join(', ')}`);
  }
  return store.settings.setServiceSettings(changes as Partial<ServiceSettings>);
}
