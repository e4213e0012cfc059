import { LIMIT_FLAGS, type LimitFlag } from '../operator/limit-flags.js';
import { setLimits, showLimits } from '../operator/limits.js';
import { givenStrings } from './args.js';
import { defineCommand, keyValueLines } from './command.js';

/** `limits show`: the limits in force. */
export const limitsShow = defineCommand((_args, store) => showLimits(store), keyValueLines);

/**
 * `limits set [--preset private] [--team-links N] ...`: the given limits, all of them or (when any value is bad) none;
 * a flag wins over the preset's value.
 */
export const limitsSet = defineCommand((args, store) => {
  const preset = args.values.preset;
  return setLimits(store, givenStrings(args, Object.keys(LIMIT_FLAGS) as LimitFlag[]), typeof preset === 'string' ? preset : undefined);
}, keyValueLines);
