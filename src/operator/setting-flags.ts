import { DESTINATION_MODES, SIGNUP_MODES, type ServiceSettings } from '../domain/service-settings.js';

/**
 * The flags of `settings set` (and the fields of the operator's settings form): one per service setting, named as
 * the setting, each with the values it takes. A module of its own, holding only data, so the CLI's parser
 * (cli/commands.ts) loads no command to know it. A new setting is one line here and one field in ServiceSettings.
 */
export const SETTING_FLAGS = {
  signup: SIGNUP_MODES,
  destinations: DESTINATION_MODES,
} as const satisfies { [K in keyof ServiceSettings]: readonly ServiceSettings[K][] };

export type SettingFlag = keyof typeof SETTING_FLAGS;
