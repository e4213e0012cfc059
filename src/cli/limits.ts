import type { Limits } from '../domain/limits.js';
import { LIMIT_FLAGS, type LimitFlag } from '../operator/limit-flags.js';
import { setLimits, showLimits } from '../operator/limits.js';
import { defineCommand } from './command.js';

const text = (limits: Limits) =>
  (Object.keys(limits) as Array<keyof Limits>).map((key) => `${key}: ${limits[key]}`).join('\n');

/** `limits show`: the limits in force. */
export const limitsShow = defineCommand((_args, store) => showLimits(store), text);

/** `limits set [--team-links N] ...`: the given limits, all of them or (when any value is bad) none. */
export const limitsSet = defineCommand((args, store) => {
  const given = (Object.keys(LIMIT_FLAGS) as LimitFlag[]).flatMap((flag) => {
    const value = args.values[flag];
    return typeof value === 'string' ? [[flag, value] as const] : [];
  });
  return setLimits(store, Object.fromEntries(given));
}, text);
