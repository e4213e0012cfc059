import { SETTING_FLAGS, type SettingFlag } from '../operator/setting-flags.js';
import { setSettings, showSettings } from '../operator/service-settings.js';
import { givenStrings } from './args.js';
import { defineCommand, keyValueLines } from './command.js';

/** `settings show`: the service settings in force. */
export const settingsShow = defineCommand((_args, store) => showSettings(store), keyValueLines);

/** `settings set [--signup open|invite|closed]`: the given settings, all of them or (when any value is bad) none. */
export const settingsSet = defineCommand(
  (args, store) => setSettings(store, givenStrings(args, Object.keys(SETTING_FLAGS) as SettingFlag[])),
  keyValueLines,
);
